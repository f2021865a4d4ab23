import type { LuaCommand } from './define.js';
import { RECORD_ENTRY } from './history.js';

// Nothing of a batch is written without an expiry, and nothing is written once its record is gone. Every
// command that writes a batch's keys first checks that the record (its hash, with the batchId field) is
// there, and answers -1 (or {-1}) without writing when it is not: Redis lost it (a restart without
// persistence, a flush, eviction) or it was deleted, and a late answer or count would otherwise recreate
// keys of it (account numbers, holder names) that no index names and nothing expires. Every write that
// adds to a batch sets every key of it to expire after the retention (BATCH_RETENTION), counted from
// that write: an unfinished batch that nobody works on goes too; a finished one expires after the
// retention counted from its last report (BatchStore.markReported).
//
// Producing a batch is fenced by a generation number in the batch record: a producer that starts (or
// restarts) production takes the next generation, and every write it makes checks that its generation is
// still the current one. A producer that stalled past its lease and was replaced can then write nothing
// more, whatever it believes. KEYS: the batch hash, its rows list, its accounts set.

/** `batchGone(recordKey)`: true when the batch record is not there (never written, expired, lost or deleted). */
const BATCH_GONE = `
local function batchGone(record) return redis.call('HEXISTS', record, 'batchId') == 0 end
`;

/** `keepBatch(first, last, ms)`: KEYS[first..last] (keys of one batch) expire `ms` from now; a key not there yet is left. */
const KEEP_BATCH = `
local function keepBatch(first, last, ms) for i = first, last do redis.call('PEXPIRE', KEYS[i], ms) end end
`;

/**
 * `isFailed(value)`: whether an encoded outcome (encodeAnswer; or the object form stored before it) is FAILED. `keepLate(late, account, value, ms)` keeps
 * `value`, a definitive answer that found the account's outcome FAILED, in the batch's late answers hash
 * (expiring with the batch): the answer of a call that was on its way when the batch gave up on an outage
 * and wrote FAILED. The report stays as written, and the batch's next round takes the answer instead of
 * paying for the call again (BATCH_FORGET_FAILED).
 */
const LATE_ANSWERS = `
local function isFailed(value)
  return string.sub(value, 1, 10) == '["FAILED",' or string.sub(value, 1, 20) == '{"verdict":"FAILED",'
end
local function keepLate(late, account, value, ms)
  redis.call('HSET', late, account, value)
  redis.call('PEXPIRE', late, ms)
end
`;

/**
 * Starts a new producer generation: drops rows and accounts of any earlier, unfinished production, and
 * records the block size the rows are stored in. ARGV: rows per block, retention ms. Returns the
 * generation, or -1 when the batch is gone.
 */
export const BATCH_START_GENERATION: LuaCommand = {
  name: 'bcBatchStartGenerationV4',
  numberOfKeys: 4,
  lua: `${BATCH_GONE}${KEEP_BATCH}
if batchGone(KEYS[1]) then return -1 end
local generation = redis.call('HINCRBY', KEYS[1], 'generation', 1)
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('HDEL', KEYS[1], 'producedAt', 'storedRows')
redis.call('HSET', KEYS[1], 'rowsPerBlock', ARGV[1])
keepBatch(1, 1, ARGV[2])
return generation`,
};

/**
 * Appends one block of rows in file order and registers their accounts, if the generation is still
 * current. Only the last block of a production may hold fewer than rowsPerBlock rows: a block after a
 * partial one would break the row -> block arithmetic of the readers, so it is refused. A batch of several
 * accounts per job also lists its accounts in the order first seen (KEYS[4]: the order that makes its groups).
 * KEYS: the batch hash, its rows, its accounts, its account order. ARGV: generation, retention ms, the
 * encoded block, its row count, then the account keys of its valid rows.
 * Returns {1, first-seen account keys, the first one's ordinal}, {0} when fenced out, {-1} when the batch is gone.
 */
