import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, waitForExit } from '../support/cli.js';
import { listDir, waitFor } from '../ops/ops-helpers.js';
import { startWorld, type World } from '../history/world.js';
import { ACCOUNTS, EXPORT, reportRows, reviewedCopy, trailOf } from './review-helpers.js';

/**
 * The watched folder takes reviewed reports too: a file dropped into `reviews/` has its decisions recorded
 * by the reviewer its name gives (`<reviewer>--<name>`); the result goes to outbox/, the file to archive/; a
 * file naming nobody, or that is no report, goes to failed/ with the reason, recording nothing.
 */
describe('the reviews/ inbox of the watched folder', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld('watch-reviews', Object.values(ACCOUNTS), { WATCH_STABLE: '0.3s', WATCH_POLL: '100ms' });
  });
  afterAll(() => world?.close());

  it('records a reviewed report by the reviewer its name gives, and refuses one that names nobody or is no report', async () => {
    const { folder, env, redis, prefix } = world;
    const input = join(folder, 'payouts.csv');
    await writeFile(input, EXPORT);
    expect((await runCli(['run', input], env)).code).toBe(0);
    const report = join(folder, 'payouts.reconciled.csv');
    const watched = join(folder, 'watched');
    const watcher = startCli(['watch', watched], env);
    try {
      await waitFor(async () => (await listDir(watched)).includes('reviews'), 10_000, 'the watcher to create reviews/');
      await reviewedCopy(report, join(watched, 'reviews', 'ratna--payouts.reviewed.csv'), {
        'B-2': 'APPROVED',
        'B-3': 'REJECTED',
        'B-1': 'APPROVED',
      });
      await reviewedCopy(report, join(watched, 'reviews', 'payouts.csv'), { 'B-2': 'REJECTED' });
      await writeFile(join(watched, 'reviews', 'budi--notes.csv'), 'just,some,notes\n1,2,3\n');
      await waitFor(
        async () => (await listDir(join(watched, 'failed'))).length === 4 && (await listDir(join(watched, 'outbox'))).length === 1,
        20_000,
        'the three reviewed files to be taken',
      );
    } finally {
      watcher.kill('SIGTERM');
      await waitForExit(watcher);
    }
    expect(await listDir(join(watched, 'archive'))).toEqual(['ratna--payouts.reviewed.csv']);
    expect(await listDir(join(watched, 'reviews'))).toEqual([]);
    const result = await readFile(join(watched, 'outbox', 'ratna--payouts.reviewed.review.txt'), 'utf8');
    expect(result).toContain('review of ratna--payouts.reviewed.csv by ratna: 2 recorded, 0 unchanged, 1 refused');
    expect(result).toContain('row 1 (B-1): refused: a decision on a MATCH row');
    expect(await listDir(join(watched, 'failed'))).toEqual([
      'budi--notes.csv',
      'budi--notes.error.txt',
      'payouts.csv',
      'payouts.error.txt',
    ]);
    expect(await readFile(join(watched, 'failed', 'payouts.error.txt'), 'utf8')).toContain(
      'no reviewer is named: name the file <reviewer>--<name>',
    );
    expect(await readFile(join(watched, 'failed', 'budi--notes.error.txt'), 'utf8')).toContain(
      'is not a reconciliation report with a decision column',
    );
    const trail = await trailOf(redis, prefix);
    expect(trail.map((entry) => [entry.decision, entry.decided_by, entry.source])).toEqual([
      ['APPROVED', 'ratna', `watch ${join(watched, 'reviews', 'ratna--payouts.reviewed.csv')}`],
      ['REJECTED', 'ratna', `watch ${join(watched, 'reviews', 'ratna--payouts.reviewed.csv')}`],
    ]);
    // The next check shows them.
    expect(
      (
        await runCli(
          [
            'export',
            (JSON.parse(await readFile(join(folder, 'payouts.reconciled.summary.json'), 'utf8')) as { batchId: string }).batchId,
            '--out',
            join(folder, 'again.csv'),
          ],
          env,
        )
      ).code,
    ).toBe(0);
    expect((await reportRows(join(folder, 'again.csv'))).get('B-2')).toMatchObject({ decision: 'APPROVED', decided_by: 'ratna' });
  });
});
