import { MetricsTime, Worker, type Job, type Processor, type Queue } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import type { RedisClient } from '../redis/connection.js';
import { isConnectionFailure, isRedisFull } from '../redis/failures.js';
import type { RedisKeys } from '../redis/keys.js';
import { redisErrors } from '../redis/supervisor.js';
import { jitteredBackoff } from './backoff.js';
import type { CallPermits } from './call-permits.js';
import { shares, type AdaptiveConcurrency } from './concurrency.js';
import type { InquiryJobData } from './inquiry-queue.js';
import type { SendPacer, SendTicket } from './pacer.js';

/** What an inquiry worker needs besides its job's processor (jobs/inquiry.ts, given by the composition root). */
export interface InquiryWorkerSettings {
  connection: RedisClient;
  keys: RedisKeys;
  /** The worker's share of the process's slots to start with (see `adaptTo`). */
  concurrency: number;
  /** The first retry delay (INQUIRY_BACKOFF), doubled per attempt with jitter. */
  backoffMs: number;
  logger: Logger;
  /** A job failed with a transient error and goes back for another attempt (a metric). */
  onRetry(): void;
  /** Tells whether a failed job's error is a transient one (the processor's TransientInquiryError). */
  isTransient(error: Error): boolean;
}

/** An inquiry worker on `queue` running `processor`, at its share of the process's concurrency (see `adaptTo`). */
export function startInquiryWorker(
  queue: Queue<InquiryJobData>,
  processor: Processor<InquiryJobData>,
  settings: InquiryWorkerSettings,
): Worker<InquiryJobData> {
  const worker = new Worker<InquiryJobData>(queue.name, processor, {
    connection: settings.connection,
    prefix: settings.keys.bullPrefix(),
    concurrency: settings.concurrency,
    // A killed worker's jobs come back after the lock expires; a few stalls are not a reason to give up a
    // row. Past the limit the job fails and the batch's settle turns it into a FAILED row that says so.
    maxStalledCount: 10,
    // Completed/failed counts per minute for BullMQ's own Prometheus export (bullmq_job_*_total).
    metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
    settings: { backoffStrategy: (attemptsMade: number) => jitteredBackoff(settings.backoffMs, attemptsMade) },
  });
  const workerErrors = redisErrors(settings.connection, 'inquiry worker', settings.logger);
  worker.on('error', workerErrors);
  worker.on('failed', (job: Job<InquiryJobData> | undefined, error: Error) => {
    // A job that failed on Redis itself (gone, full) is the connection's supervisor's to report, once.
    if (isConnectionFailure(error) || isRedisFull(error)) return workerErrors(error);
    // A transient failure thrown by the processor always goes back for another attempt (the last one stores FAILED).
    if (settings.isTransient(error)) settings.onRetry();
    else if (error.name !== 'RateLimitError') settings.logger.error({ err: error, jobId: job?.id }, 'inquiry job failed');
  });
  return worker;
}

/**
 * Feeds one answered call's work time to `concurrency` and sets the process's call permits to what it says
 * (enough calls in flight for the rate at the work time seen), and its workers to their shares of as many
 * jobs: a job of one account needs a slot per call, and a job of several takes a permit per call. The
 * workers are looked up when a time comes: the processor that observes exists before its workers.
 */
export function adaptTo(
  concurrency: AdaptiveConcurrency,
  permits: CallPermits,
  workers: () => readonly Worker<InquiryJobData>[],
): (workMs: number) => void {
  return (workMs) => {
    concurrency.observe(workMs);
    const calls = concurrency.next();
    permits.setCapacity(calls);
    const current = workers();
    const next = shares(calls, current.length);
    current.forEach((worker, index) => {
      if (worker.concurrency !== next[index]) worker.concurrency = next[index]!;
    });
  };
}

const round = (rate: number): number => Math.round(rate * 100) / 100;

/**
 * A 429: every process holds `ms` and the shared rate slows down (SendPacer.slowDown); said once per hold,
 * not once per 429 (the calls paced before the decrease answer for the old rate).
 */
export function holdAfterRateLimit(pacer: SendPacer, logger: Logger): (ms: number, ticket: SendTicket | undefined) => Promise<void> {
  return async (ms, ticket) => {
    const slowDown = await pacer.slowDown(ms, ticket);
    if (slowDown.slowed) {
      logger.warn(
        { retryAfterMs: ms, fromPerSecond: round(slowDown.from), toPerSecond: round(slowDown.to) },
        `provider rate limit reached (HTTP 429): every worker holds ${ms} ms, then sends at ${round(slowDown.to)}/s (was ${round(slowDown.from)}/s), climbing back while answers are clean`,
      );
    } else logger.debug({ retryAfterMs: ms }, 'provider rate limit reached (HTTP 429) for a call paced before the last slow-down: holding');
  };
}
