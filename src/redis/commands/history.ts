import type { LuaCommand } from './define.js';

// The history of an endpoint is 65,536 bucket hashes (see keys.accountHistory); an account's entry is one
// field, `<verdict><result>|<answeredAt base 36>|<batch>|<outcome values>` (src/history/entry-codec.ts), so
// that the scripts read the time, the batch and the result without decoding the rest. Entries written
// before that encoding, `<answeredAt>|<batch>|<result>|<outcome JSON>`, start with a digit; they still read.
// Each command here touches one bucket: valid on a cluster (the one that also writes the batch's outcome,
// BATCH_SAVE_ANSWER in batch.ts, is for a standalone Redis only).

/** `entryTime(entry)`: when an entry was answered (ms), in either encoding; nil when it is neither. */
const ENTRY_TIME = `
local function entryTime(entry)
  local legacy = string.match(entry, '^(%d+)|')
  if legacy then return tonumber(legacy) end
  local at = string.match(entry, '^%u%u?|(%w+)|')
  return at and tonumber(at, 36)
end
`;

/**
 * `record(bucket, field, answeredAt, life ms, entry)`: records an account's answer unless the history holds a
 * later one (two batches asking the same account at once: the last answer given wins, whichever process
 * writes last), and drops the bucket's entries older than the history's life. The bucket lives that long
 * after its last write, so that no entry outlives it by more than one life, whether or not its bucket is
 * written again. An entry no encoding reads counts as the oldest (the readers ignore it too). Returns 1 when
 * recorded, 0 when a later answer was there.
 */
export const RECORD_ENTRY = `${ENTRY_TIME}
local function record(bucket, field, at, life, entry)
  local existing = redis.call('HGET', bucket, field)
  if existing and (entryTime(existing) or 0) > tonumber(at) then return 0 end
  redis.call('HSET', bucket, field, entry)
  local oldest = tonumber(at) - tonumber(life)
  local entries = redis.call('HGETALL', bucket)
  for i = 1, #entries, 2 do
    if (entryTime(entries[i + 1]) or 0) < oldest then redis.call('HDEL', bucket, entries[i]) end
  end
  redis.call('PEXPIRE', bucket, life)
  return 1
end
`;

/** RECORD_ENTRY as a command. KEYS: the bucket. ARGV: field, answeredAt, life ms, the entry. */
export const HISTORY_RECORD: LuaCommand = {
  name: 'bcHistoryRecordV3',
  numberOfKeys: 1,
  lua: `${RECORD_ENTRY}
return record(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])`,
};

/**
 * Adds the row verdicts a batch reported for its accounts, each only if the account's entry is still that
 * batch's answer (a later batch may have answered since). An entry in the earlier encoding keeps it, with
 * the result's name. KEYS: the buckets, one per account (a bucket may repeat). ARGV: the batch id, then per
 * key its field, result and the result's one-letter code. One call for a slice of the report on a single
 * Redis; one per account on a cluster, whose buckets lie on every node. Returns how many were set.
 */
export const HISTORY_SET_RESULTS: LuaCommand = {
  name: 'bcHistorySetResultsV4',
  numberOfKeys: 'given',
  lua: `
local function set_result(key, field, batch_id, result, code)
  local entry = redis.call('HGET', key, field)
  if not entry then return 0 end
  local verdict, _, at, batch, outcome = string.match(entry, '^(%u)(%u?)|(%w+)|([^|]*)|(.*)$')
  if verdict then
    if batch ~= batch_id then return 0 end
    redis.call('HSET', key, field, verdict .. code .. '|' .. at .. '|' .. batch .. '|' .. outcome)
    return 1
  end
  at, batch, _, outcome = string.match(entry, '^(%d+)|([^|]*)|([^|]*)|(.*)$')
  if batch ~= batch_id then return 0 end
  redis.call('HSET', key, field, at .. '|' .. batch .. '|' .. result .. '|' .. outcome)
  return 1
end
local set = 0
for i = 1, #KEYS do
  set = set + set_result(KEYS[i], ARGV[3 * i - 1], ARGV[1], ARGV[3 * i], ARGV[3 * i + 1])
end
return set`,
};
