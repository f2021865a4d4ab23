import type { LuaCommand } from './define.js';

// An account's history is one hash per account and endpoint (see keys.accountHistory); each command touches
// that one key, or the keys of one batch, so they stay valid on a cluster.

/**
 * Records an account's answer unless the history already holds a later one (two batches asking the same
 * account at once: the last answer given wins, whichever process writes last). The TTL starts again.
 * KEYS: the history hash. ARGV: answeredAt, ttl ms, then field/value pairs (answeredAt among them as `at`).
 * Returns 1 when recorded, 0 when a later answer was there.
 */
export const HISTORY_RECORD: LuaCommand = {
  name: 'bcHistoryRecord',
  numberOfKeys: 1,
  lua: `
local existing = redis.call('HGET', KEYS[1], 'at')
if existing and tonumber(existing) > tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`,
};

/**
 * Adds the row verdict a batch reported for the account, if the history entry is still that batch's answer
 * (a later batch may have answered since). The TTL is kept. KEYS: the history hash. ARGV: batch id, result.
 */
export const HISTORY_SET_RESULT: LuaCommand = {
  name: 'bcHistorySetResult',
  numberOfKeys: 1,
  lua: `
if redis.call('HGET', KEYS[1], 'batch') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'result', ARGV[2])
return 1`,
};
