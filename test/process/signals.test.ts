import { access, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { waitFor } from '../ops/ops-helpers.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { answeredAccounts, temporaryFiles } from './process-helpers.js';

/**
 * `run` stopped by a signal: the shell's code for it (never 0), no report, no half-written file, a line
 * that says how to continue; the same command then asks only what had no answer. The long-running
 * commands stop gracefully on SIGHUP as on SIGTERM (exit 0: a supervisor asked them to stop).
 */
const redis = testRedis();
const accounts = syntheticAccounts(24);
const prefixes: string[] = [];
let sandbox: SandboxServer;
let workDir: string;

function environment(extra: Record<string, string> = {}): { prefix: string; env: NodeJS.ProcessEnv } {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  const env = cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    ...extra,
  });
  return { prefix, env };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  sandbox = await startSandbox({ accounts, latencyMs: { min: 30, max: 30 } });
  workDir = await mkdtemp(join(tmpdir(), 'bc-signals-'));
});

afterAll(async () => {
  await sandbox.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('run stopped by a signal', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    '%s after some answers: exit %i, no report, no temporary file; the same command then asks only the rest',
    async (signal, code) => {
      const { prefix, env } = environment();
      const file = join(workDir, `${signal}.csv`);
      await writeBeneficiaryFile(file, accounts);
      const out = join(workDir, `${signal}.out.csv`);
      const run = startCli(['run', file, '--out', out, '--rate', '8/s', '--concurrency', '2'], env);
      await waitFor(async () => (await answeredAccounts(redis, prefix)).length >= 4, 30_000, 'four answers stored');
      run.kill(signal);
      expect(await waitForExit(run)).toBe(code);
      const { stderr } = run.output();
      expect(stderr).toContain(`${signal}: stopping`);
      expect(stderr).toContain('run the same command again to continue where it stopped');
      expect(await exists(out)).toBe(false);
      expect(await temporaryFiles(workDir)).toEqual([]);

      // Answers stored before the stop (active inquiries were finished and stored) are not asked again.
      const answeredBefore = await answeredAccounts(redis, prefix);
      expect(answeredBefore.length).toBeLessThan(accounts.length);
      sandbox.resetStats();
      const again = await runCli(['run', file, '--out', out], env);
      expect(again.code).toBe(0);
      expect(again.stderr).toContain('continuing unfinished batch');
      const askedAgain = Object.keys(sandbox.stats().inquiriesByAccount);
      expect(askedAgain.filter((account) => answeredBefore.includes(account))).toEqual([]);
      expect(askedAgain.length).toBe(accounts.length - answeredBefore.length);
      expect(Object.values(sandbox.stats().inquiriesByAccount).every((count) => count === 1)).toBe(true);
      const rows = await readReport(out);
      expect(rows.map((row) => row.beneficiary_id)).toEqual(accounts.map((_, index) => `B${index}`));
      expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
    },
  );
});

describe('long-running commands on SIGHUP', () => {
  it('worker, watch and schedule stop gracefully, exit 0, as on SIGTERM', async () => {
    const source = join(workDir, 'nightly.csv');
    await writeFile(source, 'bank_code,account_number,name\n');
    const watched = await mkdtemp(join(workDir, 'watched-'));
    const services = [
      startCli(['worker'], environment({ LOG_LEVEL: 'info' }).env),
      startCli(['watch', watched], environment({ LOG_LEVEL: 'info' }).env),
      startCli(['schedule'], environment({ LOG_LEVEL: 'info', SCHEDULE_SOURCE: source, SCHEDULE_OUTBOX: join(workDir, 'outbox') }).env),
    ];
    try {
      // Each says it has started (LOG_LEVEL info) before it is stopped.
      for (const service of services)
        await waitFor(
          () => /worker started|watching .*inbox|nightly run scheduled/.test(service.output().stderr),
          30_000,
          'the service to start',
        );
      for (const service of services) service.kill('SIGHUP');
      expect(await Promise.all(services.map(waitForExit))).toEqual([0, 0, 0]);
      for (const service of services) expect(service.output().stderr).toContain('SIGHUP: finishing active work, then exiting');
    } finally {
      for (const service of services) if (service.exitCode === null) service.kill('SIGKILL');
    }
  });
});
