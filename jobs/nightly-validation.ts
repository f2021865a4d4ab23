import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import type { ColumnOverrides } from '../src/csv/columns.js';
import { describeError, UsageError } from '../src/errors.js';
import { startBatch } from '../src/pipeline/check-file.js';
import type { Services } from '../src/pipeline/services.js';
import { writeReport } from '../src/report/writer.js';
import { newestExport, scheduledReportPath, type NightlyJobData, type RunHistory, type RunLock, type RunRecord } from '../src/schedule/scheduler.js';
import { awaitBatch, HandedBackError } from '../src/watch/batch-run.js';

export interface NightlyValidationDependencies {
  services: Services;
  lock: RunLock;
  history: RunHistory;
  columns: ColumnOverrides;
  /** Aborted when the scheduler shuts down and a run has not finished within the timeout: the run is handed back. */
  handBack: AbortSignal;
}

export interface NightlyValidationResult {
  status: RunRecord['status'];
  batchId?: string;
  report?: string;
  reason?: string;
}

/**
 * One scheduled run: takes the run lock (or is skipped, saying which run still works), picks the newest
 * export, validates it through the inquiry queue like any file, and writes the report to the outbox.
 * The chosen file and report are pinned in the job's data, so a run taken up again after a crash or a
 * shutdown continues the same file; its batch is found by content and continued, not started again.
 */
export function createNightlyValidationProcessor(deps: NightlyValidationDependencies) {
  const { services, lock, history, handBack } = deps;
  const { logger } = services;

  return async function runNightlyValidation(job: Job<NightlyJobData>, token?: string): Promise<NightlyValidationResult> {
    const jobId = job.id ?? '?';
    const startedAt = Date.now();
    const dueAt = job.timestamp + (job.opts.delay ?? 0);
    const base = { jobId, scheduledFor: new Date(dueAt).toISOString(), startedAt: new Date(startedAt).toISOString() };

    const holder = await lock.acquire(jobId);
    if (holder !== undefined) {
      const reason = `previous run ${holder.jobId} (started ${new Date(holder.startedAt).toISOString()} on ${holder.host}) is still in progress`;
      logger.warn({ jobId, scheduledFor: base.scheduledFor }, `scheduled run skipped: ${reason}`);
      await history.record({ ...base, status: 'skipped', finishedAt: new Date().toISOString(), reason });
      return { status: 'skipped', reason };
    }
    const heartbeat = setInterval(() => {
      lock.renew(jobId).catch((error: unknown) => logger.warn({ err: error }, 'could not renew the scheduled run lock'));
    }, lock.ttlMs / 3);

    let pinned = job.data.pinned;
    try {
      if (pinned === undefined) {
        const sourceFile = await newestExport(job.data.source, services.config.watch.stableMs, handBack);
        if (sourceFile === undefined) throw new UsageError(`no CSV export in ${job.data.source}`);
        pinned = { sourceFile, reportPath: scheduledReportPath(job.data.outbox, sourceFile, services.config.schedule.timeZone, dueAt) };
        await job.updateData({ ...job.data, pinned });
      }
      const context = { jobId, file: pinned.sourceFile };
      logger.info({ ...context, scheduledFor: base.scheduledFor }, 'scheduled run started');
      // Same content as an unfinished batch (this run, taken up again): that batch is continued.
      const { batchId, resumed, inspected } = await startBatch(services, pinned.sourceFile, deps.columns);
      logger.info({ ...context, batchId, rows: inspected.file.rowCount, resumed }, resumed ? 'continuing the unfinished batch of this export' : 'queued');
      const gaveUp = await awaitBatch(services, batchId, handBack, context);
      const summary = await writeReport(services.store, batchId, pinned.reportPath, {
        scheduledRun: jobId,
        scheduledFor: base.scheduledFor,
        ...(gaveUp !== undefined && { incomplete: gaveUp }),
      });
      const status = gaveUp === undefined ? 'completed' : 'completed_with_failures';
      await history.record({
        ...base,
        status,
        finishedAt: new Date().toISOString(),
        sourceFile: pinned.sourceFile,
        report: pinned.reportPath,
        batchId,
        rows: summary.rows,
        counts: summary.counts,
        ...(gaveUp !== undefined && { reason: gaveUp }),
      });
      await lock.release(jobId);
      logger.info({ ...context, batchId, report: pinned.reportPath, counts: summary.counts }, 'scheduled run finished');
      return { status, batchId, report: pinned.reportPath, ...(gaveUp !== undefined && { reason: gaveUp }) };
    } catch (error) {
      if (error instanceof HandedBackError || handBack.aborted) {
        // Back to the waiting list without using an attempt: the next scheduler start takes it up and
        // continues the same batch. The lock is kept (it expires unless this job renews it), so that
        // a run coming due meanwhile is skipped rather than started beside it.
        logger.warn({ jobId, file: pinned?.sourceFile }, 'scheduled run handed back at shutdown: it continues when a scheduler starts again');
        await job.moveToWait(token);
        throw new WaitingError();
      }
      await lock.release(jobId);
      const reason = describeError(error);
      await history.record({ ...base, status: 'failed', finishedAt: new Date().toISOString(), ...(pinned && { sourceFile: pinned.sourceFile }), reason });
      logger.error({ jobId, err: error }, `scheduled run failed: ${reason}`);
      // A bad export will not get better by retrying; anything else (Redis, login) is retried by BullMQ.
      if (error instanceof UsageError) throw new UnrecoverableError(reason);
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  };
}