export const BATCH_APPEND_ROWS: LuaCommand = {
  name: 'bcBatchAppendRowBlockV3',
  numberOfKeys: 4,
  lua: `${BATCH_GONE}${KEEP_BATCH}
if batchGone(KEYS[1]) then return {-1} end
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return {0} end
local stored = tonumber(redis.call('HGET', KEYS[1], 'storedRows') or '0')
if stored % tonumber(redis.call('HGET', KEYS[1], 'rowsPerBlock')) ~= 0 then return redis.error_reply('rows appended after a partial block') end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('HINCRBY', KEYS[1], 'storedRows', ARGV[4])
local ordered = tonumber(redis.call('HGET', KEYS[1], 'accountsPerJob') or '1') > 1
local ordinal = redis.call('SCARD', KEYS[3])
local firstSeen = {}
for i = 5, #ARGV do
  if redis.call('SADD', KEYS[3], ARGV[i]) == 1 then
    firstSeen[#firstSeen + 1] = ARGV[i]
    if ordered then redis.call('RPUSH', KEYS[4], ARGV[i]) end
  end
end
keepBatch(1, 4, ARGV[2])
return {1, firstSeen, ordinal}`,
};

/**
 * Marks production finished, if the generation is still current. The counts come from what is stored,
 * not from what the producer counted. ARGV: generation, invalid rows, now. Returns 1, 0 when fenced out,
 * -1 when the batch is gone. (A field written into an existing hash keeps its expiry.)
 */
export const BATCH_MARK_PRODUCED: LuaCommand = {
  name: 'bcBatchMarkProducedV3',
  numberOfKeys: 4,
  lua: `${BATCH_GONE}
if batchGone(KEYS[1]) then return -1 end
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rowCount', redis.call('HGET', KEYS[1], 'storedRows') or 0, 'accountCount', redis.call('SCARD', KEYS[3]), 'invalidCount', ARGV[2], 'producedAt', ARGV[3])
return 1`,
};

/** Moves a batch that is still there to its next round (KEYS: the batch hash). Returns the round, or -1 when gone. */
export const BATCH_NEXT_ROUND: LuaCommand = {
  name: 'bcBatchNextRound',
  numberOfKeys: 1,
  lua: `${BATCH_GONE}
if batchGone(KEYS[1]) then return -1 end
return redis.call('HINCRBY', KEYS[1], 'round', 1)`,
};

/**
 * The FAILED outcome of a wait that gave up, for a slice of its unanswered accounts, while the batch is
 * still in the wait's round (a rerun that moved it on asks those accounts again: writing FAILED into its
 * round would end them unasked). KEYS: the outcomes hash, the batch hash, its rows, its accounts, its account order. ARGV:
 * the round, retention ms, the encoded outcome, then the account keys. An account with an outcome keeps
 * it. Returns 1, 0 when the round moved (nothing written), -1 when the batch is gone.
 */
export const BATCH_MARK_GIVEN_UP: LuaCommand = {
  name: 'bcBatchMarkGivenUpV2',
  numberOfKeys: 5,
  lua: `${BATCH_GONE}${KEEP_BATCH}
if batchGone(KEYS[2]) then return -1 end
if (redis.call('HGET', KEYS[2], 'round') or '0') ~= ARGV[1] then return 0 end
for i = 4, #ARGV do redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[3]) end
keepBatch(1, 5, ARGV[2])
return 1`,
};

/**
 * Forgets the FAILED outcomes among the given accounts, to be asked again in the batch's next round; an
 * account with a late answer (LATE_ANSWERS) takes it as its outcome instead, and is not asked again. An
 * outcome that is no longer FAILED is left. KEYS: the outcomes hash, the late answers hash, the batch hash.
 * ARGV: the account keys. Returns {forgotten, replaced}, or {-1} when the batch is gone (nothing written).
 */
export const BATCH_FORGET_FAILED: LuaCommand = {
  name: 'bcBatchForgetFailed',
  numberOfKeys: 3,
  lua: `${BATCH_GONE}${LATE_ANSWERS}
if batchGone(KEYS[3]) then return {-1} end
local forgotten, replaced = 0, 0
for _, account in ipairs(ARGV) do
  local current = redis.call('HGET', KEYS[1], account)
  if current and isFailed(current) then
    local late = redis.call('HGET', KEYS[2], account)
    if late then
      redis.call('HSET', KEYS[1], account, late)
      redis.call('HDEL', KEYS[2], account)
      replaced = replaced + 1
    else
      redis.call('HDEL', KEYS[1], account)
      forgotten = forgotten + 1
    end
  end
end
return {forgotten, replaced}`,
};

