import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { startMisbehavingProvider, type MisbehavingProvider } from '../support/misbehaving-provider.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { waitFor } from '../support/wait.js';
import { answeredAccounts } from './process-helpers.js';

/**
 * The wall clock of a real `run` process is stepped (a preload offsets Date; the monotonic clock, like a real
 * step's CLOCK_MONOTONIC, goes on): waits and outages are measured on the monotonic clock, so a step is no
 * outage; and a token whose `exp` disagrees with this machine's clock is read from the provider's own
 * `iat`, blaming the local clock when it is the local clock.
 */
const OFFSET_CLOCK = fileURLToPath(new URL('../support/offset-clock.mjs', import.meta.url));
const redis = testRedis();
const accounts = syntheticAccounts(30);
const prefixes: string[] = [];
let sandbox: SandboxServer;
let provider: MisbehavingProvider;
let workDir: string;

function environment(base: string, extra: Record<string, string>): { prefix: string; env: NodeJS.ProcessEnv } {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  const env = cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: base,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    RUN_WORKER_PROCESSES: '0',
    NODE_OPTIONS: `--import ${OFFSET_CLOCK}`,
    ...extra,
  });
  return { prefix, env };
}

beforeAll(async () => {
  sandbox = await startSandbox({ accounts });
  provider = await startMisbehavingProvider();
  workDir = await mkdtemp(join(tmpdir(), 'bc-clock-'));
});

afterAll(async () => {
  await sandbox.close();
  await provider.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('a forward step of the wall clock during run', () => {
  it.each([
    ['45 s', 45_000],
    ['2 h', 7_200_000],
  ])('+%s: no outage is seen, every row is answered once, exit 0', async (name, stepMs) => {
    const { prefix, env } = environment(sandbox.url, { BC_TEST_CLOCK_STEP_MS: String(stepMs) });
    const file = join(workDir, `step-${stepMs}.csv`);
    const out = join(workDir, `step-${stepMs}.out.csv`);
    await writeBeneficiaryFile(file, accounts);
    sandbox.resetStats();
    // 30 accounts at 6/s: the run lasts about 5 s, and the step comes in the middle of it.
    const run = startCli(['run', file, '--out', out, '--rate', '6/s'], env);
    await waitFor(async () => (await answeredAccounts(redis, prefix)).length >= 5, 30_000, 'five answers');
    run.kill('SIGUSR2');
    await waitFor(() => run.output().stderr.includes(`clock stepped by ${stepMs} ms`), 10_000, `the ${name} step`);
    const code = await waitForExit(run);
    const { stderr } = run.output();
    expect(stderr).not.toContain('did not answer');
    expect(stderr).not.toContain('no answer from the provider');
    expect(code).toBe(0);
    const rows = await readReport(out);
    expect(rows.map((row) => row.beneficiary_id)).toEqual(accounts.map((_, index) => `B${index}`));
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
    expect(Object.values(sandbox.stats().inquiriesByAccount)).toEqual(new Array(accounts.length).fill(1));
  });
});

describe('a wall clock 2 h ahead of the provider at start', () => {
  it('uses the token for the lifetime the provider gave, warns that this machine clock is off, exit 0', async () => {
    const { env } = environment(provider.url, { BC_TEST_CLOCK_OFFSET_MS: String(2 * 3600_000), LOG_LEVEL: 'warn' });
    const file = join(workDir, 'ahead.csv');
    const out = join(workDir, 'ahead.out.csv');
    await writeFile(file, 'bank_code,account_number,name\n014,0012345678,Budi Santoso\n014,0012345679,Budi Santoso\n');
    const result = await runCli(['run', file, '--out', out], env);
    expect(result.stderr).not.toContain('already expired');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/this machine's clock is about 2 h ahead of the provider's/);
    expect((await readReport(out)).map((row) => row.result)).toEqual(['MATCH', 'MATCH']);
    expect(provider.counts.logins).toBe(1);
  });
});
