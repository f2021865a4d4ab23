import { Worker, type Processor } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import { redisErrors } from '../redis/supervisor.js';
import { NIGHTLY_RUN_QUEUE, type NightlyRunJobData } from './scheduler.js';

/** The worker that carries out the nightly runs in this process (`schedule`), running `processor` (jobs/nightly-run.ts). */
export function startNightlyRunWorker(
  connection: RedisClient,
  keys: RedisKeys,
  processor: Processor<NightlyRunJobData>,
  logger: Logger,
): Worker<NightlyRunJobData> {
  const worker = new Worker<NightlyRunJobData>(NIGHTLY_RUN_QUEUE, processor, {
    connection,
    prefix: keys.bullPrefix(),
    // Two slots: one run works, the other lets a run that comes due meanwhile start on time and be
    // skipped (with its reason) instead of queueing behind it. The lease, not the concurrency, is what
    // keeps runs from overlapping, across any number of scheduler processes.
    concurrency: 2,
    // A run whose process died is taken up again (it continues its batch); only repeated deaths fail it.
    maxStalledCount: 3,
  });
  worker.on('error', redisErrors(connection, 'nightly run worker', logger));
  return worker;
}
