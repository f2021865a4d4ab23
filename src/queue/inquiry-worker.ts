import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { InquirySettings } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { createInquiryProcessor, TransientInquiryError, type InquiryJobDependencies } from '../../jobs/inquiry.js';
import type { InquiryJobData } from './inquiry-queue.js';
import { queueCeiling } from './inquiry-queue.js';
import type { RedisKeys } from './keys.js';

const MAX_BACKOFF_MS = 60_000;

/** Exponential backoff with full jitter, so retries from many workers do not arrive together. */
export function jitteredBackoff(baseMs: number, attemptsMade: number, random = Math.random): number {
  const ceiling = Math.min(baseMs * 2 ** Math.max(0, attemptsMade - 1), MAX_BACKOFF_MS);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Starts workers for the inquiry queue. The rate is one ceiling for every worker of every process:
 * stored on the queue (BullMQ's global rate limit; the last process started sets it) and kept evenly
 * spaced by the shared SendPacer.
 */
export async function startInquiryWorker(
  connection: Redis,
  keys: RedisKeys,
  settings: InquirySettings,
  dependencies: InquiryJobDependencies,
  logger: Logger,
): Promise<Worker<InquiryJobData>> {
  const ceiling = queueCeiling(settings.rate);
  await dependencies.queue.setGlobalRateLimit(ceiling.max, ceiling.duration);
  const worker = new Worker<InquiryJobData>(dependencies.queue.name, createInquiryProcessor(dependencies), {
    connection,
    prefix: keys.bullPrefix(),
    concurrency: settings.concurrency,
    // A killed worker's jobs come back after the lock expires; a few stalls are not a reason to give up a row.
    maxStalledCount: 10,
    settings: { backoffStrategy: (attemptsMade: number) => jitteredBackoff(settings.backoffMs, attemptsMade) },
  });
  worker.on('error', (error) => logger.error({ err: error }, 'worker error'));
  worker.on('failed', (job, error) => {
    if (!(error instanceof TransientInquiryError) && error.name !== 'RateLimitError') logger.error({ err: error, jobId: job?.id }, 'inquiry job failed');
  });
  return worker;
}
