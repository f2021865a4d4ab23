import { Queue, Worker, type Job } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { closeWorker } from '../../src/queue/close-worker.js';
import type { InquiryJobData } from '../../src/queue/inquiry-queue.js';
import { startsStoppedAfter } from '../../src/queue/worker-pool.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

/**
 * A stop hands back the jobs waiting for their send slot (Worker.cancelAllJobs aborts their signal). But
 * BullMQ goes on starting jobs for a moment, each with a signal cancelAllJobs never reached: the next job a
 * finishing one fetches (the close takes effect a moment after the cancel: closeWorker first looks at the
 * blocking connection), and one whose fetch was under way. Such a job waited for its slot past
 * SHUTDOWN_TIMEOUT and was left active, its account held by the dead process's lock for 30 s and more.
 * The pool's processor gives those jobs the stop's own signal. Without it, 64 of the jobs here waited.
 */
const redis = testRedis();
const prefix = testKeyPrefix();

afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('a job BullMQ starts after the stop began', () => {
  it('starts stopped: no job waits for a slot with a signal no one aborts', async () => {
    const queue = new Queue<InquiryJobData>('fetched', { connection: redis, prefix });
    await queue.addBulk(Array.from({ length: 200 }, (_, index) => ({ name: 'inquiry', data: { batchId: 'b', row: index } as never })));
    const stopped = new AbortController();
    const unaborted: string[] = [];
    let started = 0;
    // Every job "waits for its slot" until its signal is aborted, as the inquiry processor does.
    const waitForSlot = (job: Job<InquiryJobData>, _token?: string, signal?: AbortSignal): Promise<void> => {
      started += 1;
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        const timer = setTimeout(() => {
          unaborted.push(String(job.id));
          resolve();
        }, 2_000);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    };
    const connection = redis.duplicate();
    const worker = new Worker<InquiryJobData>('fetched', startsStoppedAfter(stopped.signal, waitForSlot), {
      connection,
      prefix,
      concurrency: 64,
    });
    try {
      // Stopped as the pool stops: the close begun, then every job in hand aborted.
      await waitFor(() => started >= 1, 10_000, 'the first job');
      const closing = closeWorker(worker);
      stopped.abort();
      worker.cancelAllJobs('stopping');
      await closing;
      expect(started).toBeGreaterThan(1);
      expect(unaborted).toEqual([]);
    } finally {
      await worker.close(true);
      await queue.close();
      connection.disconnect();
    }
  });
});
