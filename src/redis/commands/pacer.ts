import type { LuaCommand } from './define.js';

/**
 * The shared pacer is one hash per queue (so every script touches one key, whatever the cluster):
 *   next      the next free send slot              hold     the end of the last 429's hold
 *   epoch     bumped by each hold: a slot taken under an older epoch must not be used
 *   slowedTo, climbsFrom, refused, slowedAt       the rate after 429s (src/queue/rate-control.ts)
 *   w0..wN-1, wi   a ring of the last N send times (N = the rate's max per window): the window guard
 * Times are milliseconds on Redis's own clock so that every process on every machine agrees, written to the
 * microsecond (`ms`): Lua's tostring keeps 14 significant digits, a tenth of a millisecond at today's epoch,
 * and rounding every slot to it moved each one by up to 0.05 ms, the same way each time: slots meant to be
 * 5.05 ms apart (200/s spaced 1% wide) were 5.1 ms apart, 196/s instead of 198/s.
 */
const NOW = `
local now_parts = redis.call('TIME')
local now = now_parts[1] * 1000 + now_parts[2] / 1000
local key = KEYS[1]
local function ms(t) return string.format('%.3f', t) end
`;

/** How long the pacer outlives its last use: a run the next day starts at the configured rate again. */
const PACER_IDLE_TTL_MS = 600_000;

/**
 * The window guard's ring of the last `size` sends, every change to it in one place:
 * - `oldest_position(size)`: the position holding the oldest record, the next to be overwritten;
 * - `record_send(i, size)`: records a send at `now` in position `i` (the oldest), which then becomes the newest;
 * - `move_record(i, at)`: a send recorded at `at` in position `i` that left later moves its record to `now`,
 *   false when that position holds another record by now (it was overwritten).
 */
const RING = `
local function oldest_position(size) return tonumber(redis.call('HGET', key, 'wi') or '0') % size end
local function record_send(i, size) redis.call('HSET', key, 'w' .. i, ms(now), 'wi', tostring((i + 1) % size)) end
local function move_record(i, at)
  if redis.call('HGET', key, 'w' .. i) ~= at then return false end
  redis.call('HSET', key, 'w' .. i, ms(now))
  return true
end
`;

/**
 * Records a send at `now` unless the last `size` sends all fall within `span` ms of it (the sliding
 * window would hold one too many); then returns how long to wait before asking again, and '' (0 and the
 * ring position it recorded the send in when it did).
 */
const ADMIT = `${RING}
local function admit(size, span)
  local i = oldest_position(size)
  local oldest = tonumber(redis.call('HGET', key, 'w' .. i) or '')
  if oldest ~= nil and now < oldest + span then return oldest + span - now, '' end
  record_send(i, size)
  return 0, tostring(i)
end
`;

/**
 * Reserves the next free send slot, `ARGV[1]` ms after the previous one and not inside a hold.
 * ARGV[2], ARGV[3]: the window guard's size and span. A slot further away than ARGV[4] ms is not taken
 * ('later': ask again after the wait returned), so that calls waiting behind a slowed rate are spaced at
 * the rate in force when their turn comes, not at the rate of when they started waiting. Returns 'slot'
 * or 'later', the wait in ms ('slot' with 0: go now, the send is recorded at Redis's now), the epoch the
 * slot belongs to, Redis's now, the rate fields, and the ring position of the recorded send ('' if none).
 */
const RESERVE = `
local f = redis.call('HMGET', key, 'next', 'hold', 'epoch', 'slowedTo', 'climbsFrom', 'refused', 'slowedAt')
local slot = math.max(now, tonumber(f[1] or '0'), tonumber(f[2] or '0'))
local interval = tonumber(ARGV[1])
local horizon = tonumber(ARGV[4])
local status = 'later'
local ring = ''
local wait = slot - now - horizon
if wait <= 0 then
  status = 'slot'
  wait = slot - now
  if wait <= 0 then
    wait, ring = admit(tonumber(ARGV[2]), tonumber(ARGV[3]))
    -- The guard turned a due slot back: slots before its answer would only be turned back too (each
    -- a round trip more). The spacing goes on from the guard's time.
    if wait > 0 then slot = now + wait end
  end
  redis.call('HSET', key, 'next', ms(slot + interval))
  redis.call('PEXPIRE', key, math.ceil(slot - now + interval + ${PACER_IDLE_TTL_MS}))
end
return {status, ms(wait), f[3] or '0', ms(now), f[4] or '', f[5] or '', f[6] or '', f[7] or '', ring}`;

export const PACER_RESERVE_SLOT: LuaCommand = {
  name: 'bcPacerReserveSlot',
  numberOfKeys: 1,
  lua: `${NOW}${ADMIT}${RESERVE}`,
};

/**
 * The worker's pre-call work in one round trip: 'answered' (and no slot taken) when the batch's outcomes
 * hash KEYS[2] already holds ARGV[5] (the account key: a job that runs twice asks once), otherwise the
 * reservation of PACER_RESERVE_SLOT. Two keys of different slots: only for a standalone Redis (on a
 * cluster the pacer runs the two halves apart, see SendPacer.preCall).
 */
