import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticAccounts } from '../../src/sandbox/synthetic-accounts.js';
import { runCli, startCli, waitForExit } from '../support/cli.js';
import { waitFor } from '../support/wait.js';
import { batchCount, batchState, lifecycleSuite, payoutFile, reportRows, storedVerdicts } from './lifecycle-helpers.js';

/**
 * The login starts failing in the middle of a run (tokens live 2 s, so the next refresh meets it): no row
 * becomes FAILED, `run` stops with exit 1 and the reason once the outage budget has passed, and the rerun,
 * with the login back, asks only what had no answer. Its summary shows this run beside the batch.
 */
const ACCOUNTS = syntheticAccounts(40);

const suite = lifecycleSuite('login-trouble', { accounts: ACCOUNTS, tokenLifetimeSeconds: 2, latencyMs: { min: 0, max: 5 } });

describe('a login that starts failing mid-run', () => {
  it('holds the rows (none FAILED), stops run with exit 1 and the reason; the rerun finishes asking only what had no answer', async () => {
    const { redis, sandbox, folder } = suite;
    const { prefix, env } = suite.environment({ INQUIRY_RATE: '10/s', INQUIRY_CONCURRENCY: '2', INQUIRY_OUTAGE_BUDGET: '2s' });
    const file = join(folder, 'payouts.csv');
    const out = join(folder, 'payouts.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, 1, 'L');
    const firstStartedAt = Date.now();
    const first = startCli(['run', file, '--out', out], env);
    const { batchId } = await waitFor(
      async () => {
        const state = await batchState(redis, prefix, sandbox);
        return state.answered >= 5 && state;
      },
      20_000,
      'the first answers',
      20,
    );
    sandbox.setKnobs({ loginFailure: 'unavailable' });
    const code = await waitForExit(first);
    const { stderr } = first.output();
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(
      /login failed: no login possible since .*Service Unavailable.*no row was marked: run the same file again to continue/,
    );
    const verdicts = await storedVerdicts(redis, prefix, batchId!);
    expect(verdicts.size).toBeLessThan(ACCOUNTS.length);
    expect([...verdicts.values()].filter((verdict) => verdict !== 'VERIFIED')).toEqual([]);
    await expect(access(out)).rejects.toThrow(); // no report: the batch is not finished
    const askedFirst = sandbox.stats().inquiriesByAccount;
    const callsFirst = sandbox.stats().inquiries;

    sandbox.setKnobs({ loginFailure: null });
    sandbox.resetStats();
    const rerun = await runCli(['run', file, '--out', out], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`continuing unfinished batch ${batchId}`);
    const report = await reportRows(out);
    expect(report.ids).toEqual(ids);
    expect([...report.results]).toEqual(['MATCH']);
    expect(await batchCount(redis, prefix)).toBe(1);
    // Asked again: only what had no answer; nothing answered in the first run.
    const askedAgain = Object.keys(sandbox.stats().inquiriesByAccount);
    expect(askedAgain.sort()).toEqual(
      ACCOUNTS.map((account) => `${account.bankCode}:${account.accountNumber}`)
        .filter((key) => !verdicts.has(key))
        .sort(),
    );
    expect(Object.values(sandbox.stats().inquiriesByAccount).every((count) => count === 1)).toBe(true);
    for (const account of verdicts.keys()) expect(askedFirst[account]).toBe(1);

    // This run's figures beside the batch's.
    const summary = JSON.parse(await readFile(join(folder, 'payouts.reconciled.summary.json'), 'utf8'));
    expect(summary).toMatchObject({
      batchId,
      continued: true,
      continuation: 'continue',
      rows: ACCOUNTS.length,
      accounts: ACCOUNTS.length,
      sourceFile: file,
    });
    expect(summary.calls).toBe(sandbox.stats().inquiries);
    expect(summary.batch.calls).toBe(callsFirst + sandbox.stats().inquiries);
    expect(Date.parse(summary.startedAt)).toBeGreaterThan(Date.parse(summary.batch.createdAt));
    expect(Date.parse(summary.batch.createdAt)).toBeGreaterThanOrEqual(firstStartedAt - 1_000);
    expect(rerun.stdout).toMatch(
      new RegExp(`batch ${batchId} \\(continued\\): 40 rows, 40 distinct accounts, ${summary.calls} inquiry calls this run`),
    );
    expect(rerun.stdout).toContain(`${summary.batch.calls} calls in all`);
  });
});
