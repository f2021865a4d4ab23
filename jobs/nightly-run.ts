import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import type { BatchLifecycle } from '../src/batch/lifecycle.js';
import { progressLogger } from '../src/batch/progress-log.js';
import { HandedBackError } from '../src/batch/settle.js';
import type { ContinuationPolicy } from '../src/batch/continuation.js';
import { changesPathFor } from '../src/batch/output-path.js';
import type { OutputFormat } from '../src/config/index.js';
import type { ColumnOverrides } from '../src/csv/columns.js';
import { describeError, UsageError } from '../src/errors.js';
import type { Logger } from '../src/logging/logger.js';
import type { Lease } from '../src/redis/lease.js';
import { newestExport, scheduledReportPath, type NightlyRunJobData, type RunHistory, type RunRecord } from '../src/schedule/scheduler.js';

export interface NightlyRunDependencies {
  lifecycle: Pick<BatchLifecycle, 'check'>;
  /** The lease a run holds while it works; its owner is the job id, so a run taken up again takes it over. */
  runLease(jobId: string): Pick<Lease, 'acquire' | 'keepAlive' | 'signal' | 'release' | 'abandon'>;
  history: RunHistory;
  columns: ColumnOverrides;
  policy: ContinuationPolicy;
  /** An export modified this recently is waited for until it stays unchanged this long. */
  stableMs: number;
  timeZone: string;
  /** The reports' format (OUTPUT_FORMAT). */
  outputFormat: OutputFormat;
  /** Aborted when the scheduler shuts down and a run has not finished within the timeout: the run is handed back. */
  handBack: AbortSignal;
  logger: Logger;
}

export interface NightlyRunResult {
  status: RunRecord['status'];
  batchId?: string;
  report?: string;
  reason?: string;
}

/**
 * One nightly run: takes the run lease (or is skipped, saying which run still works), picks the newest
 * export and checks it through the batch lifecycle like any file, writing the report to the outbox. The
 * chosen file and report are pinned in the job's data, so a run taken up again after a crash or a
 * shutdown continues the same file and batch. Losing the lease (this process stalled past it and another
 * run started) hands the run back at once.
 */
export function createNightlyRunProcessor(deps: NightlyRunDependencies) {
  const { lifecycle, history, logger } = deps;

  return async function runNightly(job: Job<NightlyRunJobData>, token?: string): Promise<NightlyRunResult> {
    const jobId = job.id ?? '?';
    const startedAt = Date.now();
    const dueAt = job.timestamp + (job.opts.delay ?? 0);
    const base = { jobId, scheduledFor: new Date(dueAt).toISOString(), startedAt: new Date(startedAt).toISOString() };

    const lease = deps.runLease(jobId);
    const holder = await lease.acquire();
    if (holder !== undefined) {
      const reason = `previous run ${String(holder.jobId)} (started ${new Date(holder.since).toISOString()} on ${holder.host}) is still in progress`;
      logger.warn({ jobId, scheduledFor: base.scheduledFor }, `nightly run skipped: ${reason}`);
      await history.record({ ...base, status: 'skipped', finishedAt: new Date().toISOString(), reason });
      return { status: 'skipped', reason };
    }
    lease.keepAlive((error) => logger.error({ jobId }, `${error.message}: handing the nightly run back`));
    const stop = AbortSignal.any([deps.handBack, lease.signal]);

    let pinned = job.data.pinned;
    try {
      if (pinned === undefined) {
        const sourceFile = await newestExport(job.data.source, deps.stableMs, stop);
        if (sourceFile === undefined) throw new UsageError(`no CSV export in ${job.data.source}`);
        pinned = { sourceFile, reportPath: scheduledReportPath(job.data.outbox, sourceFile, deps.timeZone, dueAt, deps.outputFormat) };
        await job.updateData({ ...job.data, pinned });
      }
      const chosen = pinned;
      const context = { jobId, file: chosen.sourceFile };
      logger.info({ ...context, scheduledFor: base.scheduledFor }, 'nightly run started');
      const { batchId, summary, gaveUp } = await lifecycle.check(
        {
          input: {
            kind: 'file',
            path: chosen.sourceFile,
            columns: deps.columns,
            policy: deps.policy,
            ...(chosen.batchId !== undefined && { ownBatchId: chosen.batchId }),
          },
          reportPath: chosen.reportPath,
          changesPath: changesPathFor(chosen.reportPath),
          signal: stop,
          onProgress: progressLogger(logger, context),
          onNotice: (message) => logger.info(context, message),
          // Pinned too: a run taken up again after a crash continues this very batch, even once it is reported.
          onStarted: async ({ batchId: started }) => {
            if (chosen.batchId === started) return;
            pinned = { ...chosen, batchId: started };
            await job.updateData({ ...job.data, pinned });
          },
        },
        { scheduledRun: jobId, scheduledFor: base.scheduledFor },
      );
      const status = gaveUp === undefined ? 'completed' : 'completed_with_failures';
      await history.record({
        ...base,
        status,
        finishedAt: new Date().toISOString(),
        sourceFile: chosen.sourceFile,
        report: chosen.reportPath,
        batchId,
        rows: summary.rows,
        counts: summary.counts,
        ...(gaveUp !== undefined && { reason: gaveUp }),
      });
      await lease.release();
      logger.info({ ...context, batchId, report: chosen.reportPath, counts: summary.counts }, 'nightly run finished');
      return { status, batchId, report: chosen.reportPath, ...(gaveUp !== undefined && { reason: gaveUp }) };
    } catch (error) {
      if (error instanceof HandedBackError || stop.aborted) {
        // Back to the waiting list without using an attempt: the next scheduler start takes it up and
        // continues the same batch. The lease is kept (it expires unless this job renews it), so that a run
        // coming due meanwhile is skipped rather than started beside it.
        lease.abandon();
        logger.warn({ jobId, file: pinned?.sourceFile }, 'nightly run handed back: it continues when a scheduler takes it up again');
        await job.moveToWait(token);
        throw new WaitingError();
      }
      await lease.release();
      const reason = describeError(error);
      await history.record({
        ...base,
        status: 'failed',
        finishedAt: new Date().toISOString(),
        ...(pinned && { sourceFile: pinned.sourceFile }),
        reason,
      });
      logger.error({ jobId, err: error }, `nightly run failed: ${reason}`);
      // A bad export will not get better by retrying; anything else (Redis, login) is retried by BullMQ.
      if (error instanceof UsageError) throw new UnrecoverableError(reason);
      throw error;
    }
  };
}
