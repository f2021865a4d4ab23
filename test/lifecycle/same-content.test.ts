import { copyFile, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticAccounts } from '../../src/sandbox/synthetic-accounts.js';
import { startCli, waitForExit } from '../support/cli.js';
import { listDir } from '../ops/ops-helpers.js';
import { waitFor } from '../support/wait.js';
import { batchCount, batchState, lifecycleSuite, payoutFile, reportRows } from './lifecycle-helpers.js';

/**
 * The same content started more than once at the same time: one batch, one producer (the content lease),
 * every start ends with a complete report, and every account is asked once. 200 accounts at 100/s keep
 * the first start answering for about 2 s; 20 rows each make production take a moment too.
 */
const ACCOUNTS = syntheticAccounts(200);
const ROWS_PER_ACCOUNT = 20;

const suite = lifecycleSuite('same-content', { accounts: ACCOUNTS, latencyMs: { min: 0, max: 5 } });
const environment = () => suite.environment({ INQUIRY_RATE: '100/s', INQUIRY_CONCURRENCY: '8' });

/** Every account of the file asked exactly once, whoever asked. */
function expectEachAccountAskedOnce(): void {
  const asked = suite.sandbox.stats().inquiriesByAccount;
  expect(Object.keys(asked)).toHaveLength(ACCOUNTS.length);
  expect(Object.values(asked).filter((count) => count !== 1)).toEqual([]);
}

describe('the same content, started several times at once', () => {
  it('three `run`s of one file, at 0 s, 0 s and ~1.5 s: three complete reports, one batch, each account asked once, all exit 0', async () => {
    const { redis, sandbox, folder } = suite;
    sandbox.resetStats();
    const { prefix, env } = environment();
    const file = join(folder, 'payouts.csv');
    const ids = await payoutFile(file, ACCOUNTS, ROWS_PER_ACCOUNT, 'P');
    const out = (name: string) => join(folder, `${name}.reconciled.csv`);
    // Answers are slow until both starts have decided: on a loaded machine a process can take longer to
    // start than the whole batch takes to answer, and a run that comes after a finished batch checks anew.
    sandbox.setKnobs({ latencyMs: { min: 300, max: 300 } });
    const first = startCli(['run', file, '--out', out('first')], env);
    const second = startCli(['run', file, '--out', out('second')], env);
    const decided = (child: typeof first) =>
      /batch b\d|being produced by another process|continuing/.test(child.output().stdout + child.output().stderr);
    await waitFor(async () => decided(first) && decided(second), 30_000, 'both starts to decide', 20);
    sandbox.setKnobs({ latencyMs: { min: 0, max: 5 } });
    // The third comes while the batch is being answered (the first answers were stored, far from all).
    await waitFor(async () => (await batchState(redis, prefix, sandbox)).answered > 0, 20_000, 'the first answers', 20);
    // Slow again until the third has decided, for the same reason: it must join the batch while it is answered.
    sandbox.setKnobs({ latencyMs: { min: 300, max: 300 } });
    expect((await batchState(redis, prefix, sandbox)).answered).toBeLessThan(ACCOUNTS.length);
    const third = startCli(['run', file, '--out', out('third')], env);
    await waitFor(async () => decided(third), 30_000, 'the third start to decide', 20);
    sandbox.setKnobs({ latencyMs: { min: 0, max: 5 } });

    const codes = await Promise.all([first, second, third].map(waitForExit));
    expect(codes, [first, second, third].map((child) => child.output().stderr).join('\n---\n')).toEqual([0, 0, 0]);
    for (const name of ['first', 'second', 'third']) {
      const report = await reportRows(out(name));
      expect(report.ids).toEqual(ids);
      expect([...report.results]).toEqual(['MATCH']);
    }
    expectEachAccountAskedOnce();
    expect(await batchCount(redis, prefix)).toBe(1);
    // The later starts joined the batch the first one made.
    const summaries = await Promise.all(
      ['first', 'second', 'third'].map(async (name) => JSON.parse(await readFile(join(folder, `${name}.reconciled.summary.json`), 'utf8'))),
    );
    expect(new Set(summaries.map((summary) => summary.batchId)).size).toBe(1);
    expect(summaries.filter((summary) => summary.continued)).toHaveLength(2);
  });

  it('`watch` and `run` on the same content: both reports complete, one batch, each account asked once', async () => {
    const { redis, sandbox, folder } = suite;
    sandbox.resetStats();
    const { prefix, env } = environment();
    const watched = join(folder, 'watched');
    const source = join(folder, 'nightly-export.csv');
    const ids = await payoutFile(source, ACCOUNTS, ROWS_PER_ACCOUNT, 'W');
    const watcherEnv = { ...env, WATCH_STABLE: '0', WATCH_POLL: '100ms' };
    const watcher = startCli(['watch', watched], watcherEnv);
    try {
      await waitFor(async () => (await listDir(watched)).includes('inbox'), 15_000, 'the inbox');
      // Dropped complete (a rename into the inbox), and the same bytes run from another path at once.
      const staged = join(folder, 'staged.csv');
      await copyFile(source, staged);
      await rename(staged, join(watched, 'inbox', 'payouts.csv'));
      const run = startCli(['run', source, '--out', join(folder, 'run.reconciled.csv')], env);
      expect(await waitForExit(run), run.output().stderr).toBe(0);
      await waitFor(
        async () => (await listDir(join(watched, 'outbox'))).includes('payouts.reconciled.summary.json'),
        30_000,
        'the watched report',
      );

      for (const report of [join(folder, 'run.reconciled.csv'), join(watched, 'outbox', 'payouts.reconciled.csv')]) {
        const rows = await reportRows(report);
        expect(rows.ids).toEqual(ids);
        expect([...rows.results]).toEqual(['MATCH']);
      }
      expectEachAccountAskedOnce();
      expect(await batchCount(redis, prefix)).toBe(1);
      expect(await listDir(join(watched, 'archive'))).toEqual(['payouts.csv']);
    } finally {
      watcher.kill('SIGTERM');
      expect(await waitForExit(watcher)).toBe(0);
    }
  });
});
