import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BatchStore } from '../../src/batch/batch-store.js';
import { inspectFile, Producer } from '../../src/batch/producer.js';
import { createLogger } from '../../src/logging/logger.js';
import { accountsPerJob, openInquiryQueue, type InquiryJobData } from '../../src/queue/inquiry-queue.js';
import { openAccount } from '../../src/queue/job-seal.js';
import { dropInquiryJobs, findLostInquiryJobs } from '../../src/queue/lost-jobs.js';
import { redisKeys } from '../../src/redis/keys.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { UnrecoverableError, Worker, type Job, type Queue } from 'bullmq';
import { waitFor } from '../support/wait.js';

/**
 * A batch whose jobs ask several accounts each (accountsPerJob), over real Redis and BullMQ: every account
 * is in exactly one group, the same group whoever queues it (the producer across its slices, a re-read of
 * the file, a requeue, the audit of lost jobs), so that no account is ever in two live jobs of a round.
 */
const prefix = testKeyPrefix();
const redis = testRedis();
const workerConnection = testRedis();
const keys = redisKeys(prefix);
const logger = createLogger('silent', { format: 'json' });
const store = new BatchStore(redis, keys, 3600_000);
const PER_JOB = 3;
/** 1,300 rows over three slices of 500: 1,000 accounts, every tenth row invalid, the last 300 rows seen before. */
const ROWS = 1_300;
let path: string;
let queue: Queue<InquiryJobData>;
let queues = 0;

const accountNumber = (row: number) => String(5_270_000_000 + (row % 1_000));

beforeAll(async () => {
  path = join(await mkdtemp(join(tmpdir(), 'bc-groups-')), 'groups.csv');
  const lines = Array.from({ length: ROWS }, (_, row) => `014,${row % 10 === 9 && row < 1_000 ? '' : accountNumber(row)},Budi Santoso`);
  await writeFile(path, `bank_code,account_number,name\n${lines.join('\n')}\n`);
});

beforeEach(async () => {
  await queue?.close();
  queue = openInquiryQueue(redis, keys, `inquiries-groups-${(queues += 1)}`, logger);
});

afterAll(async () => {
  await queue.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  workerConnection.disconnect();
});

async function newBatch(batchId: string) {
  const inspected = await inspectFile(path, {});
  await store.create({
    batchId,
    sourceFile: path,
    sourceName: 'groups.csv',
    contentHash: `${batchId}-${inspected.file.contentHash}`,
    queueName: queue.name,
    endpoint: { environment: 'sandbox', address: 'http://groups.test' },
    layout: { delimiter: ',' },
    header: inspected.header,
    mapping: inspected.mapping,
    replacedColumns: inspected.replaced,
    rowCount: ROWS,
    createdAt: Date.now(),
    accountsPerJob: PER_JOB,
  });
  return inspected;
}

/** The batch's queued jobs: id -> the accounts it asks, opened with the batch's key. */
async function queuedGroups(batchId: string): Promise<Map<string, string[]>> {
  const sealKey = (await store.jobSeal(batchId))!;
  const jobs = (await queue.getJobs(['waiting', 'failed'])) as Array<Job<InquiryJobData>>;
  const groups = new Map<string, string[]>();
  for (const job of jobs.filter((one) => one.data.batchId === batchId)) {
    if (!('sealedAccounts' in job.data)) throw new Error(`job ${job.id} asks one account`);
    groups.set(
      job.id!,
      job.data.sealedAccounts.map((sealed) => openAccount(sealKey, batchId, sealed)!),
    );
  }
  return groups;
}

/** The groups the batch's account order makes: `${batchId}.g<n>` -> accounts n * PER_JOB .. n * PER_JOB + PER_JOB - 1. */
async function expectedGroups(batchId: string): Promise<Map<string, string[]>> {
  const order = await redis.lrange(keys.accountOrder(batchId), 0, -1);
  const groups = new Map<string, string[]>();
  order.forEach((accountKey, ordinal) => {
    const id = `${batchId}.g${Math.floor(ordinal / PER_JOB)}`;
    groups.set(id, [...(groups.get(id) ?? []), accountKey]);
  });
  return groups;
}

