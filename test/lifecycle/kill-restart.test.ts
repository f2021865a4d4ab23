import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticAccounts } from '../../src/sandbox/synthetic-accounts.js';
import { runCli, startCli, waitForExit } from '../support/cli.js';
import { listDir } from '../ops/ops-helpers.js';
import { waitFor } from '../support/wait.js';
import { batchCount, batchState, lifecycleSuite, payoutFile, reportRows } from './lifecycle-helpers.js';

/**
 * `kill -9` of `run` while it produces and while it writes the report, then the same command again.
 * Many rows over few accounts (48 x 1,000): production and the report each last a moment, while the
 * answers are in within a fraction of a second, so nothing is in flight at either kill and the promise is
 * exact: every account asked once in all, every row once in the report. 48 accounts are three whole groups
 * of sixteen (a file of 4,096 rows or more: accountsPerJob), each queued as soon as it is whole; a group
 * left part-filled is queued only at the end of the file.
 */
const ACCOUNTS = syntheticAccounts(48);
const ROWS_PER_ACCOUNT = 1_000;

const suite = lifecycleSuite('kill-restart', { accounts: ACCOUNTS });

/** Starts `run`, kills it with SIGKILL once `atKill` holds, and returns what Redis says of the batch then. */
async function killRunWhen(
  env: NodeJS.ProcessEnv,
  prefix: string,
  file: string,
  out: string,
  atKill: () => Promise<unknown>,
  what: string,
) {
  const first = startCli(['run', file, '--out', out], env);
  await waitFor(atKill, 60_000, what, 5);
  first.kill('SIGKILL');
  await waitForExit(first);
  return batchState(suite.redis, prefix, suite.sandbox);
}

const askedOnceEach = () => {
  const asked = suite.sandbox.stats().inquiriesByAccount;
  return Object.keys(asked).length === ACCOUNTS.length && Object.values(asked).every((count) => count === 1);
};

describe('kill -9 of run, then the same command again', () => {
  it('during production: the rerun produces the batch again, every row once and in order, no account asked twice', async () => {
    const { redis, sandbox, folder } = suite;
    const { prefix, env } = suite.environment({ INQUIRY_RATE: '500/s' });
    const file = join(folder, 'produce.csv');
    const out = join(folder, 'produce.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, ROWS_PER_ACCOUNT, 'P');
    sandbox.resetStats();
    // Rows stored but production not finished; every account answered already, nothing in flight.
    const atKill = await killRunWhen(
      env,
      prefix,
      file,
      out,
      async () => {
        const state = await batchState(redis, prefix, sandbox);
        return state.rows > 0 && !state.produced && state.answered === ACCOUNTS.length && state.active === 0;
      },
      'production under way with every account answered',
    );
    expect(atKill.produced).toBe(false);
    expect(atKill.rows).toBeLessThan(ids.length);

    const rerun = await runCli(['run', file, '--out', out], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(`continuing unfinished batch ${atKill.batchId}`);
    const report = await reportRows(out);
    expect(report.ids).toEqual(ids);
    expect([...report.results]).toEqual(['MATCH']);
    expect(askedOnceEach()).toBe(true);
    expect(await batchCount(redis, prefix)).toBe(1);
  });

  it('during report writing: the rerun asks nothing, writes the report, and no temporary file is left', async () => {
    const { redis, sandbox, folder } = suite;
    const { prefix, env } = suite.environment({ INQUIRY_RATE: '500/s' });
    const file = join(folder, 'report.csv');
    const out = join(folder, 'report.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, ROWS_PER_ACCOUNT, 'R');
    sandbox.resetStats();
    const temporary = () => listDir(folder).then((names) => names.filter((name) => name.startsWith('report.reconciled.csv.tmp-')));
    // The output path is probed with the writer's temporary name before anything is produced: only a
    // temporary file of a batch whose every account is answered is the report being written.
    const atKill = await killRunWhen(
      env,
      prefix,
      file,
      out,
      async () => (await temporary()).length > 0 && (await batchState(redis, prefix, sandbox)).answered === ACCOUNTS.length,
      'the temporary report file',
    );
    expect(await temporary()).toHaveLength(1); // what the dead writer left
    expect(await listDir(folder)).not.toContain('report.reconciled.csv');
    expect(atKill).toMatchObject({ produced: true, answered: ACCOUNTS.length, reported: false });
    const callsBefore = sandbox.stats().inquiries;

    const rerun = await runCli(['run', file, '--out', out], env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain(
      `continuing batch ${atKill.batchId}: every account is answered, only its report is written; nothing is asked`,
    );
    expect(sandbox.stats().inquiries).toBe(callsBefore);
    expect(askedOnceEach()).toBe(true);
    const report = await reportRows(out);
    expect(report.ids).toEqual(ids);
    expect([...report.results]).toEqual(['MATCH']);
    expect(await temporary()).toEqual([]);
    const summary = JSON.parse(await readFile(join(folder, 'report.reconciled.summary.json'), 'utf8'));
    expect(summary).toMatchObject({ batchId: atKill.batchId, continued: true, calls: 0, batch: { calls: ACCOUNTS.length } });
    expect((await batchState(redis, prefix, sandbox)).reported).toBe(true);
    expect(await batchCount(redis, prefix)).toBe(1);
  });
});
