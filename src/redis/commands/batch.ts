import type { LuaCommand } from './define.js';

// Producing a batch is fenced by a generation number in the batch record: a producer that starts (or
// restarts) production takes the next generation, and every write it makes checks that its generation is
// still the current one. A producer that stalled past its lease and was replaced can then write nothing
// more, whatever it believes. KEYS: the batch hash, its rows list, its accounts set.

/** Starts a new producer generation: drops rows and accounts of any earlier, unfinished production. Returns the generation. */
export const BATCH_START_GENERATION: LuaCommand = {
  name: 'bcBatchStartGeneration',
  numberOfKeys: 3,
  lua: `
local generation = redis.call('HINCRBY', KEYS[1], 'generation', 1)
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HDEL', KEYS[1], 'producedAt')
return generation`,
};

/**
 * Appends rows in file order and registers their accounts, if the generation is still current.
 * ARGV: generation, n, n encoded rows, n account keys ('' for a row without one).
 * Returns {1, first-seen account keys} or {0} when fenced out.
 */
export const BATCH_APPEND_ROWS: LuaCommand = {
  name: 'bcBatchAppendRows',
  numberOfKeys: 3,
  lua: `
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return {0} end
local n = tonumber(ARGV[2])
local firstSeen = {}
for i = 1, n do
  redis.call('RPUSH', KEYS[2], ARGV[2 + i])
  local account = ARGV[2 + n + i]
  if account ~= '' and redis.call('SADD', KEYS[3], account) == 1 then firstSeen[#firstSeen + 1] = account end
end
return {1, firstSeen}`,
};

/**
 * Marks production finished, if the generation is still current. The counts come from what is stored,
 * not from what the producer counted. ARGV: generation, invalid rows, now. Returns 1, or 0 when fenced out.
 */
export const BATCH_MARK_PRODUCED: LuaCommand = {
  name: 'bcBatchMarkProduced',
  numberOfKeys: 3,
  lua: `
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rowCount', redis.call('LLEN', KEYS[2]), 'accountCount', redis.call('SCARD', KEYS[3]), 'invalidCount', ARGV[2], 'producedAt', ARGV[3])
return 1`,
};

/** Drops a content index entry (KEYS: the by-content hash) only while it names the batch given. ARGV: content hash, batch id. */
export const INDEX_DROP_CONTENT: LuaCommand = {
  name: 'bcIndexDropContent',
  numberOfKeys: 1,
  lua: `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0`,
};
