import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { backlogFor, DEFAULT_BACKLOG } from '../../src/batch/backlog.js';
import { BatchStore } from '../../src/batch/batch-store.js';
import { parseRate } from '../../src/config/index.js';
import { inspectFile, Producer, SLICE_ROWS } from '../../src/batch/producer.js';
import { createLogger } from '../../src/logging/logger.js';
import { openInquiryQueue, type InquiryJobData } from '../../src/queue/inquiry-queue.js';
import { redisKeys } from '../../src/redis/keys.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

const prefix = testKeyPrefix();
const redis = testRedis();
const workerConnection = testRedis();

afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
  workerConnection.disconnect();
});

describe('producer backpressure', () => {
  it('keeps about two seconds of calls queued for a rate, from 1,000 jobs up to the default bound', () => {
    expect(backlogFor(parseRate('200/s')).limit).toBe(1_000);
    expect(backlogFor(parseRate('2000/s')).limit).toBe(4_000);
    expect(backlogFor(parseRate('1000000/s')).limit).toBe(DEFAULT_BACKLOG.limit);
  });

  it('never lets the queue hold more than the bound plus one slice of waiting jobs, and still queues every account', async () => {
    const ACCOUNTS = 4_000;
    const BOUND = 1_000;
    const keys = redisKeys(prefix);
    const logger = createLogger('silent', { format: 'json' });
    const store = new BatchStore(redis, keys, 3600_000);
    const queue = openInquiryQueue(redis, keys, 'inquiries-backpressure', logger);
    const path = join(await mkdtemp(join(tmpdir(), 'bc-backpressure-')), 'many.csv');
    await writeBeneficiaryFile(path, syntheticAccounts(ACCOUNTS));
    const inspected = await inspectFile(path, {});
    const batchId = 'b-backpressure';
    await store.create({
      batchId,
      sourceFile: path,
      sourceName: 'many.csv',
      contentHash: inspected.file.contentHash,
      queueName: queue.name,
      endpoint: { environment: 'sandbox', address: 'http://backpressure.test' },
      layout: { delimiter: ',' },
      header: inspected.header,
      mapping: inspected.mapping,
      replacedColumns: inspected.replaced,
      rowCount: ACCOUNTS,
      createdAt: Date.now(),
    });

    // Sampled all along, from before the producer starts until it has queued its last slice.
    let maxWaiting = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const counts = await queue.getJobCounts('waiting', 'delayed', 'prioritized');
        maxWaiting = Math.max(maxWaiting, (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    // The bound a request gives (run's backlogFor) wins over the producer's own (the default, enqueue's).
    const producer = new Producer(store, queue, 1);
    let produced = false;
    const production = producer.produce(batchId, inspected, undefined, { limit: BOUND, pollMs: 20 }).then(() => (produced = true));
    // No worker yet: the producer fills the queue up to the bound and waits there.
    await waitFor(async () => (await queue.getWaitingCount()) >= BOUND, 30_000, 'the queue to reach the bound');
    expect(produced).toBe(false);

    let completed = 0;
    const worker = new Worker<InquiryJobData>(queue.name, async () => undefined, {
      connection: workerConnection,
      prefix: keys.bullPrefix(),
      concurrency: 50,
    });
    worker.on('completed', () => (completed += 1));
    await production;
    sampling = false;
    await sampler;
    await waitFor(() => completed >= ACCOUNTS, 60_000, 'every queued account to be taken');
    await worker.close();
    await queue.close();

    expect(maxWaiting).toBeGreaterThanOrEqual(BOUND);
    expect(maxWaiting).toBeLessThanOrEqual(BOUND + SLICE_ROWS);
    expect(completed).toBe(ACCOUNTS);
    expect((await store.progress(batchId)).accountCount).toBe(ACCOUNTS);
  });
});
