import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticAccounts } from '../../src/sandbox/synthetic-accounts.js';
import { runCli, startCli, waitForExit } from '../support/cli.js';
import { waitFor } from '../support/wait.js';
import { batchCount, batchState, lifecycleSuite, payoutFile, reportRows, storedVerdicts } from './lifecycle-helpers.js';

/**
 * `kill -9` of `run` while answers come in, then the same command again. The killed process's in-flight
 * jobs come back only once their lock expires (BullMQ's stalled-job check, 30-60 s): this test waits for
 * that, in a file of its own so that it runs beside the others.
 */
const ACCOUNTS = syntheticAccounts(60);
const CONCURRENCY = 2;

const suite = lifecycleSuite('kill-answers', { accounts: ACCOUNTS, latencyMs: { min: 5, max: 20 } });

describe('kill -9 of run while the answers come in', () => {
  it('the same command again asks only what had no answer: an account is asked twice only if it was in flight at the kill', {
    timeout: 120_000,
  }, async () => {
    const { redis, sandbox, folder } = suite;
    const { prefix, env } = suite.environment({ INQUIRY_RATE: '20/s', INQUIRY_CONCURRENCY: String(CONCURRENCY) });
    const file = join(folder, 'answers.csv');
    const out = join(folder, 'answers.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, 2, 'A');
    const first = startCli(['run', file, '--out', out], env);
    const { batchId } = await waitFor(
      async () => {
        const state = await batchState(redis, prefix, sandbox);
        return state.produced && state.answered >= 15 && state;
      },
      30_000,
      'some answers stored',
      10,
    );
    first.kill('SIGKILL');
    await waitForExit(first);
    const answeredAtKill = new Set((await storedVerdicts(redis, prefix, batchId!)).keys());
    expect(answeredAtKill.size).toBeLessThan(ACCOUNTS.length);

    const rerun = await runCli(['run', file, '--out', out], env, 110_000);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`continuing unfinished batch ${batchId}`);
    const report = await reportRows(out);
    expect(report.ids).toEqual(ids);
    expect([...report.results]).toEqual(['MATCH']);
    expect(await batchCount(redis, prefix)).toBe(1);

    const asked = sandbox.stats().inquiriesByAccount;
    expect(Object.keys(asked)).toHaveLength(ACCOUNTS.length);
    const askedTwice = Object.entries(asked).filter(([, count]) => count > 1);
    // Answered before the kill: never asked again. Asked twice: only calls in flight at the kill.
    for (const [account] of askedTwice) expect(answeredAtKill.has(account)).toBe(false);
    expect(askedTwice.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(Math.max(...Object.values(asked))).toBeLessThanOrEqual(2);
    const summary = JSON.parse(await readFile(join(folder, 'answers.reconciled.summary.json'), 'utf8'));
    expect(summary).toMatchObject({ continued: true, continuation: 'continue', batchId });
    // This run's calls: one per account without an answer at the kill.
    expect(summary.calls).toBe(ACCOUNTS.length - answeredAtKill.size);
  });
});
