import type { Redis } from 'ioredis';
import type { Rate } from '../config/index.js';

/**
 * Reserves the next free send slot, `interval` ms after the previous one, on Redis's own clock so that
 * every process on every machine agrees. Returns how long the caller must wait for its slot.
 */
const RESERVE_SLOT = `
local now_parts = redis.call('TIME')
local now = now_parts[1] * 1000 + now_parts[2] / 1000
local next_free = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now, next_free)
local interval = tonumber(ARGV[1])
redis.call('SET', KEYS[1], tostring(slot + interval), 'PX', math.ceil(slot - now + interval + 60000))
return tostring(slot - now)
`;

/** Pushes the next free slot out by `ms` (a 429's Retry-After): every process waits. */
const HOLD = `
local now_parts = redis.call('TIME')
local now = now_parts[1] * 1000 + now_parts[2] / 1000
local until_ms = now + tonumber(ARGV[1])
local next_free = tonumber(redis.call('GET', KEYS[1]) or '0')
if until_ms > next_free then
  redis.call('SET', KEYS[1], tostring(until_ms), 'PX', math.ceil(tonumber(ARGV[1]) + 60000))
end
return 1
`;

/**
 * Calls leave on their slot but reach the provider up to a few tens of milliseconds off it (a busy
 * event loop, a descheduled process). Spacing them 3.5% wider leaves about 35 ms of slack per second,
 * which measured on a loaded 2-core machine kept a sliding-second limit from ever being crossed.
 */
const JITTER_HEADROOM = 0.965;
/** A slot missed by more than this is given up rather than used late. */
const LATE_TOLERANCE_MS = 5;

/**
 * Spreads inquiries evenly at the configured rate across every worker of every process: one call each
 * 1/rate seconds, so no one-second window, fixed or sliding, holds more than the rate. BullMQ's global
 * limiter stays as the outer ceiling and as the hold for 429s; this pacer gives the even spacing that
 * its fixed windows cannot, without the per-window fetch gaps that cost a one-job window a fifth of the rate.
 */
export class SendPacer {
  private readonly intervalMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    rate: Rate,
  ) {
    this.intervalMs = rate.perMs / (rate.max * JITTER_HEADROOM);
  }

  /**
   * Waits for a slot of its own. A timer that fires late (a busy event loop, a descheduled process)
   * would send right next to the following slots; such a call takes a fresh slot instead.
   */
  async waitForSlot(): Promise<void> {
    for (;;) {
      const waitMs = Number(await this.redis.eval(RESERVE_SLOT, 1, this.key, this.intervalMs));
      if (waitMs <= 0) return;
      const due = performance.now() + waitMs;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      if (performance.now() - due <= Math.max(LATE_TOLERANCE_MS, this.intervalMs / 2)) return;
    }
  }

  async holdFor(ms: number): Promise<void> {
    await this.redis.eval(HOLD, 1, this.key, ms);
  }
}
