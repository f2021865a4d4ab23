import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchStore, contentAtEndpoint } from '../../src/batch/batch-store.js';
import { redisKeys } from '../../src/redis/keys.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

const DAY_MS = 24 * 3600_000;
const redis = testRedis();
const prefixes: string[] = [];
let sandbox: SandboxServer;
let workDir: string;

/** Each test its own key prefix: its batches, indexes and queues are its own. */
function world(extra: Record<string, string> = {}) {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  const keys = redisKeys(prefix);
  const env = (provider: 'external' | 'builtin' = 'external') =>
    cliEnvironment({
      REDIS_URL: TEST_REDIS_URL,
      BC_KEY_PREFIX: prefix,
      INQUIRY_RATE: '500/s',
      ...(provider === 'external' && { H2H_BASE_URL: sandbox.url, H2H_USERNAME: 'sandbox', H2H_PASSWORD: 'sandbox' }),
      ...extra,
    });
  const cli = (args: string[], provider: 'external' | 'builtin' = 'external') => runCli(args, env(provider));
  /** The keys of one batch left in Redis, found the way an operator would (SCAN). */
  const batchKeysLeft = (batchId: string) => scanAll(`${keys.batch(batchId)}*`);
  return { prefix, keys, store: new BatchStore(redis, keys, DAY_MS), cli, batchKeysLeft };
}

async function scanAll(pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

/** A copy of the shipped example under its own name (its own content: one line differs). */
async function inputFile(name: string): Promise<string> {
  const path = join(workDir, name);
  await copyFile(join(PROJECT_ROOT, 'examples/beneficiaries.csv'), path);
  await writeFile(path, `X-${name},marketplace,014,0012345678,Budi Santoso,1,\n`, { flag: 'a' });
  return path;
}

async function runToTheEnd(w: ReturnType<typeof world>, name: string, provider: 'external' | 'builtin' = 'external'): Promise<string> {
  const file = await inputFile(name);
  const result = await w.cli(['run', file, '--out', join(workDir, `${name}.reconciled.csv`), '--json'], provider);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { batchId: string }).batchId;
}

/** A failed job with this id on the queue, made to fail by a real BullMQ worker (jobs kept for people to look at). */
async function failedJob(prefix: string, queueName: string, jobId: string): Promise<void> {
  const connection = testRedis();
  const queue = new Queue(queueName, { connection, prefix: redisKeys(prefix).bullPrefix() });
  await queue.add('inquiry', { batchId: jobId.split('.')[0], accountKey: 'x' }, { jobId, attempts: 1, removeOnFail: false });
  const worker = new Worker(
    queueName,
    async () => {
      throw new Error('kept for inspection');
    },
    { connection: testRedis(), prefix: redisKeys(prefix).bullPrefix() },
  );
  await waitFor(async () => (await queue.getJobState(jobId)) === 'failed', 10_000, `job ${jobId} to fail`);
  await worker.close();
  await queue.close();
  connection.disconnect();
}

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-retention-'));
});

