import { Worker } from 'bullmq';
import { createNightlyValidationProcessor } from '../../jobs/nightly-validation.js';
import { continuationPolicy } from '../batch/continuation.js';
import type { ColumnOverrides } from '../csv/columns.js';
import { RunHistory, runLease, SCHEDULE_QUEUE, type NightlyJobData } from '../schedule/scheduler.js';
import { redisErrors } from '../redis/supervisor.js';
import type { App } from './app.js';

/** The worker that runs the scheduled validations in this process (`schedule`), wired to the batch lifecycle. */
export function startNightlyWorker(app: App, options: { columns: ColumnOverrides; handBack: AbortSignal }): Worker<NightlyJobData> {
  const { redis, keys, config, logger } = app;
  const worker = new Worker<NightlyJobData>(
    SCHEDULE_QUEUE,
    createNightlyValidationProcessor({
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
    }),
    {
      connection: redis,
      prefix: keys.bullPrefix(),
      // Two slots: one run works, the other lets a run that comes due meanwhile start on time and be
      // skipped (with its reason) instead of queueing behind it. The lease, not the concurrency, is what
      // keeps runs from overlapping, across any number of scheduler processes.
      concurrency: 2,
      // A run whose process died is taken up again (it continues its batch); only repeated deaths fail it.
      maxStalledCount: 3,
    },
  );
  worker.on('error', redisErrors(redis, 'scheduler worker', logger));
  return worker;
}