/** Adds to one call counter of a batch that is still there (KEYS: the batch hash). ARGV: field, by. Returns 1, or -1 when gone. */
export const BATCH_COUNT: LuaCommand = {
  name: 'bcBatchCount',
  numberOfKeys: 1,
  lua: `${BATCH_GONE}
if batchGone(KEYS[1]) then return -1 end
redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
return 1`,
};

/**
 * The batch's key for the account numbers in its queued jobs (see job-seal.ts), made on first use (ARGV: a
 * new random key) and kept in the batch record, so that it expires and is deleted with the batch. Returns
 * the key, or false when the batch is gone (nothing is written then).
 */
export const BATCH_JOB_SEAL: LuaCommand = {
  name: 'bcBatchJobSeal',
  numberOfKeys: 1,
  lua: `${BATCH_GONE}
if batchGone(KEYS[1]) then return false end
redis.call('HSETNX', KEYS[1], 'jobSeal', ARGV[1])
return redis.call('HGET', KEYS[1], 'jobSeal')`,
};

/**
 * The batch is finished: a report with every row answered was written (KEYS: the batch hash, its rows,
 * accounts, account order, outcomes, late answers and the rows a person decides: batchKeyNames). ARGV: now, the report path, its counts
 * (JSON), retention ms. Every key of the batch expires after the retention, counted from this report.
 * Returns 1 when this call finished it, 0 when it was finished already, -1 when the batch is gone.
 */
export const BATCH_MARK_REPORTED: LuaCommand = {
  name: 'bcBatchMarkReportedV4',
  numberOfKeys: 7,
  lua: `${BATCH_GONE}${KEEP_BATCH}
if batchGone(KEYS[1]) then return -1 end
local finished = redis.call('HSETNX', KEYS[1], 'reportedAt', ARGV[1])
redis.call('HSET', KEYS[1], 'lastReport', ARGV[2], 'reportCounts', ARGV[3])
keepBatch(1, 7, ARGV[4])
return finished`,
};

/**
 * Puts the rows a person decides, as a report just listed them, in place of the last list (KEYS[3]), from
 * the writer's temporary list (KEYS[2]), and notes on the batch record (KEYS[1]) that a report wrote it.
 * The list lives the retention from now, as every key of the batch. ARGV: retention ms, entries written
 * (0: the report listed none, the last list goes). Returns 1, or -1 (and drops the temporary list) when the
 * batch is gone.
 */
