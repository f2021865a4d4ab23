import type { LuaCommand } from './define.js';

/**
 * Deletes the cached token only if it is still the one that failed, so a newer token survives a late 401.
 * The token is stored sealed: it is named by its keyed id (ARGV[1]), never by the token itself.
 */
export const TOKEN_DELETE_IF_SAME: LuaCommand = {
  name: 'bcTokenDeleteIfSame',
  numberOfKeys: 1,
  lua: `
local value = redis.call('GET', KEYS[1])
if value and cjson.decode(value).id == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
};
