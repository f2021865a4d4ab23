import type { LuaCommand } from './define.js';

/**
 * The rate ceiling of a queue: a sorted set of the live worker processes, each member the JSON of one
 * process (its `rate` setting, owner id, host and pid), scored by when its registration expires on Redis's
 * clock. KEYS[1]: the set; ARGV[1]: the rate setting, ARGV[2]: this process's member, ARGV[3]: its lifetime
 * in ms. Expired members are dropped; when a live member has another rate, it is returned and nothing is
 * written; otherwise this process is (re-)registered until now + ARGV[3] and false is returned.
 */
export const RATE_CEILING_JOIN: LuaCommand = {
  name: 'bcRateCeilingJoin',
  numberOfKeys: 1,
  lua: `
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local ok, other = pcall(cjson.decode, member)
  if member ~= ARGV[2] and ok and type(other) == 'table' and other.rate ~= ARGV[1] then return member end
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return false`,
};
