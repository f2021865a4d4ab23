import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { waitFor } from '../support/wait.js';

const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;

const env = (keyPrefix = prefix) =>
  cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: keyPrefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    INQUIRY_RATE: '100/s',
  });

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-workers-'));
});

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('enqueue, separate worker processes, status and export', () => {
  it('processes a queued batch in worker processes and exports it', async () => {
    const enqueued = await runCli(['enqueue', 'examples/beneficiaries.csv'], env());
    expect(enqueued.code).toBe(0);
    const batchId = enqueued.stdout.trim();
    expect(batchId).toMatch(/^b\d{8}-\d{6}-[0-9a-f]{6}$/);

    const notFinished = await runCli(['export', batchId, '--out', join(workDir, 'early.csv')], env());
    expect(notFinished.code).toBe(1);
    expect(notFinished.stderr).toContain('is not finished');

    const workers = [startCli(['worker', '--concurrency', '4'], env()), startCli(['worker', '--concurrency', '4'], env())];
    try {
      await waitFor(
        async () => (await runCli(['status', batchId], env())).stdout.includes('24/24 accounts'),
        30_000,
        'every account answered',
        200,
      );
      const status = await runCli(['status'], env());
      expect(status.stdout).toContain(batchId);
      expect(status.stdout).toContain('24/24 accounts, 28 rows (3 invalid)');
    } finally {
      for (const worker of workers) worker.kill('SIGTERM');
      expect(await Promise.all(workers.map(waitForExit))).toEqual([0, 0]);
    }
    const out = join(workDir, 'exported.csv');
    const exported = await runCli(['export', batchId, '--out', out], env());
    expect(exported.code).toBe(0);
    const rows = await readReport(out);
    expect(rows).toHaveLength(28);
    expect(rows.filter((row) => row.result === 'INPUT_INVALID')).toHaveLength(3);
    expect(JSON.parse(await readFile(join(workDir, 'exported.summary.json'), 'utf8')).batchId).toBe(batchId);
  });

  it('refuses a worker without a provider address, saying how to get one', async () => {
    const result = await runCli(['worker'], cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('beneficiary-check sandbox --port 8080');
  });

  it('runs the same unfinished file again as a continuation, not a new batch', async () => {
    const file = join(workDir, 'again.csv');
    await writeFile(file, 'bank_code,account_number,name\n014,0012345678,Budi Santoso\n');
    const first = await runCli(['enqueue', file], env());
    const second = await runCli(['enqueue', file], env());
    expect(second.stdout.trim()).toBe(first.stdout.trim());
    expect(second.stderr).toContain('continuing unfinished batch');
  });
});

describe('resume', () => {
  it('finishes a batch nobody is working on, asking only what has no answer, and writes its report', async () => {
    // A prefix of its own: no job of another test's batch may be in this queue.
    const ownPrefix = testKeyPrefix();
    const ownEnv = env(ownPrefix);
    const file = join(workDir, 'resume.csv');
    await writeFile(file, 'bank_code,account_number,name\n014,0012345678,Budi Santoso\n009,1122334455,Dewi Lestari\n014,0012345678,Budi\n');
    const batchId = (await runCli(['enqueue', file], ownEnv)).stdout.trim();
    sandbox.resetStats();
    const out = join(workDir, 'resume.out.csv');
    const resumed = await runCli(['resume', batchId, '--out', out], ownEnv);
    expect(resumed.code).toBe(0);
    expect(sandbox.stats().answeredInquiries).toBe(2);
    // "Budi" against BUDI SANTOSO: a one-word name gaining a word is for a person to look at (issue 26).
    expect((await readReport(out)).map((row) => row.result)).toEqual(['MATCH', 'MATCH', 'CLOSE_MATCH']);

    sandbox.resetStats();
    const again = await runCli(['resume', batchId, '--out', out], ownEnv);
    expect(again.code).toBe(0);
    expect(sandbox.stats().inquiries).toBe(0);
    await deleteKeys(redis, ownPrefix);
  });

  it('says which batch does not exist', async () => {
    const result = await runCli(['resume', 'b19990101-000000-000000'], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no batch with id "b19990101-000000-000000"');
  });
});
