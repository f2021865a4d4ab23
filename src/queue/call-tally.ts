/** The batch's counters of its calls: sent, answered 429, met a bug; and the usable answers they got (see BatchRecord). */
export type CallField = 'calls' | 'rateLimited' | 'internalErrors' | 'usableAnswers';

/** Adds `by` to one call counter of one batch. */
export type CountWriter = (batchId: string, field: CallField, by: number) => Promise<unknown>;

/** How long a count waits in the process before it is written, when no outcome is saved meanwhile. */
export const TALLY_FLUSH_MS = 250;

/**
 * The batch's call counters, counted in the process and written together instead of one Redis round trip
 * per call. A count never waits behind a call: `flush` sends the pending counts at once (ioredis writes
 * commands in the order they are issued on a connection), so flushing right before an outcome is saved
 * puts every call made for it in Redis before the outcome can complete the batch; the summary, read
 * after the last outcome, stays exact. Counts with no outcome after them (429s, retried failures) go
 * out within TALLY_FLUSH_MS, and on close.
 */
export class CallTally {
  private pending = new Map<string, Map<CallField, number>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: CountWriter,
    private readonly flushMs = TALLY_FLUSH_MS,
  ) {}

  add(batchId: string, field: CallField): void {
    let counts = this.pending.get(batchId);
    if (counts === undefined) this.pending.set(batchId, (counts = new Map()));
    counts.set(field, (counts.get(field) ?? 0) + 1);
    this.schedule();
  }

  /** Sends every pending count now (before anything the caller writes next) and resolves when Redis has them. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return Promise.resolve();
    const sending = this.pending;
    this.pending = new Map();
    const writes: Promise<unknown>[] = [];
    for (const [batchId, counts] of sending) {
      for (const [field, by] of counts) {
        writes.push(
          this.write(batchId, field, by).catch((error: unknown) => {
            // Not lost: counted again with the next flush, which reports the failure to its caller.
            this.restore(batchId, field, by);
            throw error;
          }),
        );
      }
    }
    return Promise.all(writes).then(() => undefined);
  }

  private restore(batchId: string, field: CallField, by: number): void {
    let counts = this.pending.get(batchId);
    if (counts === undefined) this.pending.set(batchId, (counts = new Map()));
    counts.set(field, (counts.get(field) ?? 0) + by);
    this.schedule();
  }

  private schedule(): void {
    // A timed write that fails is not lost: its counts are put back and tried again; the failure itself is
    // the connection's to report (src/redis/supervisor.ts), and reaches the next caller that awaits a flush.
    this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.flushMs).unref();
  }
}
