import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { BatchStore } from '../../src/batch/batch-store.js';
import { redisKeys } from '../../src/redis/keys.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { waitFor } from '../support/wait.js';

const redis = testRedis();
const PASSWORD = 'pw-7f3a9c-secret';
const accounts = syntheticAccounts(1200);
let sandbox: SandboxServer;
let workDir: string;
let workers: Array<ChildProcess & { output: () => { stderr: string } }> = [];
const prefixes: string[] = [];

function environment(extra: Record<string, string> = {}) {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  return {
    prefix,
    env: cliEnvironment({
      REDIS_URL: TEST_REDIS_URL,
      BC_KEY_PREFIX: prefix,
      H2H_BASE_URL: sandbox.url,
      H2H_USERNAME: 'sandbox',
      H2H_PASSWORD: PASSWORD,
      LOG_LEVEL: 'debug',
      ...extra,
    }),
  };
}

async function waitUntilAnswered(
  store: BatchStore,
  batchId: string,
  timeoutMs: number,
  onTick?: (answered: number) => void,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = await store.progress(batchId);
    onTick?.(progress.answered);
    if (progress.complete || Date.now() > deadline) return progress.answered;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ accounts, latencyMs: { min: 20, max: 80 }, password: PASSWORD });
  workDir = await mkdtemp(join(tmpdir(), 'bc-token-'));
  await writeBeneficiaryFile(join(workDir, 'accounts.csv'), accounts);
});

afterEach(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  await Promise.all(workers.map(waitForExit));
  workers = [];
});

afterAll(async () => {
  await sandbox.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('one token for every worker process', () => {
  it('4 processes x 16 slots, 3 s tokens, 30 s of work: few logins, hardly any 401, every row answered', async () => {
    sandbox.setKnobs({ tokenLifetimeSeconds: 3 });
    sandbox.resetStats();
    const { prefix, env } = environment({ INQUIRY_RATE: '40/s' });
    const enqueued = await runCli(['enqueue', join(workDir, 'accounts.csv')], env);
    const batchId = enqueued.stdout.trim();
    workers = Array.from({ length: 4 }, () => startCli(['worker', '--concurrency', '16'], env));
    const answered = await waitUntilAnswered(new BatchStore(redis, redisKeys(prefix), 24 * 3600_000), batchId, 60_000);
    sandbox.setKnobs({ tokenLifetimeSeconds: 3600 });
    const stats = sandbox.stats();
    const seconds = ((stats.lastInquiryAt ?? 0) - (stats.firstInquiryAt ?? 0)) / 1000;
    expect(answered).toBe(accounts.length);
    expect(seconds).toBeGreaterThan(25);
    expect(stats.logins).toBeLessThanOrEqual(Math.ceil(seconds / 3) + 2);
    expect(stats.unauthorized).toBeLessThanOrEqual(4);
    expect(stats.answeredInquiries).toBe(accounts.length);
    const stderr = workers.map((worker) => worker.output().stderr).join('\n');
    expect(stderr).toContain('logged in to the provider');
    expect(stderr).not.toMatch(/eyJ|pw-7f3a9c|Bearer/);
    for (const account of accounts.slice(0, 50)) expect(stderr).not.toContain(account.accountNumber);
  }, 90_000);

  it('a revocation of every token mid-run costs one login, not one per worker slot', async () => {
    const { prefix, env } = environment({ INQUIRY_RATE: '100/s' });
    const subset = syntheticAccounts(600);
    const file = join(workDir, 'revoke.csv');
    await writeBeneficiaryFile(file, subset);
    sandbox.resetStats();
    const batchId = (await runCli(['enqueue', file], env)).stdout.trim();
    workers = Array.from({ length: 4 }, () => startCli(['worker', '--concurrency', '16'], env));
    const store = new BatchStore(redis, redisKeys(prefix), 24 * 3600_000);
    let revoked = false;
    let loginsBefore = 0;
    const answered = await waitUntilAnswered(store, batchId, 60_000, (count) => {
      if (!revoked && count >= 200) {
        loginsBefore = sandbox.stats().logins;
        sandbox.revokeAllTokens();
        revoked = true;
      }
    });
    expect(revoked).toBe(true);
    expect(loginsBefore).toBe(1);
    expect(answered).toBe(subset.length);
    expect(sandbox.stats().logins).toBe(2);
    expect(sandbox.stats().unauthorized).toBeGreaterThan(0);
  }, 90_000);

  it('holds rows while login is unavailable, logs it, and answers them all once it is back', async () => {
    const { prefix, env } = environment({ INQUIRY_RATE: '100/s' });
    const subset = syntheticAccounts(40);
    const file = join(workDir, 'login-down.csv');
    await writeBeneficiaryFile(file, subset);
    sandbox.resetStats();
    sandbox.setKnobs({ loginFailure: 'unavailable' });
    const batchId = (await runCli(['enqueue', file], env)).stdout.trim();
    workers = [startCli(['worker', '--concurrency', '8'], env)];
    // The worker has met the trouble and kept trying (a login per retry, held in between) without answering.
    await waitFor(
      () => workers[0]!.output().stderr.includes('login failed: provider answered HTTP 503') && sandbox.stats().failedLogins >= 3,
      20_000,
      'the worker to hold through failed logins',
    );
    const store = new BatchStore(redis, redisKeys(prefix), 24 * 3600_000);
    expect((await store.progress(batchId)).answered).toBe(0);
    expect(sandbox.stats().inquiries).toBe(0);
    sandbox.setKnobs({ loginFailure: null });
    expect(await waitUntilAnswered(store, batchId, 60_000)).toBe(subset.length);
    const stderr = workers[0]!.output().stderr;
    expect(stderr).toContain('login failed: provider answered HTTP 503');
    const out = join(workDir, 'login-down.out.csv');
    expect((await runCli(['export', batchId, '--out', out], env)).code).toBe(0);
    expect((await readReport(out)).map((row) => row.result)).toEqual(subset.map(() => 'MATCH'));
  }, 90_000);
});
