import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchStore, type StoredRow } from '../../src/batch/batch-store.js';
import { BatchNotFoundError } from '../../src/errors.js';
import { AccountHistory } from '../../src/history/account-history.js';
import { redisKeys } from '../../src/redis/keys.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { scanKeys } from '../../src/redis/scan.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

/**
 * Personal data in Redis is working state: nothing of a batch (account numbers, holder names) is ever
 * written without an expiry, nothing is written once the batch's record is gone, and what an older version
 * left without its record (orphans) is found and removed by `prune` and `delete`.
 */
const HOUR_MS = 3600_000;
const redis = testRedis();
const prefixes: string[] = [];
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-batch-expiry-'));
});

afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

function world(client: Redis = redis) {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  const keys = redisKeys(prefix);
  return { prefix, keys, store: new BatchStore(client, keys, HOUR_MS) };
}

/** Every key under the pattern with its expiry (ms; -1: none). */
async function expiries(client: Redis, pattern: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for await (const keys of scanKeys(client, pattern, 1000)) for (const key of keys) found.set(key, await client.pttl(key));
  return found;
}

const row = (index: number): StoredRow => ({
  fields: [`R${index}`, '014', `52701234${String(index).padStart(2, '0')}`, `NAME ${index}`],
  accountKey: `014:52701234${String(index).padStart(2, '0')}`,
  invalidReason: null,
});
const verified = {
  verdict: 'VERIFIED',
  reason: '',
  holderName: 'ANDI WIJAYA KUSUMA',
  bankName: 'BCA',
  fee: '0',
  inquiryStatus: 'SUCCESS',
  inquiryId: '1',
  checkedAt: '2026-11-23T01:36:10Z',
} as const;

async function producedBatch(w: ReturnType<typeof world>, batchId: string): Promise<void> {
  await w.store.create({
    batchId,
    sourceFile: '/in/payroll.csv',
    sourceName: 'payroll.csv',
    contentHash: batchId,
    queueName: 'q',
    endpoint: { environment: 'sandbox', address: 'http://q.test' },
    layout: { delimiter: ',' },
    header: ['id', 'bank', 'account', 'name'],
    mapping: { bankCode: 1, accountNumber: 2, expectedName: 3 },
    replacedColumns: [],
    rowCount: 3,
    createdAt: Date.now(),
  });
  const generation = await w.store.startGeneration(batchId);
  await w.store.appendRows(batchId, generation, [row(1), row(2), row(3)]);
  await w.store.markProduced(batchId, generation, 0);
}

describe('nothing of a batch without an expiry', () => {
  it('an unfinished batch: every key expires within the retention from its last write (record, rows, accounts, outcomes)', async () => {
    const w = world();
    await producedBatch(w, 'b-unfinished');
    await w.store.writeAnswer('b-unfinished', '014:5270123401', verified);
    const history = new AccountHistory(redis, w.keys, 30 * 24 * HOUR_MS, () => Date.now());
    await w.store.writeAnswerWithHistory(
      'b-unfinished',
      '014:5270123402',
      verified,
      history.writeOf('q', '014:5270123402', { outcome: verified, batchId: 'b-unfinished', answeredAt: Date.now() }),
    );
    await w.store.countCalls('b-unfinished', 'calls', 2);
    const found = await expiries(redis, `${w.prefix}:batch:*`);
    expect([...found.keys()].sort()).toEqual(
      [w.keys.batch('b-unfinished'), w.keys.accounts('b-unfinished'), w.keys.outcomes('b-unfinished'), w.keys.rows('b-unfinished')].sort(),
    );
    for (const [key, ttl] of found) {
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(HOUR_MS);
    }
    // FAILED rows asked again: unfinished once more, still expiring (it was made to live for ever before).
    // The answer of a call on its way when the run gave up comes after its FAILED: kept late, expiring too.
    await w.store.writeAnswer('b-unfinished', '014:5270123403', { verdict: 'FAILED', reason: 'no answer' });
    await w.store.writeAnswer('b-unfinished', '014:5270123404', { verdict: 'FAILED', reason: 'no answer' });
    expect(await w.store.writeAnswer('b-unfinished', '014:5270123404', verified)).toBe(true);
    const late = (await expiries(redis, `${w.prefix}:batch:*`)).get(w.keys.lateAnswers('b-unfinished'));
    expect(late).toBeGreaterThan(0);
    expect(late).toBeLessThanOrEqual(HOUR_MS);
    await w.store.markReported('b-unfinished', '/out/payroll.reconciled.csv', { VERIFIED: 2, FAILED: 2 });
    expect(await w.store.forgetFailedOutcomes('b-unfinished')).toEqual({ forgotten: 1, lateAnswers: 1 });
    for (const [key, ttl] of await expiries(redis, `${w.prefix}:batch:*`)) expect(ttl, key).toBeGreaterThan(0);
  });

  it('a batch whose record is gone (Redis lost it): a late answer, count, row or report writes nothing', async () => {
    const w = world();
    await producedBatch(w, 'b-lost');
    const generation = Number(await redis.hget(w.keys.batch('b-lost'), 'generation'));
    // What a restart without persistence does to the batch: every key of it gone.
    await redis.unlink(w.keys.batch('b-lost'), w.keys.rows('b-lost'), w.keys.accounts('b-lost'), w.keys.outcomes('b-lost'));
    const history = new AccountHistory(redis, w.keys, 30 * 24 * HOUR_MS, () => Date.now());
    await expect(w.store.writeAnswer('b-lost', '014:5270123401', verified)).rejects.toThrow(BatchNotFoundError);
    await expect(
      w.store.writeAnswerWithHistory(
        'b-lost',
        '014:5270123402',
        verified,
        history.writeOf('q', '014:5270123402', { outcome: verified, batchId: 'b-lost', answeredAt: Date.now() }),
      ),
    ).rejects.toThrow(BatchNotFoundError);
    await w.store.countCalls('b-lost', 'calls', 3);
    await expect(w.store.appendRows('b-lost', generation, [row(4)])).rejects.toThrow(BatchNotFoundError);
    await expect(w.store.startGeneration('b-lost')).rejects.toThrow(BatchNotFoundError);
    await expect(w.store.markProduced('b-lost', generation, 0)).rejects.toThrow(BatchNotFoundError);
    await expect(w.store.markReported('b-lost', '/out/x.csv', {})).rejects.toThrow(BatchNotFoundError);
    await expect(w.store.nextRound('b-lost')).rejects.toThrow(BatchNotFoundError);
    await expect(w.store.markGivenUp('b-lost', 0, ['014:5270123401'], { verdict: 'FAILED', reason: 'x' })).rejects.toThrow(
      BatchNotFoundError,
    );
    expect([...(await expiries(redis, `${w.prefix}:batch:*`)).keys()]).toEqual([]);
  });
});

