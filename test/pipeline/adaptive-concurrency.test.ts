import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { cliEnvironment, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';

const ROWS = 300;
const redis = testRedis();
const prefixes: string[] = [];
let sandbox: SandboxServer;
let workDir: string;
let input: string;

beforeAll(async () => {
  const accounts = syntheticAccounts(ROWS);
  // A slow provider: at 100/s, 16 calls in flight (the old fixed default) could only reach 80/s.
  sandbox = await startSandbox({ accounts, latencyMs: { min: 200, max: 200 } });
  workDir = await mkdtemp(join(tmpdir(), 'bc-adaptive-'));
  input = join(workDir, 'beneficiaries.csv');
  await writeBeneficiaryFile(input, accounts);
});

afterAll(async () => {
  await sandbox.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

async function run(name: string, flags: string[]) {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  const out = join(workDir, `${name}.csv`);
  const env = cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
  });
  const result = await runCli(['run', input, '--out', out, '--rate', '100/s', ...flags], env);
  const summary = JSON.parse(await readFile(join(workDir, `${name}.summary.json`), 'utf8')) as { rows: number; workerConcurrency: number };
  return { result, rows: await readReport(out), summary };
}

describe('concurrency adapted to the provider latency', () => {
  it('goes above the default 16 when the rate needs more calls in flight, and answers every row', async () => {
    const { result, rows, summary } = await run('adaptive', []);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('16 to 256 concurrent inquiries');
    expect(rows).toHaveLength(ROWS);
    expect(new Set(rows.map((row) => row.beneficiary_id)).size).toBe(ROWS);
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
    expect(summary.workerConcurrency).toBeGreaterThan(16);
  });

  it('never goes above --concurrency', async () => {
    const { result, rows, summary } = await run('capped', ['--concurrency', '8']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('8 concurrent inquiries');
    expect(rows).toHaveLength(ROWS);
    expect(summary.workerConcurrency).toBe(8);
  });
});