export const BATCH_COMMIT_REVIEW_ROWS: LuaCommand = {
  name: 'bcBatchCommitReviewRows',
  numberOfKeys: 3,
  lua: `${BATCH_GONE}
if batchGone(KEYS[1]) then redis.call('UNLINK', KEYS[2]) return -1 end
if tonumber(ARGV[2]) == 0 then redis.call('UNLINK', KEYS[3])
else
  redis.call('RENAME', KEYS[2], KEYS[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[1])
end
redis.call('HSET', KEYS[1], 'reviewRowsWritten', 1)
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
 * `callNeeded(outcomes, batch, account, round)`: 'answered' when the batch's outcomes hash holds the account
 * (a job that runs twice asks once); 'superseded' when the batch is in a later round than the job's (its
 * FAILED answers were forgotten to be asked again by jobs of the new round, and a job of the earlier round
 * still queued, delayed for a retry or stalled must not ask as well: both asked, and the account was paid
 * for twice); false when the job is to call. A batch gone is round 0: its round-0 jobs go on and their
 * answers find it gone.
 */
export const CALL_NEEDED = `
local function callNeeded(outcomes, batch, account, round)
  if redis.call('HEXISTS', outcomes, account) == 1 then return 'answered' end
  if (redis.call('HGET', batch, 'round') or '0') ~= round then return 'superseded' end
  return false
end
`;

/** Whether a job is to call (CALL_NEEDED): KEYS the outcomes hash, the batch hash; ARGV the account key, the job's round. Returns '' to call. */
export const BATCH_CALL_NEEDED: LuaCommand = {
  name: 'bcBatchCallNeeded',
  numberOfKeys: 2,
  lua: `${CALL_NEEDED}
return callNeeded(KEYS[1], KEYS[2], ARGV[1], ARGV[2]) or ''`,
};

/** `addCounts(from)`: the call counts given as ARGV[from..] (field, by pairs) added to the batch hash `record`. */
const ADD_COUNTS = `
local function addCounts(record, from) for j = from, #ARGV - 1, 2 do redis.call('HINCRBY', record, ARGV[j], ARGV[j + 1]) end end
`;

/**
 * Stores an account's first outcome in a batch, with what the history said before it (the snapshot the
 * `change` column compares with) in the same value: one write, so an outcome never exists without the
 * snapshot it was decided against, and a job that runs twice keeps the first of both. A reused answer is
 * counted on the batch. A definitive answer, not reused, that finds the outcome FAILED is kept as a late answer
 * (LATE_ANSWERS).
 * KEYS: the outcomes hash, the batch hash, its rows, its accounts, its late answers, its account order. ARGV: account key,
 * value, reused (1/0), retention ms, then the call counts of the process to add (field, by pairs; added
 * whether or not the outcome is stored: the calls were made). Returns 1 when stored, 2 when kept as a late
 * answer, 0 when the account had an outcome, -1 when the batch is gone (nothing written).
 */
export const BATCH_SAVE_OUTCOME: LuaCommand = {
  name: 'bcBatchSaveOutcomeV5',
  numberOfKeys: 6,
  lua: `${BATCH_GONE}${KEEP_BATCH}${ADD_COUNTS}${LATE_ANSWERS}
if batchGone(KEYS[2]) then return -1 end
addCounts(KEYS[2], 5)
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  if ARGV[3] == '1' or isFailed(ARGV[2]) or not isFailed(redis.call('HGET', KEYS[1], ARGV[1])) then return 0 end
  keepLate(KEYS[5], ARGV[1], ARGV[2], ARGV[4])
  return 2
end
if ARGV[3] == '1' then redis.call('HINCRBY', KEYS[2], 'reusedAnswers', 1) end
keepBatch(1, 4, ARGV[4])
keepBatch(6, 6, ARGV[4])
return 1`,
};

/**
 * A definitive answer in one round trip, for a standalone Redis (the outcomes hash and the history bucket
 * are in different cluster slots; on a cluster the three steps run apart, see history/answers.ts): unless
 * the account has an outcome already (then nothing is written and 0 returned) or the batch is gone (-1),
 * stores it with the account's history entry as it was (its snapshot: null when none, or older than the
 * history's life), then records the answer as the new entry (RECORD_ENTRY). One script: the outcome, its
 * snapshot and the history move together, with no crash between them. An outcome FAILED takes the answer
 * as a late answer instead (LATE_ANSWERS; returns 2), and the history records it too: it is the provider's.
 * KEYS: the outcomes hash, the history bucket, the batch hash, its rows, its accounts, its late answers, its account order.
 * ARGV: account key, the outcome's values as a JSON array (the script appends the snapshot and the reused
 * flag 0 as its last two elements, as encodeAnswer does), history field, answeredAt, life ms, the new
 * entry, retention ms, then the call counts to add (as BATCH_SAVE_OUTCOME). Returns 1 when stored.
 */
export const BATCH_SAVE_ANSWER: LuaCommand = {
  name: 'bcBatchSaveAnswerV6',
  numberOfKeys: 7,
  lua: `${RECORD_ENTRY}${BATCH_GONE}${KEEP_BATCH}${ADD_COUNTS}${LATE_ANSWERS}
if batchGone(KEYS[3]) then return -1 end
addCounts(KEYS[3], 8)
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and not isFailed(current) then return 0 end
local before = redis.call('HGET', KEYS[2], ARGV[3])
local snapshot = 'null'
if before then
  local at = entryTime(before)
  if at ~= nil and at >= tonumber(ARGV[4]) - tonumber(ARGV[5]) then snapshot = cjson.encode(before) end
end
local value = string.sub(ARGV[2], 1, -2) .. ',' .. snapshot .. ',0]'
local stored = 1
if current then
  keepLate(KEYS[6], ARGV[1], value, ARGV[7])
  stored = 2
else
  redis.call('HSET', KEYS[1], ARGV[1], value)
  keepBatch(1, 1, ARGV[7])
  keepBatch(3, 5, ARGV[7])
  keepBatch(7, 7, ARGV[7])
end
record(KEYS[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
return stored`,
};
