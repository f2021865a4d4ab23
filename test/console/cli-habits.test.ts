import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { beneficiaryCsv } from '../ops/ops-helpers.js';

/** `--json` on run and status (one JSON document on stdout, nothing else), `--fail-on` exit codes. */
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;

const env = () =>
  cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    INQUIRY_RATE: '100/s',
    LOG_LEVEL: 'info',
  });

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-cli-habits-'));
});

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

async function fileWithMismatch(label: string, mismatch: boolean): Promise<string> {
  const csv = await beneficiaryCsv(label, 3);
  const [, bank, account] = csv.lines[0]!.split(',');
  const path = join(workDir, `${label}.csv`);
  await writeFile(path, mismatch ? `${csv.text}${label}-X,${bank},${account},"Somebody Else Entirely"\n` : csv.text);
  return path;
}

describe('--json', () => {
  it('run --json prints the summary as one JSON document on stdout; status --json lists the batch', async () => {
    const file = await fileWithMismatch('JSON', false);
    const run = await runCli(['run', file, '--out', join(workDir, 'json.out.csv'), '--json'], env());
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ rows: 3, accounts: 3, counts: { MATCH: 3 }, report: join(workDir, 'json.out.csv') });
    // Logs (LOG_LEVEL=info: the login line) and notices stay on stderr, as JSON lines when not on a terminal.
    expect(run.stderr).toContain('"msg":"logged in to the provider"');

    const all = await runCli(['status', '--json'], env());
    expect(all.code).toBe(0);
    const listed = JSON.parse(all.stdout) as { batches: Array<Record<string, unknown>> };
    expect(listed.batches[0]).toMatchObject({
      batchId: summary.batchId,
      state: 'reported',
      rows: 3,
      percent: 100,
      counts: { MATCH: 3, NO_MATCH: 0 },
    });

    const one = await runCli(['status', summary.batchId, '--json'], env());
    expect(JSON.parse(one.stdout)).toMatchObject({ batchId: summary.batchId, state: 'reported' });
  });
});

describe('--fail-on', () => {
  it('exits 3 when rows of a named kind exist, 0 when none do, 2 for an unknown result', async () => {
    const mismatched = await fileWithMismatch('FAILON', true);
    const flagged = await runCli(['run', mismatched, '--out', join(workDir, 'failon.out.csv'), '--fail-on', 'FAILED,NO_MATCH'], env());
    expect(flagged.code).toBe(3);
    expect(flagged.stderr).toContain('--fail-on: 1 NO_MATCH: exit 3');
    expect(flagged.stdout).toContain('report: ');

    const clean = await fileWithMismatch('CLEAN', false);
    const passed = await runCli(['run', clean, '--out', join(workDir, 'clean.out.csv'), '--fail-on', 'failed,no_match'], env());
    expect(passed.code).toBe(0);

    const bad = await runCli(['run', clean, '--fail-on', 'FAILED,MISMATCH'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fail-on takes result values');
  });
});
