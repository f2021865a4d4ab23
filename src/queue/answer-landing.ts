import { BatchNotFoundError, describeError } from '../errors.js';
import { maskAccountKey, type Logger } from '../logging/logger.js';
import type { ProductMetrics } from '../metrics/metrics.js';
import type { InquiryOutcome } from '../provider/outcome.js';
import { CallTally, TALLY_FLUSH_MS, type CallCounts, type CallField, type CountWriter } from './call-tally.js';

/** What landing the answers of this process's inquiry jobs needs, narrowly; the app wires it to Redis. */
export interface AnswerLandingDependencies {
  /** Records an answer with its history, the batch's call counts in the same write (src/history/answers.ts). */
  recordAnswer(batchId: string, accountKey: string, outcome: InquiryOutcome, counts: CallCounts): Promise<unknown>;
  /** Adds to a batch's call counter (BatchStore.countCalls): the counts no answer took along. */
  countCalls: CountWriter;
  /** An answer of the batch was stored by this process (AnswerArrivals.landed: wakes the waits on it). */
  landed(batchId: string): void;
  metrics: Pick<ProductMetrics, 'inquiryCall' | 'rateLimited' | 'internalError'>;
  logger: Logger;
}

/**
 * Where this process's inquiry jobs leave what they did: the calls they count, and their answers, which
 * take the batch's counts along (a batch is never complete with a call uncounted) and wake the waits on
 * their batch. An answer for a batch gone from Redis ends its job (said once per batch).
 */
export class AnswerLanding {
  // The batch's call counters, added to in bulk rather than one round trip per call.
  private readonly tally: CallTally;
  /** Batches this process found gone while answering (said once each). */
  private readonly goneBatches = new Set<string>();

  constructor(private readonly deps: AnswerLandingDependencies) {
    this.tally = new CallTally(deps.countCalls);
  }

  /** Stores the job's answer (the first for the account; a later one is ignored) with the batch's pending counts. */
  async land(batchId: string, accountKey: string, outcome: InquiryOutcome): Promise<void> {
    // The batch's counts go with its outcome, in the same script: a batch is never complete with a call uncounted.
    const counts = this.tally.take(batchId);
    const counted = this.tally.flush();
    try {
      await this.deps.recordAnswer(batchId, accountKey, outcome, counts);
    } catch (error) {
      if (!(error instanceof BatchNotFoundError)) {
        this.tally.putBack(batchId, counts);
        throw error;
      }
      // Deleted, or lost by Redis: nothing of it is written again (no key without an expiry), and the job ends.
      if (!this.goneBatches.has(batchId)) {
        this.goneBatches.add(batchId);
        this.deps.logger.warn(
          { batchId, account: maskAccountKey(accountKey) },
          `batch ${batchId} is gone from Redis (deleted, or lost by a restart without persistence): answers for it are not stored`,
        );
      }
    }
    await counted;
    this.deps.landed(batchId);
  }

  /** One call of the batch: sent, answered 429, or met a bug (see CallField). */
  async countCall(batchId: string, field: CallField): Promise<void> {
    if (field === 'calls') this.deps.metrics.inquiryCall();
    else if (field === 'rateLimited') this.deps.metrics.rateLimited();
    else if (field === 'internalErrors') this.deps.metrics.internalError();
    this.tally.add(batchId, field);
  }

  /** Writes the counts still waiting (on close); a failure is logged, not thrown: the process is stopping. */
  async close(): Promise<void> {
    await this.tally
      .flush()
      .catch((error: unknown) =>
        this.deps.logger.error(
          { err: error },
          `the call counts of the last ${TALLY_FLUSH_MS} ms could not be written: ${describeError(error)}`,
        ),
      );
  }
}
