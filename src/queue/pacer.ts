import type { Rate } from '../config/index.js';
import { runCommand, type RedisClient } from '../redis/commands/define.js';
import { PACER_HOLD, PACER_RESERVE_SLOT } from '../redis/commands/pacer.js';

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
    private readonly redis: RedisClient,
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
      const waitMs = Number(await runCommand<string>(this.redis, PACER_RESERVE_SLOT, [this.key], [this.intervalMs]));
      if (waitMs <= 0) return;
      const due = performance.now() + waitMs;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      if (performance.now() - due <= Math.max(LATE_TOLERANCE_MS, this.intervalMs / 2)) return;
    }
  }

  async holdFor(ms: number): Promise<void> {
    await runCommand<number>(this.redis, PACER_HOLD, [this.key], [ms]);
  }
}
