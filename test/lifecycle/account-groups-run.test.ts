import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/redis/keys.js';
import { syntheticAccounts } from '../../src/sandbox/synthetic-accounts.js';
import { runCli } from '../support/cli.js';
import { batchState, killWhileAnsweringThenRerun, lifecycleSuite, payoutFile, reportRows } from './lifecycle-helpers.js';

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
    const { sandbox, folder } = suite;
    const { prefix, env } = suite.environment(UNPACED);
    const file = join(folder, 'killed.csv');
    const out = join(folder, 'killed.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, 1, 'K');
    sandbox.resetStats();
    // One call in flight per job a process holds.
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
