import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { emulatorEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

/**
 * The configured rate is one ceiling for every worker of a queue: a process started with another rate while
 * workers at the first one are alive is refused (exit 2, naming the rate in force), instead of pacing at its
 * own rate beside them (a 5/s worker and a 100/s one made bursts at 100/s). The same rate joins.
 */
const redis = testRedis();
const prefix = testKeyPrefix();
let sandbox: SandboxServer;
let workDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ accounts: syntheticAccounts(4) });
  workDir = await mkdtemp(join(tmpdir(), 'bc-ceiling-'));
});

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('one rate ceiling per queue', () => {
  it('refuses a second process with another --rate while the first runs; the same rate joins; the rate is free once every worker stopped', async () => {
    const env = (extra: Record<string, string> = {}) => emulatorEnvironment(prefix, sandbox.url, { RUN_WORKER_PROCESSES: '0', ...extra });
    const first = startCli(['worker', '--rate', '5/s'], env({ LOG_LEVEL: 'info' }));
    try {
      await waitFor(() => first.output().stderr.includes('worker started'), 30_000, 'the first worker');

      const other = await runCli(['worker', '--rate', '100/s'], env());
      expect(other.code).toBe(2);
      expect(other.stderr).toContain('the workers of this queue run at 5/s');
      expect(other.stderr).toContain('--rate 100/s');

      const file = join(workDir, 'ceiling.csv');
      await writeBeneficiaryFile(file, syntheticAccounts(4));
      const faster = await runCli(['run', file, '--out', join(workDir, 'faster.csv'), '--rate', '100/s'], env());
      expect(faster.code).toBe(2);
      expect(faster.stderr).toContain('the workers of this queue run at 5/s');

      const same = await runCli(['run', file, '--out', join(workDir, 'same.csv'), '--rate', '5/s'], env());
      expect(same.code).toBe(0);
    } finally {
      first.kill('SIGTERM');
      expect(await waitForExit(first)).toBe(0);
    }
    // Stopped cleanly: its rate is withdrawn at once, and another rate may start.
    const file = join(workDir, 'after.csv');
    await writeBeneficiaryFile(file, syntheticAccounts(4));
    expect((await runCli(['run', file, '--out', join(workDir, 'after.out.csv'), '--rate', '100/s'], env())).code).toBe(0);
  });
});
