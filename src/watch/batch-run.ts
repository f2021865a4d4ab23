import type { Logger } from '../logging/logger.js';
import { settleBatch, standardWaitOptions, type ProgressReport } from '../pipeline/wait-for-batch.js';
import type { Services } from '../pipeline/services.js';

/**
 * Thrown out of a wait when the service is shutting down and the batch is not finished: the work is
 * handed back (the batch stays in Redis, its jobs stay queued for any worker), and the next start
 * continues it.
 */
export class HandedBackError extends Error {
  override name = 'HandedBackError';
}

const PROGRESS_LOG_EVERY_MS = 30_000;

/** Progress of a long batch as log lines: every 30 s, and whenever the reason for waiting changes. */
export function progressLogger(logger: Logger, context: Record<string, unknown>) {
  let lastAt = 0;
  let lastWaitingFor: string | undefined;
  return (report: ProgressReport) => {
    const now = Date.now();
    if (report.progress.complete || report.waitingFor !== lastWaitingFor || now - lastAt >= PROGRESS_LOG_EVERY_MS) {
      const { answered, accountCount, produced } = report.progress;
      logger.info(
        { ...context, batchId: report.batchId, answered, accounts: produced ? accountCount : undefined, perSecond: Number(report.answeredPerSecond.toFixed(1)) },
        report.waitingFor ? `waiting for ${report.waitingFor}` : report.progress.complete ? 'batch answered' : 'batch in progress',
      );
      lastAt = now;
    }
    lastWaitingFor = report.waitingFor;
  };
}

/**
 * Waits until every account of the batch has an outcome. An abort (shutdown) ends the wait with
 * HandedBackError unless the batch is already complete. A provider that stays down past the outage
 * budget ends it too: the unanswered accounts are marked FAILED (with the reason) and the reason is
 * returned, so the report is complete and says why.
 */
export async function awaitBatch(services: Services, batchId: string, signal: AbortSignal | undefined, context: Record<string, unknown>): Promise<string | undefined> {
  const log = progressLogger(services.logger, context);
  const gaveUp = await settleBatch(
    services,
    batchId,
    standardWaitOptions(services.config.inquiry, (report) => {
      // waitForBatch calls this on every poll: throwing here is how its loop is left early.
      if (signal?.aborted && !report.progress.complete) throw new HandedBackError(`batch ${batchId} not finished at shutdown`);
      log(report);
    }),
  );
  if (gaveUp !== undefined) services.logger.error({ ...context, batchId }, `gave up waiting: ${gaveUp}; unanswered rows are FAILED in the report`);
  return gaveUp;
}

/**
 * Graceful stop of long work: `work` may finish within `timeoutMs`; past that `handBack` asks it to
 * hand its work back (left for the next start), and it is awaited once more.
 */
export async function finishOrHandBack(work: Promise<unknown>, timeoutMs: number, handBack: () => void): Promise<void> {
  const finished = await Promise.race([work.then(() => true), sleep(timeoutMs).then(() => false)]);
  if (finished) return;
  handBack();
  await work;
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
