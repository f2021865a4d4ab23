import type { LuaCommand } from './define.js';

/**
 * Reserves the next free send slot, `interval` ms after the previous one, on Redis's own clock so that
 * every process on every machine agrees. Returns how long the caller must wait for its slot.
 */
export const PACER_RESERVE_SLOT: LuaCommand = {
  name: 'bcPacerReserveSlot',
  numberOfKeys: 1,
  lua: `
local now_parts = redis.call('TIME')
local now = now_parts[1] * 1000 + now_parts[2] / 1000
local next_free = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now, next_free)
local interval = tonumber(ARGV[1])
redis.call('SET', KEYS[1], tostring(slot + interval), 'PX', math.ceil(slot - now + interval + 60000))
return tostring(slot - now)`,
};

/** Pushes the next free slot out by `ms` (a 429's Retry-After): every process waits. */
export const PACER_HOLD: LuaCommand = {
  name: 'bcPacerHold',
  numberOfKeys: 1,
  lua: `
local now_parts = redis.call('TIME')
local now = now_parts[1] * 1000 + now_parts[2] / 1000
local until_ms = now + tonumber(ARGV[1])
local next_free = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ms > next_free then
  redis.call('SET', KEYS[1], tostring(until_ms), 'PX', math.ceil(tonumber(ARGV[1]) + 60000))
end
return 1`,
};
