import type { Worker } from 'bullmq';
import { createNightlyRunProcessor } from '../../jobs/nightly-run.js';
import { continuationPolicy } from '../batch/continuation.js';
import type { ColumnOverrides } from '../csv/columns.js';
import { startNightlyRunWorker } from '../schedule/nightly-worker.js';
import { RunHistory, runLease, type NightlyRunJobData } from '../schedule/scheduler.js';
import type { App } from './app.js';

/** The nightly run's worker in this process (`schedule`), its job (jobs/nightly-run.ts) wired to the batch lifecycle. */
export function startNightlyWorker(app: App, options: { columns: ColumnOverrides; handBack: AbortSignal }): Worker<NightlyRunJobData> {
  const { redis, keys, config, logger } = app;
  const processor = createNightlyRunProcessor({
    lifecycle: app.lifecycle,
    runLease: (jobId) => runLease(redis, keys.scheduleLock(), jobId),
    history: new RunHistory(redis, keys.scheduleRuns()),
    columns: options.columns,
    policy: continuationPolicy(),
    stableMs: config.watch.stableMs,
    timeZone: config.schedule.timeZone,
    outputFormat: config.outputFormat,
    handBack: options.handBack,
    logger,
  });
  return startNightlyRunWorker(redis, keys, processor, logger);
}
