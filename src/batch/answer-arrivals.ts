/**
 * Answers stored by this process's workers, as they land, for the waits on their batches: the settle loop
 * of `run` wakes when the last answer of its batch is stored, instead of at its next poll (which cost up
 * to a poll interval, 250 ms, at the end of every run). Answers stored by other processes are seen by the
 * poll. In memory only: nothing per answer goes to Redis.
 */
export class AnswerArrivals {
  private readonly waiting = new Map<string, Set<{ left: number; wake: () => void }>>();

  /** An answer of `batchId` was stored (or found stored) by this process. */
  landed(batchId: string): void {
    const waiters = this.waiting.get(batchId);
    if (waiters === undefined) return;
    for (const waiter of waiters) {
      waiter.left -= 1;
      if (waiter.left <= 0) waiter.wake();
    }
  }

  /** Resolves once `count` more answers of `batchId` landed here, or when `signal` aborts. */
  wait(batchId: string, count: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted || count <= 0) return resolve();
      const waiters = this.waiting.get(batchId) ?? new Set();
      this.waiting.set(batchId, waiters);
      const waiter = {
        left: count,
        wake: () => {
          waiters.delete(waiter);
          if (waiters.size === 0) this.waiting.delete(batchId);
          signal.removeEventListener('abort', waiter.wake);
          resolve();
        },
      };
      waiters.add(waiter);
      signal.addEventListener('abort', waiter.wake, { once: true });
    });
  }
}
