import type { LuaCommand } from './define.js';

// People's decisions (src/review/decision-store.ts). The standing decisions are one hash, a field per account
// (a digest), whose value is a JSON array of that account's decisions, one per expected name:
//   {"e": expected name key, "x": expected name, "h": holder name, "b": bank code, "a": account number,
//    "v": environment, "d": "APPROVED" | "REJECTED", "by": person, "at": ms, "n": note}
// The audit trail is a stream, one entry per decision recorded or changed. Both keys carry the hash tag
// {decisions}, so these scripts are valid on a cluster.

/** Keeps the entries of a standing value younger than `keep` ms (0: all). */
const LIVE_ENTRIES = `
local function liveEntries(stored, keep, nowMs)
  local list = {}
  if not stored then return list end
  for _, entry in ipairs(cjson.decode(stored)) do
    if keep == 0 or entry.at >= nowMs - keep then list[#list + 1] = entry end
  end
  return list
end
local function redisNowMs()
  local now = redis.call('TIME')
  return tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
end
`;

/**
 * Records decisions, each atomically with its audit entry: several writers at once (the console, a `review`
 * import) end with one standing decision per facts and every change in the trail, in the order made. A file's
 * decisions are one call: all recorded, or none.
 *
 * KEYS: standing hash, trail stream.
 * ARGV: keep ms (0: for ever), then per decision four values: the account field; the decision entry as JSON
 * without `at` (without `n` when no note was given); the `at` (ms) of the decision the writer saw on its row,
 * or '' when it saw none; the trail entry's own fields as a JSON array [name, value, ...].
 * Reply: per decision {status, the earlier decision on the same expected name as JSON or '', at}, status
 * `recorded` (at: its time, the ms of its trail id), `unchanged` (the same decision on the same holder already
 * stands, with the same note when one was given: nothing written), `stale` (the writer saw a decision that no
 * longer stands, or saw none where another decision now stands on the same facts: nothing written).
 */
export const DECISIONS_RECORD: LuaCommand = {
  name: 'bcDecisionsRecordV3',
  numberOfKeys: 2,
  lua: `${LIVE_ENTRIES}
local keep = tonumber(ARGV[1])
local nowMs = redisNowMs()
local replies = {}
for i = 2, #ARGV, 4 do
  local field, new, seen = ARGV[i], cjson.decode(ARGV[i + 1]), ARGV[i + 2]
  local list = liveEntries(redis.call('HGET', KEYS[1], field), keep, nowMs)
  local index
  for j, entry in ipairs(list) do
    if entry.e == new.e then index = j end
  end
  local earlier = index and list[index]
  local earlierJson = earlier and cjson.encode(earlier) or ''
  if earlier and earlier.h == new.h and earlier.d == new.d and (new.n == nil or earlier.n == new.n) then
    replies[#replies + 1] = {'unchanged', earlierJson, tostring(earlier.at)}
  elseif seen ~= '' and (not earlier or earlier.at ~= tonumber(seen)) then
    replies[#replies + 1] = {'stale', earlierJson, ''}
  elseif seen == '' and earlier and earlier.h == new.h then
    -- The writer saw no decision, yet one stands on the same facts: made since it looked (by someone else, whose
    -- name and note the same value would otherwise replace).
    replies[#replies + 1] = {'stale', earlierJson, ''}
  else
    if new.n == nil then new.n = '' end
    local fields = {'event', earlier and 'CHANGED' or 'RECORDED', 'previous_decision', earlier and earlier.d or '', 'previous_by', earlier and earlier.by or '', 'previous_at', earlier and tostring(earlier.at) or ''}
    for _, value in ipairs(cjson.decode(ARGV[i + 3])) do fields[#fields + 1] = value end
    local id = redis.call('XADD', KEYS[2], '*', unpack(fields))
    new.at = tonumber(string.match(id, '^(%d+)'))
    list[index or (#list + 1)] = new
    redis.call('HSET', KEYS[1], field, cjson.encode(list))
    replies[#replies + 1] = {'recorded', earlierJson, tostring(new.at)}
  end
end
if keep > 0 then redis.call('XTRIM', KEYS[2], 'MINID', nowMs - keep) end
return replies`,
};

/**
 * DECISION_RETENTION: drops the decisions older than `keep` from these account fields (a field left
 * empty goes) and the audit entries older than it. KEYS: standing hash, trail stream. ARGV: keep ms (above 0),
 * then account fields. Reply: decisions dropped.
 */
export const DECISIONS_SWEEP: LuaCommand = {
  name: 'bcDecisionsSweepV1',
  numberOfKeys: 2,
  lua: `${LIVE_ENTRIES}
local keep = tonumber(ARGV[1])
local nowMs = redisNowMs()
local dropped = 0
for i = 2, #ARGV do
  local stored = redis.call('HGET', KEYS[1], ARGV[i])
  if stored then
    local before = #cjson.decode(stored)
    local list = liveEntries(stored, keep, nowMs)
    if #list == 0 then
      redis.call('HDEL', KEYS[1], ARGV[i])
    elseif #list < before then
      redis.call('HSET', KEYS[1], ARGV[i], cjson.encode(list))
    end
    dropped = dropped + before - #list
  end
end
redis.call('XTRIM', KEYS[2], 'MINID', nowMs - keep)
return dropped`,
};

/**
 * Ends decisions whose holder name the bank changed after they were made, even where it has since gone back:
 * each entry is removed only if it is still the one judged (same expected name key, same `at`), with a
 * `VOIDED` audit entry saying why. KEYS: standing hash, trail stream. ARGV: keep ms (0: for ever), then per
 * decision four values: the account field, the expected name key, the `at` (ms) of the decision judged, the
 * trail entry's own fields as a JSON array [name, value, ...]. Reply: decisions ended.
 */
export const DECISIONS_VOID: LuaCommand = {
  name: 'bcDecisionsVoidV1',
  numberOfKeys: 2,
  lua: `
local ended = 0
for i = 2, #ARGV, 4 do
  local field, key, at = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local stored = redis.call('HGET', KEYS[1], field)
  if stored then
    local list, kept, found = cjson.decode(stored), {}, nil
    for _, entry in ipairs(list) do
      if entry.e == key and entry.at == at then found = entry else kept[#kept + 1] = entry end
    end
    if found then
      if #kept == 0 then redis.call('HDEL', KEYS[1], field) else redis.call('HSET', KEYS[1], field, cjson.encode(kept)) end
      local fields = {'event', 'VOIDED', 'previous_decision', found.d, 'previous_by', found.by, 'previous_at', tostring(found.at)}
      for _, value in ipairs(cjson.decode(ARGV[i + 3])) do fields[#fields + 1] = value end
      redis.call('XADD', KEYS[2], '*', unpack(fields))
      ended = ended + 1
    end
  end
end
local keep = tonumber(ARGV[1])
if keep > 0 then
  local now = redis.call('TIME')
  redis.call('XTRIM', KEYS[2], 'MINID', tonumber(now[1]) * 1000 - keep)
end
return ended`,
};
