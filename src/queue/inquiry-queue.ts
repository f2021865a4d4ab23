import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ProviderSettings, Rate } from '../config/index.js';
import { parseAccountKey } from '../csv/validation.js';
import { shortDigest, type RedisKeys } from './keys.js';

export const INQUIRY_JOB = 'inquiry';

/** One job asks the provider about one bank account for one batch. */
export interface InquiryJobData {
  batchId: string;
  accountKey: string;
}

/**
 * One queue per provider endpoint: jobs for the sandbox never reach a worker configured for production,
 * and workers pointed at different addresses never take each other's jobs.
 */
export function inquiryQueueName(provider: Pick<ProviderSettings, 'environment' | 'baseUrl'>): string {
  return `inquiries-${provider.environment}-${shortDigest(provider.baseUrl ?? 'builtin')}`;
}

/** The job id makes adding the same account twice a no-op while the first job still exists. */
export const inquiryJobId = (batchId: string, accountKey: string): string => `${batchId}.${shortDigest(accountKey)}`;

export function openInquiryQueue(connection: Redis, keys: RedisKeys, queueName: string): Queue<InquiryJobData> {
  return new Queue<InquiryJobData>(queueName, { connection, prefix: keys.bullPrefix() });
}

export function inquiryJobOptions(batchId: string, accountKey: string, attempts: number): JobsOptions {
  return {
    jobId: inquiryJobId(batchId, accountKey),
    attempts,
    backoff: { type: 'jittered' },
    // The outcome lives in the batch; keeping finished jobs would only grow Redis.
    removeOnComplete: true,
    removeOnFail: true,
  };
}

export async function addInquiryJobs(queue: Queue<InquiryJobData>, batchId: string, accountKeys: string[], attempts: number): Promise<void> {
  if (accountKeys.length === 0) return;
  await queue.addBulk(
    accountKeys.map((accountKey) => ({ name: INQUIRY_JOB, data: { batchId, accountKey }, opts: inquiryJobOptions(batchId, accountKey, attempts) })),
  );
}

export const accountOf = (data: InquiryJobData) => parseAccountKey(data.accountKey);

/**
 * BullMQ's global limiter counts jobs in fixed windows that start at the first job. A window of one job
 * spaced 1/rate apart means no one-second window, sliding or fixed, ever holds more than the rate;
 * for fast rates a few jobs per window keep the spacing above BullMQ's 1 ms resolution.
 */
export function spreadLimiter(rate: Rate): { max: number; duration: number } {
  for (let max = 1; max <= 20; max += 1) {
    const duration = Math.ceil((max * rate.perMs) / rate.max);
    if (duration >= 1 && (max * rate.perMs) / duration >= 0.98 * rate.max) return { max, duration };
  }
  return { max: Math.ceil(rate.max / (rate.perMs / 50)), duration: 50 };
}