afterAll(async () => {
  await sandbox.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('retention: Redis is working state, reports on disk are the record', () => {
  it('a finished batch expires after BATCH_RETENTION: every key of it has a TTL within the retention', async () => {
    const w = world({ BATCH_RETENTION: '2d' });
    const batchId = await runToTheEnd(w, 'ttl.csv');
    const keys = [w.keys.batch(batchId), w.keys.rows(batchId), w.keys.accounts(batchId), w.keys.outcomes(batchId)];
    const left = await w.batchKeysLeft(batchId);
    // The list of rows a person decides exists when the report had any.
    expect(left.sort()).toEqual([...keys, w.keys.reviewRows(batchId)].filter((key) => left.includes(key)).sort());
    expect(left).toEqual(expect.arrayContaining(keys));
    for (const key of left) {
      const ttl = await redis.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(2 * DAY_MS);
    }
  });

  it('index entries of expired batches are dropped by list and by the content lookup (also those from before the index named the endpoint)', async () => {
    const w = world();
    await redis.zadd(w.keys.batches(), Date.now(), 'b-expired');
    await redis.hset(
      w.keys.batchesByContent(),
      contentAtEndpoint('inquiries-sandbox-x', 'content-of-expired'),
      'b-expired',
      'content-of-expired',
      'b-expired',
    );
    expect(await w.store.list()).toEqual([]);
    expect(await w.store.latestByContent('inquiries-sandbox-x', 'content-of-expired')).toBeUndefined();
    expect(await redis.zcard(w.keys.batches())).toBe(0);
    expect(await redis.hlen(w.keys.batchesByContent())).toBe(0);
  });

  it('prune --older-than 0s removes only finished batches, prints each and a total, and leaves no key and no failed job of them', async () => {
    const w = world();
    const finished = await runToTheEnd(w, 'finished.csv');
    const { queueName } = await w.store.get(finished);
    await failedJob(w.prefix, queueName, `${finished}.kept-failure`);
    const enqueued = await w.cli(['enqueue', await inputFile('unfinished.csv')]);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const unfinished = enqueued.stdout.trim();
    // A job of a batch that stays (its record is there: no orphan) stays too.
    await failedJob(w.prefix, queueName, `${unfinished}.kept-failure`);

    // Only Redis: no H2H_* at all.
    const pruned = await runCli(['prune', '--older-than', '0s'], cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: w.prefix }));
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(new RegExp(`removed ${finished}  finished\\.csv  29 rows  finished \\d{4}-\\d\\d-\\d\\dT`));
    expect(pruned.stdout).toContain('1 finished batch(es) finished 0s ago or more removed (29 rows)');
    expect(pruned.stdout).not.toContain(unfinished);

    expect(await w.batchKeysLeft(finished)).toEqual([]);
    expect(await redis.zscore(w.keys.batches(), finished)).toBeNull();
    const queue = new Queue(queueName, { connection: testRedis(), prefix: w.keys.bullPrefix() });
    expect(await queue.getJob(`${finished}.kept-failure`)).toBeUndefined();
    expect(await queue.getJobState(`${unfinished}.kept-failure`)).toBe('failed');
    await queue.close();
    expect((await w.store.get(unfinished)).reportedAt).toBeUndefined();
    expect(await w.store.list()).toEqual([unfinished]);
  });

  it('prune keeps finished batches younger than --older-than (default BATCH_RETENTION)', async () => {
    const w = world();
    const finished = await runToTheEnd(w, 'young.csv');
    for (const args of [['prune'], ['prune', '--older-than', '12h']]) {
      const pruned = await w.cli(args);
      expect(pruned.code, pruned.stderr).toBe(0);
      expect(pruned.stdout).toContain('0 finished batch(es)');
    }
    expect(await w.store.list()).toEqual([finished]);
  });

  it('delete removes one batch; an unfinished one only with --force, with its queued jobs', async () => {
    const w = world();
    const kept = await runToTheEnd(w, 'kept.csv');
    const deleted = await runToTheEnd(w, 'deleted.csv');
    const removed = await w.cli(['delete', deleted]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`removed ${deleted}  deleted.csv  29 rows  finished `);
    expect(await w.batchKeysLeft(deleted)).toEqual([]);
    expect(await w.store.list()).toEqual([kept]);

    const enqueued = await w.cli(['enqueue', await inputFile('queued.csv')]);
    const unfinished = enqueued.stdout.trim();
    const { queueName } = await w.store.get(unfinished);
    const queue = new Queue(queueName, { connection: testRedis(), prefix: w.keys.bullPrefix() });
    const waitingOf = async (batchId: string) =>
      (await queue.getRanges(['wait', 'delayed', 'prioritized'], 0, -1)).filter((id) => id.startsWith(`${batchId}.`)).length;
    expect(await waitingOf(unfinished)).toBeGreaterThan(0);

    const refused = await w.cli(['delete', unfinished]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`batch ${unfinished} is not finished`);
    expect(refused.stderr).toContain('--force');
    expect((await w.store.get(unfinished)).batchId).toBe(unfinished);

    const forced = await w.cli(['delete', unfinished, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`removed ${unfinished}  queued.csv  29 rows  unfinished`);
    expect(await w.batchKeysLeft(unfinished)).toEqual([]);
    expect(await waitingOf(unfinished)).toBe(0);
    await queue.close();

    const unknown = await w.cli(['delete', 'b-no-such-batch']);
    expect(unknown.code).toBe(2);
  });

  it("a throw-away emulator run's queue, pacer and history go with its batch", async () => {
    const w = world();
    const batchId = await runToTheEnd(w, 'emulated.csv', 'builtin');
    const { queueName, throwAwayQueue } = await w.store.get(batchId);
    expect(throwAwayQueue).toBe(true);
    expect(await scanAll(`${w.keys.bullPrefix()}:${queueName}:*`)).not.toEqual([]);
    const removed = await w.cli(['delete', batchId]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await w.batchKeysLeft(batchId)).toEqual([]);
    expect(await scanAll(`${w.keys.bullPrefix()}:${queueName}:*`)).toEqual([]);
    expect(await scanAll(w.keys.accountHistoryPattern(queueName))).toEqual([]);
    expect(await redis.exists(w.keys.pacer(queueName))).toBe(0);
  });

  it('a bad duration is a usage error (exit 2) that says what is accepted', async () => {
    const result = await runCli(
      ['prune', '--older-than', '30 days'],
      cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: testKeyPrefix() }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--older-than takes a duration, a number and a unit ms, s, m, h or d (500ms, 30s, 5m, 12h, 30d), not "30 days"',
    );
  });
});
