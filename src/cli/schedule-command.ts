import { openRuntime } from '../app/runtime.js';
import { startNightlyWorker } from '../app/nightly-worker.js';
import { finishOrHandBack } from '../batch/progress-log.js';
import { closeWorker } from '../queue/close-worker.js';
import {
  openNightlyRunQueue,
  registerSchedule,
  RunHistory,
  runInProgress,
  NIGHTLY_SCHEDULER_ID,
  scheduleTarget,
  stampIn,
} from '../schedule/scheduler.js';
import type { RedisClient } from '../redis/connection.js';
import { columnsFrom, type ColumnFlags, type CommonFlags } from './commands.js';
import { startMetricsEndpoint, type MetricsFlags } from './metrics-endpoint.js';
import { runUntilStopped, serveUntilStopped } from './lifetime.js';

export interface ScheduleFlags extends CommonFlags, ColumnFlags, MetricsFlags {
  list?: boolean;
  remove?: boolean;
}

/**
 * `schedule`: registers the nightly run as a BullMQ job scheduler (SCHEDULE_CRON in SCHEDULE_TZ)
 * and runs it: a worker for the nightly runs plus in-process inquiry workers, until SIGTERM/SIGINT.
 * `schedule --list` shows the schedule, the run in progress and the last runs; `schedule --remove`
 * deletes the schedule (a `schedule` process started later registers it again).
 */
export async function scheduleCommand(flags: ScheduleFlags): Promise<number> {
  const readOnly = flags.list === true || flags.remove === true;
  if (readOnly) {
    const { app, shutdown, guard } = await openRuntime(flags, { provider: 'none' });
    const queue = openNightlyRunQueue(app.redis, app.keys, app.logger);
    try {
      if (flags.remove) {
        const removed = await guard(queue.removeJobScheduler(NIGHTLY_SCHEDULER_ID));
        process.stdout.write(
          removed ? `removed the schedule ${NIGHTLY_SCHEDULER_ID}\n` : `no schedule ${NIGHTLY_SCHEDULER_ID} to remove\n`,
        );
        if (removed)
          process.stdout.write('a `schedule` process started later registers it again; stop the scheduler processes to keep it off\n');
        return 0;
      }
      await guard(printSchedule(queue, app.redis, app.keys.scheduleLock(), new RunHistory(app.redis, app.keys.scheduleRuns())));
      return 0;
    } finally {
      await queue.close();
      await shutdown();
    }
  }

  return runUntilStopped(flags, { provider: 'required', service: true }, async (runtime, lifetime) => {
    const { app, guard } = runtime;
    const queue = openNightlyRunQueue(app.redis, app.keys, app.logger);
    let closeMetrics: () => Promise<void> = async () => undefined;
    try {
      const settings = app.config.schedule;
      const target = await scheduleTarget(settings);
      const next = await guard(registerSchedule(queue, settings, target));
      await guard(app.startWorkers());
      closeMetrics = await startMetricsEndpoint(app, flags);
      const handBack = new AbortController();
      const worker = startNightlyWorker(app, { columns: columnsFrom(flags), handBack: handBack.signal });
      app.logger.info(
        { scheduler: NIGHTLY_SCHEDULER_ID, pattern: settings.cron, tz: settings.timeZone, source: target.source, outbox: target.outbox },
        `nightly run scheduled; next one ${new Date(next).toISOString()} (${stampIn(settings.timeZone, next)} ${settings.timeZone})`,
      );
      // Stop taking runs; a run in progress may finish within the timeout, else it is handed back.
      return await serveUntilStopped(runtime, lifetime, (timeoutMs) =>
        finishOrHandBack(closeWorker(worker), timeoutMs, () => handBack.abort()),
      );
    } finally {
      await closeMetrics();
      await queue.close();
    }
  });
}

async function printSchedule(
  queue: ReturnType<typeof openNightlyRunQueue>,
  redis: RedisClient,
  leaseKey: string,
  history: RunHistory,
): Promise<void> {
  const schedulers = await queue.getJobSchedulers();
  if (schedulers.length === 0) process.stdout.write('no schedule registered (start `beneficiary-check schedule` to register it)\n');
  for (const scheduler of schedulers) {
    const data = scheduler.template?.data;
    const next =
      scheduler.next === undefined
        ? 'none'
        : `${new Date(scheduler.next).toISOString()}${scheduler.tz ? ` (${stampIn(scheduler.tz, scheduler.next)} ${scheduler.tz})` : ''}`;
    process.stdout.write(
      `${scheduler.key}  pattern "${scheduler.pattern ?? scheduler.every}"  tz ${scheduler.tz ?? 'UTC'}  next ${next}  runs so far ${scheduler.iterationCount ?? 0}\n` +
        (data ? `  source ${data.source}\n  outbox ${data.outbox}\n` : ''),
    );
  }
  const holder = await runInProgress(redis, leaseKey);
  if (holder)
    process.stdout.write(`run in progress: ${String(holder.jobId)} since ${new Date(holder.since).toISOString()} on ${holder.host}\n`);
  const runs = await history.recent(10);
  if (runs.length > 0) process.stdout.write('last runs (newest first):\n');
  for (const run of runs) {
    const detail =
      run.status === 'skipped' || run.status === 'failed'
        ? run.reason
        : `${run.rows} rows ${Object.entries(run.counts ?? {})
            .filter(([, count]) => count > 0)
            .map(([result, count]) => `${result} ${count}`)
            .join(', ')} -> ${run.report}`;
    process.stdout.write(`  ${run.startedAt}  ${run.status.padEnd(23)} ${run.jobId}  ${detail ?? ''}\n`);
  }
}
