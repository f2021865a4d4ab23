import type { LuaCommand } from './define.js';
import { RECORD_ENTRY } from './history.js';

// Producing a batch is fenced by a generation number in the batch record: a producer that starts (or
// restarts) production takes the next generation, and every write it makes checks that its generation is
// still the current one. A producer that stalled past its lease and was replaced can then write nothing
// more, whatever it believes. KEYS: the batch hash, its rows list, its accounts set.

/**
 * Starts a new producer generation: drops rows and accounts of any earlier, unfinished production, and
 * records the block size the rows are stored in. ARGV: rows per block. Returns the generation.
 */
export const BATCH_START_GENERATION: LuaCommand = {
  name: 'bcBatchStartGenerationV2',
  numberOfKeys: 3,
  lua: `
local generation = redis.call('HINCRBY', KEYS[1], 'generation', 1)
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HDEL', KEYS[1], 'producedAt', 'storedRows')
redis.call('HSET', KEYS[1], 'rowsPerBlock', ARGV[1])
return generation`,
};

/**
 * Appends one block of rows in file order and registers their accounts, if the generation is still
 * current. Only the last block of a production may hold fewer than rowsPerBlock rows: a block after a
 * partial one would break the row -> block arithmetic of the readers, so it is refused.
 * ARGV: generation, the encoded block, its row count, then the account keys of its valid rows.
 * Returns {1, first-seen account keys} or {0} when fenced out.
 */
export const BATCH_APPEND_ROWS: LuaCommand = {
  name: 'bcBatchAppendRowBlock',
  numberOfKeys: 3,
  lua: `
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return {0} end
local stored = tonumber(redis.call('HGET', KEYS[1], 'storedRows') or '0')
if stored % tonumber(redis.call('HGET', KEYS[1], 'rowsPerBlock')) ~= 0 then return redis.error_reply('rows appended after a partial block') end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HINCRBY', KEYS[1], 'storedRows', ARGV[3])
local firstSeen = {}
for i = 4, #ARGV do
  if redis.call('SADD', KEYS[3], ARGV[i]) == 1 then firstSeen[#firstSeen + 1] = ARGV[i] end
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
redis.call('HSET', KEYS[1], 'rowCount', redis.call('HGET', KEYS[1], 'storedRows') or 0, 'accountCount', redis.call('SCARD', KEYS[3]), 'invalidCount', ARGV[2], 'producedAt', ARGV[3])
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

/**
 * Stores an account's first outcome in a batch, with what the history said before it (the snapshot the
 * `change` column compares with) in the same value: one write, so an outcome never exists without the
 * snapshot it was decided against, and a job that runs twice keeps the first of both. A reused answer is
 * counted on the batch. KEYS: the outcomes hash, the batch hash. ARGV: account key, value, reused (1/0).
 * Returns 1 when stored, 0 when the account had an outcome.
 */
export const BATCH_SAVE_OUTCOME: LuaCommand = {
  name: 'bcBatchSaveOutcome',
  numberOfKeys: 2,
  lua: `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
if ARGV[3] == '1' then redis.call('HINCRBY', KEYS[2], 'reusedAnswers', 1) end
return 1`,
};

/**
 * A definitive answer in one round trip, for a standalone Redis (the outcomes hash and the history bucket
 * are in different cluster slots; on a cluster the three steps run apart, see history/answers.ts): unless
 * the account has an outcome already (then nothing is written and 0 returned), stores it with the
 * account's history entry as it was (its snapshot: null when none, or older than the history's life),
 * then records the answer as the new entry (RECORD_ENTRY). One script: the outcome, its snapshot and the
 * history move together, with no crash between them.
 * KEYS: the outcomes hash, the history bucket. ARGV: account key, the outcome's values as a JSON array
 * (the script appends the snapshot and the reused flag 0 as its last two elements, as encodeAnswer does),
 * history field, answeredAt, life ms, the new entry. Returns 1 when stored.
 */
export const BATCH_SAVE_ANSWER: LuaCommand = {
  name: 'bcBatchSaveAnswerV2',
  numberOfKeys: 2,
  lua: `${RECORD_ENTRY}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
local before = redis.call('HGET', KEYS[2], ARGV[3])
local snapshot = 'null'
if before then
  local at = entryTime(before)
  if at ~= nil and at >= tonumber(ARGV[4]) - tonumber(ARGV[5]) then snapshot = cjson.encode(before) end
end
redis.call('HSET', KEYS[1], ARGV[1], string.sub(ARGV[2], 1, -2) .. ',' .. snapshot .. ',0]')
record(KEYS[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
return 1`,
};
