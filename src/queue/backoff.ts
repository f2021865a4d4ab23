const MAX_BACKOFF_MS = 60_000;

/** Exponential backoff with full jitter, so retries from many workers do not arrive together. */
export function jitteredBackoff(baseMs: number, attemptsMade: number, random = Math.random): number {
  const ceiling = Math.min(baseMs * 2 ** Math.max(0, attemptsMade - 1), MAX_BACKOFF_MS);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
