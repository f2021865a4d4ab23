/** The batch's counters of its calls: sent, answered 429, met a bug; and the usable answers they got (see BatchRecord). */
export type CallField = 'calls' | 'rateLimited' | 'internalErrors' | 'usableAnswers';

/** Call counters of a batch to add with a save (field, by): the counts written with the answer they led to. */
export type CallCounts = ReadonlyArray<readonly [field: CallField, by: number]>;

/** Adds `by` to one call counter of one batch. */
export type CountWriter = (batchId: string, field: CallField, by: number) => Promise<unknown>;

/** How long a count waits in the process before it is written, when no outcome is saved meanwhile. */
export const TALLY_FLUSH_MS = 250;

/**
 * The batch's call counters, counted in the process and written together instead of one Redis round trip
 * per call. A count never waits behind a call. The counts of a batch go with its next outcome (`take`,
 * written by the same script), so every call made for it is in Redis when the outcome can complete the
 * batch: the summary, read after the last outcome, stays exact. `flush` sends the pending counts at once
 * (ioredis writes commands in the order they are issued on a connection). Counts with no outcome after
 * them (429s, retried failures) go out within TALLY_FLUSH_MS, and on close.
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

  /** Takes the pending counts of `batchId` for the caller to write (with an outcome); `putBack` returns them when that write failed. */
  take(batchId: string): Array<[CallField, number]> {
    const counts = this.pending.get(batchId);
    if (counts === undefined) return [];
    this.pending.delete(batchId);
    return [...counts];
  }

  putBack(batchId: string, counts: CallCounts): void {
    for (const [field, by] of counts) this.restore(batchId, field, by);
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
