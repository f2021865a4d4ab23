import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/redis/keys.js';
import { syntheticAccounts } from '../../src/sandbox/synthetic-accounts.js';
import { runCli, startCli, waitForExit } from '../support/cli.js';
import { waitFor } from '../support/wait.js';
import { batchCount, batchState, lifecycleSuite, payoutFile, reportRows, storedVerdicts } from './lifecycle-helpers.js';

/**
 * `run` of a file large enough, sent unpaced, for its jobs to ask several accounts each (accountsPerJob):
 * 9,000 accounts, two a job. Every row once in the report, every account asked once; and after `kill -9`
 * while answers come in, the same command again asks only what had no answer (the killed process's jobs
 * come back once their lock expires, 30-60 s).
 */
const ACCOUNTS = syntheticAccounts(9_000);
const CONCURRENCY = 8;

const suite = lifecycleSuite('account-groups', { accounts: ACCOUNTS, latencyMs: { min: 0, max: 3 } });
const UNPACED = { INQUIRY_RATE: '1000000/s', INQUIRY_CONCURRENCY: String(CONCURRENCY) };

describe('run with several accounts per job', () => {
  it('asks every account once and reports every row once, in order', async () => {
    const { redis, sandbox, folder } = suite;
    const { prefix, env } = suite.environment(UNPACED);
    const file = join(folder, 'groups.csv');
    const out = join(folder, 'groups.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, 1, 'G');
    sandbox.resetStats();
    const result = await runCli(['run', file, '--out', out], env, 120_000);
    expect(result.code, result.stderr).toBe(0);
    const report = await reportRows(out);
    expect(report.ids).toEqual(ids);
    expect([...report.results]).toEqual(['MATCH']);
    const asked = sandbox.stats().inquiriesByAccount;
    expect(Object.keys(asked)).toHaveLength(ACCOUNTS.length);
    expect(Object.values(asked).every((count) => count === 1)).toBe(true);
    const { batchId } = await batchState(redis, prefix, sandbox);
    expect(await redis.hget(redisKeys(prefix).batch(batchId!), 'accountsPerJob')).toBe('2');
  });

  it('after kill -9 while answers come in, the same command asks only what had no answer', { timeout: 150_000 }, async () => {
    const { redis, sandbox, folder } = suite;
    const { prefix, env } = suite.environment(UNPACED);
    const file = join(folder, 'killed.csv');
    const out = join(folder, 'killed.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, 1, 'K');
    sandbox.resetStats();
    const first = startCli(['run', file, '--out', out], env);
    const { batchId } = await waitFor(
      async () => {
        const state = await batchState(redis, prefix, sandbox);
        return state.answered >= 1_000 && state;
      },
      60_000,
      'some answers stored',
      5,
    );
    first.kill('SIGKILL');
    await waitForExit(first);
    const answeredAtKill = new Set((await storedVerdicts(redis, prefix, batchId!)).keys());
    expect(answeredAtKill.size).toBeLessThan(ACCOUNTS.length);

    const rerun = await runCli(['run', file, '--out', out], env, 140_000);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`continuing unfinished batch ${batchId}`);
    const report = await reportRows(out);
    expect(report.ids).toEqual(ids);
    expect([...report.results]).toEqual(['MATCH']);
    expect(await batchCount(redis, prefix)).toBe(1);

    const asked = sandbox.stats().inquiriesByAccount;
    expect(Object.keys(asked)).toHaveLength(ACCOUNTS.length);
    const askedTwice = Object.entries(asked).filter(([, count]) => count > 1);
    // Answered before the kill: never asked again. Asked twice: only calls in flight at the kill, one per job held.
    for (const [account] of askedTwice) expect(answeredAtKill.has(account)).toBe(false);
    expect(askedTwice.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(Math.max(...Object.values(asked))).toBeLessThanOrEqual(2);
  });
});
