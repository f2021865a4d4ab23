import type { LuaCommand } from './define.js';
import { CALL_NEEDED } from './batch.js';

/**
 * The shared pacer is one hash per queue (so every script touches one key, whatever the cluster):
 *   next      the next free send slot              hold     the end of the last 429's hold
 *   epoch     bumped by each hold: a slot taken under an older epoch must not be used
 *   slowedTo, climbsFrom, refused, slowedAt       the rate after 429s (src/queue/rate-control.ts)
 *   w0..wN-1, wi   a ring of the last N send times (N = the rate's max per window): the window guard.
 *             A slot is booked in it when it is reserved, for the time it is due (slots are handed out in
 *             time order, so the ring stays in send order): the reservation says when to send, and the
 *             window is kept without asking Redis again at the slot's time.
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
 * - `move_record(i, at)`: a send recorded at `at` in position `i` that left later moves its record to `now`
 *   (never earlier than `at`: a booked slot confirmed a moment before its time keeps it) and returns the time
 *   it holds now, false when that position holds another record by now (it was overwritten).
 */
const RING = `
local function oldest_position(size) return tonumber(redis.call('HGET', key, 'wi') or '0') % size end
local function record_send(i, size) redis.call('HSET', key, 'w' .. i, ms(now), 'wi', tostring((i + 1) % size)) end
local function move_record(i, at)
  if redis.call('HGET', key, 'w' .. i) ~= at then return false end
  local moved = ms(math.max(now, tonumber(at)))
  redis.call('HSET', key, 'w' .. i, moved)
  return moved
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
 * Reserves and books the next free send slot: `ARGV[1]` ms after the previous one, not inside a hold, and
 * not earlier than the window guard allows (ARGV[2], ARGV[3]: its size and span; the slot is `span` after
 * the send `size` slots before it). The slot is booked in the guard's ring for its time, so the caller
 * sends at that time without asking again. A slot further away than ARGV[4] ms is not taken ('later':
 * ask again after the wait returned), so that calls waiting behind a slowed rate are spaced at the rate in
 * force when their turn comes, not at the rate of when they started waiting. Returns 'slot' or 'later',
 * the wait in ms (0: go now), the epoch the slot belongs to, Redis's now, the rate fields, and the ring
 * position and time of the booking ('' for 'later').
 */
const RESERVE = `${RING}
local f = redis.call('HMGET', key, 'next', 'hold', 'epoch', 'slowedTo', 'climbsFrom', 'refused', 'slowedAt')
local slot = math.max(now, tonumber(f[1] or '0'), tonumber(f[2] or '0'))
local size, span = tonumber(ARGV[2]), tonumber(ARGV[3])
local i = oldest_position(size)
local oldest = tonumber(redis.call('HGET', key, 'w' .. i) or '')
-- The guard: the send "size" slots back (booked or sent) must be a whole span before this one. When it
-- holds a slot back, the spacing goes on from the guard's time.
if oldest ~= nil and slot < oldest + span then slot = oldest + span end
local horizon = tonumber(ARGV[4])
if slot - now > horizon then
  return {'later', ms(slot - now - horizon), f[3] or '0', ms(now), f[4] or '', f[5] or '', f[6] or '', f[7] or '', '', ''}
end
local interval = tonumber(ARGV[1])
redis.call('HSET', key, 'w' .. i, ms(slot), 'wi', tostring((i + 1) % size), 'next', ms(slot + interval))
redis.call('PEXPIRE', key, math.ceil(slot - now + interval + ${PACER_IDLE_TTL_MS}))
return {'slot', ms(slot - now), f[3] or '0', ms(now), f[4] or '', f[5] or '', f[6] or '', f[7] or '', tostring(i), ms(slot)}`;

export const PACER_RESERVE_SLOT: LuaCommand = {
  name: 'bcPacerReserveSlot',
  numberOfKeys: 1,
  lua: `${NOW}${RESERVE}`,
};

/**
 * The worker's pre-call work in one round trip: 'answered' or 'superseded' (and no slot taken) when the job
 * is not to call (CALL_NEEDED: KEYS[2] the batch's outcomes hash, KEYS[3] the batch hash, ARGV[5] the
 * account key, ARGV[6] the job's round), otherwise the reservation of PACER_RESERVE_SLOT. Keys of two
 * slots: only for a standalone Redis (on a cluster the pacer runs the two halves apart, see SendPacer.preCall).
 */
export const PACER_PRE_CALL: LuaCommand = {
  name: 'bcPacerPreCallV2',
  numberOfKeys: 3,
  lua: `${NOW}${CALL_NEEDED}
local skip = callNeeded(KEYS[2], KEYS[3], ARGV[5], ARGV[6])
if skip then return {skip} end${RESERVE}`,
};

/**
 * Before sending on a slot booked earlier, when this process has not read the pacer's state recently
 * enough to know that no hold began since (SendPacer: LATE_REPLY_MS): -1 when a hold began since (ARGV[1],
 * the slot's epoch, is old) or is still on (reserve again); otherwise the booking stands: its record
 * (ARGV[4]: ring position, ARGV[5]: the time booked) moves to now if that is later, and 0 is returned with
 * the time it holds and its position. A booking overwritten meanwhile (it can be only a window later) is
 * no licence: the window guard admits the send anew (0: go, recorded now; more: wait that long and
 * confirm again). Returns the wait, the record's time and its ring position.
 */
export const PACER_CONFIRM_SLOT: LuaCommand = {
  name: 'bcPacerConfirmSlotV3',
  numberOfKeys: 1,
  lua: `${NOW}${ADMIT}
local f = redis.call('HMGET', key, 'epoch', 'hold')
if (f[1] or '0') ~= ARGV[1] or now < tonumber(f[2] or '0') then return {'-1', '', ''} end
if ARGV[4] ~= '' then
  local moved = move_record(ARGV[4], ARGV[5])
  if moved then return {'0', moved, ARGV[4]} end
end
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
    -- Sends, not bookings still ahead.
    if at ~= nil and at > now - window and at <= now then sent = sent + 1 end
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
