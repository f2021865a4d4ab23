import { Queue, type JobsOptions } from 'bullmq';
import type { RedisClient } from '../redis/connection.js';
import type { NotifySettings } from '../config/index.js';
import type { RedisKeys } from '../redis/keys.js';
import type { CompletionNoticeJobData } from './notice.js';

export const NOTICE_QUEUE = 'completion-notices';
export const NOTICE_JOB = 'completion-notice';

export function openNoticeQueue(connection: RedisClient, keys: RedisKeys): Queue<CompletionNoticeJobData> {
  return new Queue<CompletionNoticeJobData>(NOTICE_QUEUE, { connection, prefix: keys.bullPrefix() });
}

/**
 * One job per batch finishing: the id makes a second enqueue of the same finish a no-op while the job is
 * kept (a week). Retries with exponential backoff; a notice that exhausts its attempts stays as a failed
 * job, visible in the dashboard (`/queues`).
 */
export function noticeJobOptions(
  batchId: string,
  finishedAt: number,
  settings: Pick<NotifySettings, 'attempts' | 'backoffMs'>,
): JobsOptions {
  return {
    jobId: `notice.${batchId}.${finishedAt}`,
    attempts: settings.attempts,
    backoff: { type: 'exponential', delay: settings.backoffMs },
    removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
    removeOnFail: { age: 30 * 24 * 3600, count: 10_000 },
  };
}
