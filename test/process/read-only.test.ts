import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';

/**
 * Commands that only read Redis (`status`, `export`, `schedule --list`, `schedule --remove`) need no
 * provider setting at all, in the sandbox or in production; the commands that call the provider still do.
 */
const redis = testRedis();
const prefix = testKeyPrefix();
let workDir: string;
let batchId: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-read-only-'));
  // A finished batch, checked by the built-in emulator.
  const result = await runCli(
    ['run', 'examples/beneficiaries.csv', '--out', join(workDir, 'first.csv')],
    cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix }),
  );
  expect(result.code).toBe(0);
  batchId = /batch (b\d{8}-\d{6}-[0-9a-f]{6})/.exec(result.stderr)![1]!;
});

afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe.each([
  ['the sandbox', {}],
  ['production without H2H_BASE_URL', { H2H_ENV: 'production' }],
] as const)('read-only commands with only Redis configured, in %s', (_, extra) => {
  const env = () => cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix, ...extra });

  it('status', async () => {
    const result = await runCli(['status'], env());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${batchId}  reported`);
    expect(result.stdout).toContain('24/24 accounts, 28 rows (3 invalid)');
  });

  it('export', async () => {
    const out = join(workDir, `export-${Object.keys(extra).length}.csv`);
    const result = await runCli(['export', batchId, '--out', out], env());
    expect(result.code).toBe(0);
    expect(await readReport(out)).toHaveLength(28);
  });

  it('schedule --list and --remove', async () => {
    const list = await runCli(['schedule', '--list'], env());
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('no schedule registered');
    const remove = await runCli(['schedule', '--remove'], env());
    expect(remove.code).toBe(0);
    expect(remove.stdout).toContain('no schedule nightly-validation to remove');
  });
});

describe('commands that call the provider', () => {
  it('still need production’s address', async () => {
    const result = await runCli(['worker'], cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix, H2H_ENV: 'production' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('production needs H2H_BASE_URL');
  });
});

describe('the binary', () => {
  it('--version prints the package version', async () => {
    const { version } = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag], cliEnvironment({}));
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });

  it('reads its settings from an env file with comments and export prefixes; the process environment wins', async () => {
    const envFile = join(workDir, 'settings.env');
    await writeFile(
      envFile,
      `# Redis for the read-only check\r\nexport REDIS_URL=${TEST_REDIS_URL}   # the shared one\r\nBC_KEY_PREFIX="${prefix}" # quoted\r\nLOG_LEVEL=nonsense\r\n`,
    );
    const result = await runCli(['status', batchId], { ...cliEnvironment({ LOG_LEVEL: 'warn' }), BC_ENV_FILE: envFile });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${batchId}  reported`);
  });
});
