import { Worker, type Processor, type Queue } from 'bullmq';
import type { RedisClient } from '../redis/connection.js';
import type { FinishedBatch } from '../batch/lifecycle.js';
import type { NotifySettings } from '../config/index.js';
import { maskDigitRuns, type Logger } from '../logging/logger.js';
import { noticeJobData, NoticeNotDeliveredError, type CompletionNotice, type CompletionNoticeJobData } from './notice.js';
import { noticeJobOptions, NOTICE_JOB, openNoticeQueue } from './notice-queue.js';
import type { RedisKeys } from '../redis/keys.js';
import { redisErrors } from '../redis/supervisor.js';
import { closeWorker } from '../queue/close-worker.js';

/** Where a notice goes and the key it is signed with: what the delivery job (jobs/completion-notice.ts) is given. */
export interface NoticeTarget {
  url: string;
  secret: string;
  timeoutMs: number;
}

/** Completion notices: queue one, deliver them, wait a bounded time for one's own. */
export interface Notices {
  /** The notice queue; undefined when notices are off (no NOTIFY_WEBHOOK_URL). */
  readonly queue: Queue<CompletionNoticeJobData> | undefined;
  /** Queues the notice of a batch that just finished (the lifecycle calls it once per finish). */
  enqueue(finished: FinishedBatch): Promise<void>;
  /** Starts this process's notice worker (once; every process that runs inquiry workers delivers notices too). */
  startWorker(): void;
  /**
   * Waits up to `timeoutMs` for the notices this process queued to be delivered or given up; what to tell
   * the user of those still waiting (undefined when none is): they stay queued for another process, or
   * are lost with a `privateRedis` (`run`'s own redis-server).
   */
  awaitOwn(timeoutMs: number, privateRedis: boolean): Promise<string | undefined>;
  close(): Promise<void>;
}

const NOTICE_CONCURRENCY = 4;
const AWAIT_POLL_MS = 200;

/** The notice of a finished batch. Its file names and paths are free text, masked as everywhere (the batch id finds the report). */
export function buildNotice(finished: FinishedBatch, environment: string): CompletionNotice {
  const { summary, batch } = finished;
  return {
    event: 'batch.finished',
    batchId: summary.batchId,
    source: { file: maskDigitRuns(summary.sourceFile), name: maskDigitRuns(batch.sourceName) },
    rows: summary.rows,
    counts: summary.counts,
    needsReview: summary.needsReview,
    approved: summary.approved,
    rejected: summary.rejected,
    report: maskDigitRuns(summary.report),
    notes: summary.notes.map(maskDigitRuns),
    startedAt: summary.startedAt,
    finishedAt: new Date(finished.finishedAt).toISOString(),
    environment,
    ...(summary.incomplete !== undefined && { incomplete: summary.incomplete }),
  };
}

/** Completion notices as `settings` ask (none without NOTIFY_WEBHOOK_URL); `deliverer` makes the delivery job's processor. */
export function openNotices(
  redis: RedisClient,
  keys: RedisKeys,
  settings: NotifySettings,
  environment: string,
  logger: Logger,
  deliverer: (target: NoticeTarget) => Processor<CompletionNoticeJobData>,
): Notices {
  const { webhookUrl, secret } = settings;
  if (webhookUrl === undefined || secret === undefined) {
    return {
      queue: undefined,
      enqueue: async () => undefined,
      startWorker: () => undefined,
      awaitOwn: async () => undefined,
      close: async () => undefined,
    };
  }
  const queue = openNoticeQueue(redis, keys);
  queue.on('error', redisErrors(redis, 'notice queue', logger));
  const own = new Set<string>();
  let worker: Worker<CompletionNoticeJobData> | undefined;

  return {
    queue,
    enqueue: async (finished) => {
      const notice = buildNotice(finished, environment);
      const options = noticeJobOptions(notice.batchId, finished.finishedAt, settings);
      await queue.add(NOTICE_JOB, noticeJobData(notice), options);
      own.add(options.jobId!);
      logger.debug({ batchId: notice.batchId, jobId: options.jobId }, 'completion notice queued');
    },
    startWorker: () => {
      if (worker !== undefined) return;
      worker = new Worker<CompletionNoticeJobData>(
        queue.name,
        deliverer({ url: webhookUrl, secret, timeoutMs: settings.timeoutMs }),
        // A delivery cut off by a stop comes back when its lock expires; a few of those are no reason to give a notice up.
        { connection: redis, prefix: keys.bullPrefix(), concurrency: NOTICE_CONCURRENCY, maxStalledCount: 5 },
      );
      worker.on('error', redisErrors(redis, 'notice worker', logger));
      worker.on('failed', (job, error) => {
        if (job === undefined || job.attemptsMade < (job.opts.attempts ?? 1)) return;
        const detail = error instanceof NoticeNotDeliveredError ? error.message : `${error.name}: ${error.message}`;
        logger.error(
          { batchId: job.data.batchId, jobId: job.id, attempts: job.attemptsMade },
          `completion notice given up after ${job.attemptsMade} attempts (${detail}); it stays in the failed list of ${queue.name}`,
        );
      });
    },
    awaitOwn: async (timeoutMs, privateRedis) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (const jobId of own) {
          const state = await queue.getJobState(jobId);
          if (state === 'completed' || state === 'failed' || state === 'unknown') own.delete(jobId);
        }
        if (own.size === 0) return undefined;
        if (Date.now() >= deadline) {
          return privateRedis
            ? 'the completion notice was not delivered yet and is lost with the private Redis of this run: set REDIS_URL to keep it for a running worker'
            : `the completion notice was not delivered within ${timeoutMs / 1000}s: it stays queued (${queue.name}) and a running worker, watch, schedule or serve process delivers it`;
        }
        await new Promise((resolve) => setTimeout(resolve, AWAIT_POLL_MS));
      }
    },
    close: async () => {
      // Not waiting for a delivery in flight (a hanging receiver must not hold a stop): its job's lock
      // expires and another process's notice worker sends it again (at least once).
      if (worker !== undefined) await closeWorker(worker, true);
      await queue.close();
    },
  };
}
