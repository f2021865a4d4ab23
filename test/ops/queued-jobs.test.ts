import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchKeyNames } from '../../src/batch/batch-store.js';
import { redisKeys } from '../../src/redis/keys.js';
import { scanKeys } from '../../src/redis/scan.js';
import { cliEnvironment, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';

/**
 * Queued inquiry jobs are BullMQ hashes without an expiry: they hold no account number in clear (it is sealed
 * with a key kept in the batch record, which expires and goes with the batch), and `delete --force` and
 * `prune` remove a batch's jobs, also when the batch record is already gone.
 */
const redis = testRedis();
const prefixes: string[] = [];
let workDir: string;
const ACCOUNTS = ['5270123401', '5270123402', '5270123403'];
const CSV = `bank_code,account_number,name\n${ACCOUNTS.map((account) => `014,${account},Budi Santoso`).join('\n')}\n`;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-queued-jobs-'));
});

afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

function environment() {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  // Nothing answers at this address: `enqueue` only queues (no login), and nothing takes the jobs.
  const env = cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: 'http://127.0.0.1:9',
    H2H_USERNAME: 'u',
    H2H_PASSWORD: 'p',
  });
  return { prefix, env };
}

async function enqueue(env: NodeJS.ProcessEnv, name: string): Promise<string> {
  const file = join(workDir, name);
  await writeFile(file, CSV);
  const result = await runCli(['enqueue', file], env);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

/** The batch's job hashes (`…:{bull}:<queue>:<batchId>.<digest>`), with their contents. */
async function jobsOf(prefix: string, batchId: string): Promise<Array<Record<string, string>>> {
  const jobs: Array<Record<string, string>> = [];
  for await (const keys of scanKeys(redis, `${prefix}:{bull}:*:${batchId}.*`, 1000)) {
    for (const key of keys) if ((await redis.type(key)) === 'hash') jobs.push(await redis.hgetall(key));
  }
  return jobs;
}

describe('queued inquiry jobs', () => {
  it('hold no account number in clear', async () => {
    const { prefix, env } = environment();
    const batchId = await enqueue(env, 'sealed.csv');
    const jobs = await jobsOf(prefix, batchId);
    expect(jobs).toHaveLength(3);
    for (const job of jobs) {
      expect(JSON.parse(job.data!)).toEqual({ batchId, sealedAccount: expect.stringMatching(/^s1\./) });
      for (const account of ACCOUNTS) expect(JSON.stringify(job)).not.toContain(account);
    }
  });

  it('`delete --force` removes an unfinished batch with its queued jobs', async () => {
    const { prefix, env } = environment();
    const batchId = await enqueue(env, 'deleted.csv');
    expect(await jobsOf(prefix, batchId)).toHaveLength(3);
    const result = await runCli(['delete', batchId, '--force'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(await jobsOf(prefix, batchId)).toEqual([]);
  });

  it('`prune` and `delete` remove the jobs of a batch whose record is gone (expired, or lost by Redis)', async () => {
    const { prefix, env } = environment();
    const keys = redisKeys(prefix);
    const lost = await enqueue(env, 'lost.csv');
    // The batch goes as an expiry or a Redis restart without persistence takes it: its jobs stay.
    await redis.unlink(...batchKeyNames(keys, lost));
    const pruned = await runCli(['prune'], env);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`removed ${lost}  orphaned: 3 queued job(s) left without their batch record`);
    expect(await jobsOf(prefix, lost)).toEqual([]);

    const deleted = await enqueue(env, 'lost-then-deleted.csv');
    await redis.unlink(...batchKeyNames(keys, deleted));
    const result = await runCli(['delete', deleted], env);
    expect(result.code, result.stderr).toBe(0);
    expect(await jobsOf(prefix, deleted)).toEqual([]);
  });
});
