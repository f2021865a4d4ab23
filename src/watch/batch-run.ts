import { writeFile } from 'node:fs/promises';
import type { Logger } from '../logging/logger.js';
import { failUnanswered, standardWaitOptions, waitForBatch, type ProgressReport } from '../pipeline/wait-for-batch.js';
import type { Services } from '../pipeline/services.js';
import { summaryPathFor, type BatchSummary } from '../report/writer.js';

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
  const waited = await waitForBatch(
    services,
    batchId,
    standardWaitOptions(services.config.inquiry, (report) => {
      // waitForBatch calls this on every poll: throwing here is how its loop is left early.
      if (signal?.aborted && !report.progress.complete) throw new HandedBackError(`batch ${batchId} not finished at shutdown`);
      log(report);
    }),
  );
  if (waited.kind === 'complete') return undefined;
  await failUnanswered(services, batchId, waited.reason);
  services.logger.error({ ...context, batchId }, `gave up waiting: ${waited.reason}; unanswered rows are FAILED in the report`);
  return waited.reason;
}

/** Rewrites the summary JSON beside a report with fields of the service that made it (input name, duplicate note, ...). */
export async function extendSummary(reportPath: string, summary: BatchSummary, extra: Record<string, unknown>): Promise<void> {
  await writeFile(summaryPathFor(reportPath), `${JSON.stringify({ ...summary, ...extra }, null, 2)}\n`);
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
