/**
 * The rules for a file whose content was seen before, in one place: every entry point (`run`, `resume`,
 * `enqueue`, the watched folder, the nightly run, the console) starts a batch through them. Values in, a
 * decision out.
 */

/** What is known about the latest batch of the same content. */
export interface EarlierBatch {
  batchId: string;
  /** The endpoint whose answers it holds (its inquiry queue name: environment + base address). */
  endpoint: string;
  produced: boolean;
  /** Produced and every account answered: only the report may be missing. */
  answered: boolean;
  /** When a report with every row was written: the batch is finished. */
  reportedAt: number | undefined;
  /** Accounts whose answer is FAILED (no definitive answer: retry later). */
  failedAccounts: number;
}

export interface ContinuationPolicy {
  /**
   * A finished batch with FAILED rows is continued within this time after its report (only those rows are
   * asked again: the provider was down, run it again). Later, the file is checked anew.
   */
  retryFailedWithinMs: number;
  /**
   * A finished batch without FAILED rows stands for the same content dropped again within this time: its
   * answers are reported again, nothing is asked (the watched folder's duplicate window). 0 = never.
   */
  reuseFinishedWithinMs: number;
}

/** FAILED rows of a finished batch are asked again when the same content comes back within this time; later, yesterday's answers are no validation for today. */
export const RETRY_FAILED_WINDOW_MS = 12 * 3600_000;

/** The policy of every entry point: only the watched folder reuses finished batches (its duplicate window). */
export const continuationPolicy = (reuseFinishedWithinMs = 0): ContinuationPolicy => ({
  retryFailedWithinMs: RETRY_FAILED_WINDOW_MS,
  reuseFinishedWithinMs,
});

export type Continuation =
  /** No usable earlier batch: a new one, every account asked. */
  | { kind: 'new' }
  /**
   * An unfinished batch (crash, stop, another process working on it): produce what is missing, ask only
   * accounts without an answer; `answered`: every account has its answer, only the report is written.
   */
  | { kind: 'continue'; batchId: string; produce: boolean; answered: boolean }
  /**
   * A finished batch with FAILED rows, recently, or a batch `resume` asks again: ask those accounts again;
   * `produce`: its rows were never all stored (a `resume` of a batch whose reading stopped), read them first;
   * `reported`: its report was written (a `resume` may ask the FAILED rows of a batch never reported).
   */
  | { kind: 'retry_failed'; batchId: string; produce: boolean; reported: boolean }
  /** A finished batch without FAILED rows, within the reuse window: report its answers again. */
  | { kind: 'reuse'; batchId: string };

/**
 * "Finished" means reported: a batch whose answers are all in but whose report was never written (the
 * process died while writing it) is continued, which asks nothing and writes the report. Only a batch of
 * the same endpoint (`endpoint`: this start's inquiry queue name) is ever continued or reused: another
 * environment's or address's answers never stand in this endpoint's report.
 */
export function decideContinuation(
  earlier: EarlierBatch | undefined,
  endpoint: string,
  policy: ContinuationPolicy,
  now: number,
): Continuation {
  if (earlier === undefined || earlier.endpoint !== endpoint) return { kind: 'new' };
  const { batchId, reportedAt } = earlier;
  if (reportedAt === undefined) return { kind: 'continue', batchId, produce: !earlier.produced, answered: earlier.answered };
  const age = now - reportedAt;
  if (earlier.failedAccounts > 0)
    return age < policy.retryFailedWithinMs ? { kind: 'retry_failed', batchId, produce: false, reported: true } : { kind: 'new' };
  return age < policy.reuseFinishedWithinMs ? { kind: 'reuse', batchId } : { kind: 'new' };
}

/** One line for people: what this run does with the batch. */
export function describeContinuation(continuation: Continuation, batchId: string): string {
  switch (continuation.kind) {
    case 'new':
      return `batch ${batchId}`;
    case 'continue':
      return continuation.answered
        ? `continuing batch ${batchId}: every account is answered, only its report is written; nothing is asked`
        : `continuing unfinished batch ${batchId} of the same content: only accounts without an answer are asked`;
    case 'retry_failed':
      return continuation.produce
        ? `continuing unfinished batch ${batchId}: the rest of its file is read, and its FAILED rows are asked again`
        : continuation.reported
          ? `continuing finished batch ${batchId} of the same content: its FAILED rows are asked again`
          : `continuing unfinished batch ${batchId}: its FAILED rows are asked again`;
    case 'reuse':
      return `same content as finished batch ${batchId}: its answers are reported again, nothing is asked`;
  }
}
