import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startWorld, type World } from '../history/world.js';
import { ACCOUNTS, EXPORT, reviewedCopy, trailOf } from '../review/review-helpers.js';

/**
 * Account numbers in file names, written however people write them (an en dash, a thin space, fullwidth
 * digits, `/`-less separators such as `_`, four dot-separated groups like an IPv4 address), never show in
 * full in what the commands print or keep: `run`'s lines, `prune`'s list, the audit trail's `source`.
 */
const WRITTEN = [
  '5270\u20131234\u201356',
  '5270\u20091234\u200956',
  '\uFF15\uFF12\uFF17\uFF10\uFF11\uFF12\uFF13\uFF14\uFF15\uFF16',
  '5270_1234_56',
  '527.012.34.56',
];
const FULL = /5270.?1234.?56|527\.012\.34\.56|\uFF15\uFF12\uFF17\uFF10\uFF11\uFF12/;

describe('account numbers in file names, in what the commands show', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld('masked-outputs', Object.values(ACCOUNTS));
  });
  afterAll(() => world?.close());

  it('run, prune and the audit trail show them masked', async () => {
    const reports: string[] = [];
    for (const [index, written] of WRITTEN.entries()) {
      const input = join(world.folder, `payroll ${written}.csv`);
      // Each its own content: each its own batch.
      await writeFile(input, `${EXPORT}B-${9 + index},014,0012345678,Budi Santoso,${index}\n`);
      const run = await runCli(['run', input], world.env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^checking .*payroll [*＊]+/);
      expect(run.stderr).not.toMatch(FULL);
      reports.push(input.replace(/\.csv$/, '.reconciled.csv'));
    }

    const reviewed = join(world.folder, `ratna--payroll ${WRITTEN[0]}.reviewed.csv`);
    await reviewedCopy(reports[0]!, reviewed, { 'B-2': 'APPROVED' });
    const review = await runCli(['review', reviewed, '--by', 'ratna'], world.env);
    expect(review.code, review.stderr).toBe(0);
    const trail = await trailOf(world.redis, world.prefix);
    expect(trail).toHaveLength(1);
    expect(trail[0]!.source).toMatch(/^review .*ratna--payroll \*+3456\.reviewed\.csv$/);

    const pruned = await runCli(['prune', '--older-than', '0s'], world.env);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('5 finished batch(es)');
    expect(pruned.stdout).toMatch(/payroll \*+3456\.csv/);
    expect(pruned.stdout).not.toMatch(FULL);
  });
});