describe('Redis restarted without persistence while a worker answers', () => {
  let own: OwnRedis | undefined;
  let sandbox: SandboxServer | undefined;

  afterAll(async () => {
    await own?.remove();
    await sandbox?.close();
  });

  it('the answers in flight are dropped, saying so: no key of the batch comes back, with or without an expiry', async () => {
    own = await startOwnRedis();
    const accounts = syntheticAccounts(60);
    // Slow answers: many are in flight when Redis comes back empty.
    sandbox = await startSandbox({ accounts, latencyMs: { min: 1500, max: 1500 } });
    const prefix = testKeyPrefix();
    const env = cliEnvironment({
      REDIS_URL: own.url,
      BC_KEY_PREFIX: prefix,
      H2H_BASE_URL: sandbox.url,
      H2H_USERNAME: 'sandbox',
      H2H_PASSWORD: 'sandbox',
      INQUIRY_RATE: '20/s',
      LOG_FORMAT: 'json',
    });
    const file = join(workDir, 'restart.csv');
    await writeBeneficiaryFile(file, accounts);
    const worker = startCli(['worker'], env);
    try {
      const enqueued = await runCli(['enqueue', file], env);
      expect(enqueued.code, enqueued.stderr).toBe(0);
      const batchId = enqueued.stdout.trim();
      const keys = redisKeys(prefix);
      await waitFor(async () => (await own!.client.hlen(keys.outcomes(batchId))) >= 2, 30_000, 'the first answers stored');
      await own.stop();
      await own.start();
      // A late answer either finds the batch gone and says so, or (the defect) writes the batch's keys again.
      await waitFor(
        async () =>
          worker.output().stderr.includes(`batch ${batchId} is gone from Redis`) ||
          (await own!.client.exists(keys.outcomes(batchId), keys.batch(batchId))) > 0,
        30_000,
        'a late answer to meet the emptied Redis',
      );
      await waitFor(() => sandbox!.stats().answeredInquiries === sandbox!.stats().inquiries, 30_000, 'every inquiry in flight answered');
      expect([...(await expiries(own.client, `${prefix}:batch:*`)).entries()]).toEqual([]);
      // Nor any other key naming the batch (a job of it) without an expiry.
      expect(
        [...(await expiries(own.client, `${prefix}:*`)).entries()].filter(([key, ttl]) => ttl === -1 && key.includes(batchId)),
      ).toEqual([]);
    } finally {
      worker.kill('SIGTERM');
      await waitForExit(worker);
    }
  });
});

describe('orphans: keys of a batch whose record is gone', () => {
  const cli = (prefix: string, args: string[]) => runCli(args, cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix }));

  /** What a version before the fix left after Redis lost a batch: a late answer and a late count, without expiry or record. */
  async function orphan(w: ReturnType<typeof world>, batchId: string): Promise<void> {
    await redis.hset(w.keys.outcomes(batchId), '014:5270123456', JSON.stringify(['VERIFIED', '', 'BUDI SANTOSO']));
    await redis.hincrby(w.keys.batch(batchId), 'calls', 1);
  }

  it('prune removes them whatever their age, says so, and leaves unfinished and young batches alone', async () => {
    const w = world();
    await producedBatch(w, 'b-alive');
    await orphan(w, 'b-orphan');
    const pruned = await cli(w.prefix, ['prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('removed b-orphan  orphaned: 2 key(s) left without their batch record');
    expect(pruned.stdout).toContain('1 orphaned batch(es) removed');
    expect(pruned.stdout).not.toContain('b-alive');
    expect([...(await expiries(redis, `${w.prefix}:batch:{b-orphan}*`)).keys()]).toEqual([]);
    expect((await w.store.get('b-alive')).rowCount).toBe(3);
  });

  it("delete <id> removes one batch's orphaned keys; an id with nothing at all is still unknown (exit 2)", async () => {
    const w = world();
    await orphan(w, 'b-orphan');
    const deleted = await cli(w.prefix, ['delete', 'b-orphan']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('removed b-orphan  orphaned: 2 key(s)');
    expect([...(await expiries(redis, `${w.prefix}:batch:*`)).keys()]).toEqual([]);
    expect((await cli(w.prefix, ['delete', 'b-orphan'])).code).toBe(2);
  });
});
