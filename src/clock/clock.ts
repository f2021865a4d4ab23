/**
 * Time as a dependency: the lifecycle, the settle loop and the leases take a Clock, so unit tests drive
 * them with a fake one instead of waiting.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or at once when the signal aborts (it never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export const systemClock: Clock = { now: () => Date.now(), sleep };
