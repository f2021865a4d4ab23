/**
 * Time as a dependency: the lifecycle, the settle loop and the leases take a Clock, so unit tests drive
 * them with a fake one instead of waiting.
 *
 * Two clocks, for two jobs. `now()` is the wall clock: for what is shown to people and stored for other
 * processes (an ISO time in a summary, a lease's `since`). `monotonic()` only ever moves forward at the rate
 * of real time, whatever the wall clock does: every wait, timeout and budget is measured on it, so an
 * operator, a VM resume or NTP stepping the wall clock by +45 s or +2 h is not an outage.
 */
export interface Clock {
  now(): number;
  /** Milliseconds from an arbitrary origin; only differences mean anything. */
  monotonic(): number;
  /** Resolves after `ms`, or at once when the signal aborts (it never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest delay Node's timers take (2^31 - 1 ms, 24.8 days): a longer one fires after 1 ms, with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The one place a delay that comes from outside (a provider's header, a setting, a value read back from
 * Redis) becomes a timer's: between 0 and MAX_TIMER_MS, 0 for what is not a number. Every setTimeout whose
 * delay is not a constant goes through it.
 */
export function timerDelay(ms: number): number {
  return Number.isNaN(ms) ? 0 : Math.min(Math.max(ms, 0), MAX_TIMER_MS);
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, timerDelay(ms));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Whether `work` finished within `ms` (a timer through timerDelay); it goes on either way. A rejection of
 * `work` within the time is thrown.
 */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timerDelay(ms))));
  try {
    return await Promise.race([work.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

export const systemClock: Clock = { now: () => Date.now(), monotonic: () => performance.now(), sleep };