export const PACER_PRE_CALL: LuaCommand = {
  name: 'bcPacerPreCall',
  numberOfKeys: 2,
  lua: `${NOW}${ADMIT}
if redis.call('HEXISTS', KEYS[2], ARGV[5]) == 1 then return {'answered'} end${RESERVE}`,
};

/**
 * Right before sending on a slot reserved earlier: -1 when a hold began since (ARGV[1], the slot's epoch,
 * is old) or is still on (reserve again); otherwise the window guard's answer (0: go, the send is
 * recorded; more: wait that long and confirm again), Redis's now and the ring position of the record.
 * A call whose send was recorded already (ARGV[4]: its ring position, ARGV[5]: the time recorded) but
 * that read the reply too late moves its own record to now instead of taking a second position: the
 * ring keeps one record per send. Safe while that position still holds this record (no admission has
 * overwritten it): the ring holds as many records as before, and a later one only makes the guard stricter.
 */
export const PACER_CONFIRM_SLOT: LuaCommand = {
  name: 'bcPacerConfirmSlotV2',
  numberOfKeys: 1,
  lua: `${NOW}${ADMIT}
local f = redis.call('HMGET', key, 'epoch', 'hold')
if (f[1] or '0') ~= ARGV[1] or now < tonumber(f[2] or '0') then return {'-1', '', ''} end
if ARGV[4] ~= '' and move_record(ARGV[4], ARGV[5]) then return {'0', ms(now), ARGV[4]} end
local wait, ring = admit(tonumber(ARGV[2]), tonumber(ARGV[3]))
return {ms(wait), ms(now), ring}`,
};

/**
 * A send that left later than it was recorded (ARGV[1]: its ring position, ARGV[2]: the time recorded)
 * moves its record to now. When that position was overwritten meanwhile (it can be only a window after
 * the record), the send is recorded again at now in the next position. Either way a record only gets
 * later, which only makes the guard stricter. ARGV[3]: the ring's size.
 */
export const PACER_MOVE_RECORD: LuaCommand = {
  name: 'bcPacerMoveRecord',
  numberOfKeys: 1,
  lua: `${NOW}${RING}
if move_record(ARGV[1], ARGV[2]) then return 1 end
record_send(oldest_position(tonumber(ARGV[3])), tonumber(ARGV[3]))
return 0`,
};

/**
 * A 429: holds every process for ARGV[1] ms (Retry-After) and, when no decrease happened since the call
 * was paced (ARGV[2], the `slowedAt` its slot saw, is still current), slows the rate to ARGV[3] (the
 * multiplicative decrease, ARGV[4]: the rate refused), or lower: to the sends per second the provider's
 * window took before it refused (the ring holds them: sends within the last ARGV[6] ms, the rate's
 * window of ARGV[5] sends), never below ARGV[7]. The first 429 of a run far above the provider's limit
 * so lands near the limit at once instead of halving its way down, a 429 and a hold per halving.
 * Once per hold, not once per 429. Returns 1 or 0 (the rate was decreased) and the rate set.
 */
export const PACER_SLOW_DOWN: LuaCommand = {
  name: 'bcPacerSlowDown',
  numberOfKeys: 1,
  lua: `${NOW}
local hold_until = now + tonumber(ARGV[1])
local f = redis.call('HMGET', key, 'slowedAt', 'hold', 'next')
local slowed = 0
local to = tonumber(ARGV[3])
if (f[1] or '') == ARGV[2] then
  local size, window = tonumber(ARGV[5]), tonumber(ARGV[6])
  local sent = 0
  for i = 0, size - 1 do
    local at = tonumber(redis.call('HGET', key, 'w' .. i) or '')
    if at ~= nil and at > now - window then sent = sent + 1 end
  end
  -- The refused call is among the sends counted: the window took one fewer.
  if sent > 1 then to = math.max(tonumber(ARGV[7]), math.min(to, (sent - 1) * 1000 / window)) end
  redis.call('HSET', key, 'slowedTo', tostring(to), 'refused', ARGV[4], 'slowedAt', ms(now), 'climbsFrom', ms(hold_until))
  slowed = 1
end
if hold_until > tonumber(f[2] or '0') then
  redis.call('HSET', key, 'hold', ms(hold_until), 'next', ms(math.max(hold_until, tonumber(f[3] or '0'))))
  redis.call('HINCRBY', key, 'epoch', 1)
end
redis.call('PEXPIRE', key, math.ceil(tonumber(ARGV[1]) + ${PACER_IDLE_TTL_MS}))
return {slowed, tostring(to)}`,
};

/** Redis's now, the end of the hold, and the rate fields: for the summary, and for calls sent unpaced. */
export const PACER_READ_RATE: LuaCommand = {
  name: 'bcPacerReadRate',
  numberOfKeys: 1,
  lua: `${NOW}
local f = redis.call('HMGET', key, 'hold', 'slowedTo', 'climbsFrom', 'refused', 'slowedAt')
return {ms(now), f[1] or '0', f[2] or '', f[3] or '', f[4] or '', f[5] or ''}`,
};
