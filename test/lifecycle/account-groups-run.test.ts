import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/redis/keys.js';
import { syntheticAccounts } from '../../src/sandbox/synthetic-accounts.js';
import { runCli } from '../support/cli.js';
import { batchState, killWhileAnsweringThenRerun, lifecycleSuite, payoutFile, reportRows } from './lifecycle-helpers.js';

/**
 * `run` of a file large enough for its jobs to ask several accounts each (accountsPerJob): 9,000 accounts,
 * sixteen a job, sent unpaced. Every row once in the report, every account asked once; and after `kill -9`
 * while answers come in, the same command again asks only what had no answer (the killed process's jobs
 * come back once their lock expires, 30-60 s). Then 4,096 accounts paced against a provider that allows
 * exactly the rate: no 429.
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
    expect(await redis.hget(redisKeys(prefix).batch(batchId!), 'accountsPerJob')).toBe('16');
  });

  it('after kill -9 while answers come in, the same command asks only what had no answer', { timeout: 150_000 }, async () => {
    const { sandbox, folder } = suite;
    const { prefix, env } = suite.environment(UNPACED);
    const file = join(folder, 'killed.csv');
    const out = join(folder, 'killed.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, 1, 'K');
    sandbox.resetStats();
    // One call in flight per call permit of the process (the concurrency), whatever the jobs it holds.
    await killWhileAnsweringThenRerun({
      suite,
      prefix,
      env,
      file,
      out,
      ids,
      accounts: ACCOUNTS.length,
      inFlight: CONCURRENCY,
      killWhen: (state) => state.answered >= 1_000,
      rerunTimeoutMs: 140_000,
    });
  });
});

const PACED_ACCOUNTS = syntheticAccounts(4_096);
const RATE = 400;
const paced = lifecycleSuite('account-groups-paced', {
  accounts: PACED_ACCOUNTS,
  latencyMs: { min: 20, max: 80 },
  rateLimit: { max: RATE, windowMs: 1_000 },
});

describe('a paced run with several accounts per job', () => {
  // Retried, as resilience.test.ts's "no 429 at all" is: the emulator stamps calls in this test's process,
  // which on a machine loaded by the other test files can stamp two calls a window apart closer than they
  // left, by more than the window guard's 15 ms margin. A pacer that overran the limit would meet a 429 on
  // every try.
  it('asks every account once, side by side within a job, never past the rate: no 429', { retry: 2 }, async () => {
    const { redis, sandbox, folder } = paced;
    const { prefix, env } = paced.environment({ INQUIRY_RATE: `${RATE}/s` });
    const file = join(folder, 'paced.csv');
    const out = join(folder, 'paced.reconciled.csv');
    const ids = await payoutFile(file, PACED_ACCOUNTS, 1, 'P');
    sandbox.resetStats();
    const result = await runCli(['run', file, '--out', out], env, 120_000);
    expect(result.code, result.stderr).toBe(0);
    expect((await reportRows(out)).ids).toEqual(ids);
    const stats = sandbox.stats();
    expect(stats.rateLimited).toBe(0);
    expect(stats.maxInquiriesInAnyWindow).toBeLessThanOrEqual(RATE);
    expect(Object.values(stats.inquiriesByAccount).every((count) => count === 1)).toBe(true);
    expect(Object.keys(stats.inquiriesByAccount)).toHaveLength(PACED_ACCOUNTS.length);
    const { batchId } = await batchState(redis, prefix, sandbox);
    expect(await redis.hget(redisKeys(prefix).batch(batchId!), 'accountsPerJob')).toBe('16');
  });
});