describe('jobs of several accounts (accountsPerJob)', () => {
  it('one account per job for a file under 4,096 rows, sixteen from there, paced or not', () => {
    expect(accountsPerJob(28)).toBe(1);
    expect(accountsPerJob(4_095)).toBe(1);
    expect(accountsPerJob(4_096)).toBe(16);
    expect(accountsPerJob(1_000_000)).toBe(16);
  });

  it('queues every account once, in the group of its place in first-seen order, across slices; a re-read and a requeue add nothing', async () => {
    const batchId = 'b-groups';
    const inspected = await newBatch(batchId);
    const producer = new Producer(store, queue, 3);
    await producer.produce(batchId, inspected);

    const expected = await expectedGroups(batchId);
    expect([...expected.values()].flat()).toHaveLength(1_000 - 100 + 30);
    expect(await queuedGroups(batchId)).toEqual(expected);

    // The same content read again (a rerun of an unfinished batch), then the unanswered requeued: the same ids, no-ops.
    await producer.produce(batchId, inspected);
    expect(await producer.requeueUnanswered(batchId)).toBe(930);
    expect(await queuedGroups(batchId)).toEqual(expected);
    expect(await queue.getWaitingCount()).toBe(expected.size);
  });

  it('a requeue after the jobs were lost queues each group once, with only its unanswered accounts', async () => {
    const batchId = 'b-groups-requeue';
    const inspected = await newBatch(batchId);
    const producer = new Producer(store, queue, 3);
    await producer.produce(batchId, inspected);
    const expected = await expectedGroups(batchId);
    const order = await redis.lrange(keys.accountOrder(batchId), 0, -1);
    // The first account of every group, and every account of the first group, answered.
    const answered = order.filter((_, ordinal) => ordinal % PER_JOB === 0 || ordinal < PER_JOB);
    for (const accountKey of answered) await store.writeAnswer(batchId, accountKey, { verdict: 'VERIFIED', reason: '' });
    // The audit sees the jobs: none lost.
    const unanswered = [];
    for await (const slice of store.unansweredInquiries(batchId)) unanswered.push(...slice);
    expect(unanswered.map((inquiry) => inquiry.group)).toEqual([...expected.keys()].slice(1).map((id) => Number(id.split('.g')[1])));
    expect(await findLostInquiryJobs(queue, batchId, 0, unanswered)).toEqual({ failed: [], missing: [] });

    // Gone from the queue (a Redis restart without persistence, say): the audit finds every unanswered account missing.
    expect(
      await dropInquiryJobs(
        queue,
        batchId,
        0,
        [...expected.keys()].map((id) => ({ accountKeys: [], group: Number(id.split('.g')[1]) })),
      ),
    ).toBe(expected.size);
    const lost = await findLostInquiryJobs(queue, batchId, 0, unanswered);
    expect(lost.failed).toEqual([]);
    expect(lost.missing.sort()).toEqual(order.filter((accountKey) => !answered.includes(accountKey)).sort());

    expect(await producer.requeueUnanswered(batchId)).toBe(order.length - answered.length);
    const requeued = await queuedGroups(batchId);
    const withoutAnswered = new Map(
      [...expected]
        .map(([id, accountKeys]) => [id, accountKeys.filter((accountKey) => !answered.includes(accountKey))] as const)
        .filter(([, accountKeys]) => accountKeys.length > 0),
    );
    expect(requeued).toEqual(withoutAnswered);
  });

  it("the audit finds a group job that failed outside the retry rules: each of its unanswered accounts, with the job's reason", async () => {
    const batchId = 'b-groups-failed';
    const inspected = await newBatch(batchId);
    await new Producer(store, queue, 3).produce(batchId, inspected);
    const unanswered = [];
    for await (const slice of store.unansweredInquiries(batchId)) unanswered.push(...slice);
    // Every job of the queue fails for good (what a worker stalled past its limit leaves).
    const worker = new Worker<InquiryJobData>(
      queue.name,
      async () => {
        throw new UnrecoverableError('job stalled more than allowable limit');
      },
      { connection: workerConnection, prefix: keys.bullPrefix() },
    );
    await waitFor(async () => (await queue.getFailedCount()) >= unanswered.length, 30_000, 'every group job to fail');
    await worker.close();
    const lost = await findLostInquiryJobs(queue, batchId, 0, unanswered);
    expect(lost.missing).toEqual([]);
    expect(lost.failed).toEqual(
      unanswered.flatMap((inquiry) =>
        inquiry.accountKeys.map((accountKey) => ({ accountKey, reason: 'job stalled more than allowable limit' })),
      ),
    );
  });
});
