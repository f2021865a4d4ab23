/** A permit to ask the provider was waited for, and the wait was given up (a stop, the job handed back). */
export class PermitWaitAborted extends Error {
  override name = 'PermitWaitAborted';
}

/**
 * The inquiries this process may have in flight at once (`--concurrency`, adapted to the work time: see
 * AdaptiveConcurrency), counted in calls, not jobs: a job of several accounts asks them side by side, each
 * with a permit of its own, so that the last groups of a run do not ask their accounts one after the other
 * while the rate goes unused. First come, first served: a job's accounts are asked in its order, and a
 * job that came first finishes first.
 */
export class CallPermits {
  private inUse = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private capacity: number) {}

  /** Follows the adapted concurrency; a raise lets waiting calls go at once, a cut waits for calls to end. */
  setCapacity(capacity: number): void {
    this.capacity = capacity;
    this.grant();
  }

  /** Waits for a permit (rejects with PermitWaitAborted when `signal` aborts first); the function returned gives it back. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted === true) return Promise.reject(new PermitWaitAborted());
    if (this.inUse < this.capacity && this.waiting.length === 0) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const turn = () => {
        signal?.removeEventListener('abort', aborted);
        resolve(this.take());
      };
      const aborted = () => {
        const index = this.waiting.indexOf(turn);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new PermitWaitAborted());
      };
      signal?.addEventListener('abort', aborted, { once: true });
      this.waiting.push(turn);
    });
  }

  private take(): () => void {
    this.inUse += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.inUse -= 1;
      this.grant();
    };
  }

  private grant(): void {
    while (this.inUse < this.capacity && this.waiting.length > 0) this.waiting.shift()!();
  }
}
