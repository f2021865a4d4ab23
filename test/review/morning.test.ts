import { createServer, type Server } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { readReport } from '../support/report.js';
import { startWorld, type World } from '../history/world.js';
import { ACCOUNTS, EXPORT, keysOf, renameHolder, reportRows, reviewedCopy, summaryOf, trailOf } from './review-helpers.js';

/**
 * The morning review of issue 27, end to end with the built CLI, the real Redis and the emulator over HTTP:
 * day 1 a file gives a CLOSE_MATCH and a NO_MATCH; a reviewed copy is recorded with `review --by`; day 2 the
 * same file shows both decisions with who and when, nothing left to review; day 3 the bank renames the
 * approved holder: that decision no longer applies; after `prune --older-than 0s` the rejected one still stands.
 */
const WIB_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+07:00$/;

describe('the morning review: decisions made once, remembered by every later check', () => {
  let world: World;
  let receiver: Server;
  const notices: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        notices.push(JSON.parse(body) as Record<string, unknown>);
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/`;
    world = await startWorld('morning', Object.values(ACCOUNTS), {
      NOTIFY_WEBHOOK_URL: receiverUrl,
      NOTIFY_WEBHOOK_SECRET: 'morning-secret',
    });
  });

  afterAll(async () => {
    await world?.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('day 1 to day 3, then prune', async () => {
    const { folder, env, redis, prefix, sandbox } = world;
    const day = async (name: string, failOn?: string) => {
      const input = join(folder, `${name}.csv`);
      await writeFile(input, EXPORT);
      const run = await runCli(['run', input, ...(failOn === undefined ? [] : ['--fail-on', failOn])], env);
      return { run, report: join(folder, `${name}.reconciled.csv`) };
    };

    // Day 1: a CLOSE_MATCH and a NO_MATCH, both for a person; the notice and the summary say so; --fail-on NEEDS_REVIEW exits 3.
    const day1 = await day('day1', 'NEEDS_REVIEW');
    expect(day1.run.code, day1.run.stderr).toBe(3);
    expect(day1.run.stderr).toContain('--fail-on: 2 NEEDS_REVIEW: exit 3');
    expect(day1.run.stdout).toContain('review: 2 row(s) need a person');
    const rows1 = await reportRows(day1.report);
    expect([...rows1.values()].map((row) => [row.beneficiary_id, row.result, row.decision, row.decided_by, row.decided_at])).toEqual([
      ['B-1', 'MATCH', '', '', ''],
      ['B-2', 'CLOSE_MATCH', '', '', ''],
      ['B-3', 'NO_MATCH', '', '', ''],
    ]);
    expect(Object.keys(rows1.get('B-1')!).slice(-3)).toEqual(['decision', 'decided_by', 'decided_at']);
    expect(await summaryOf(day1.report)).toMatchObject({ needsReview: 2, approved: 0, rejected: 0 });
    const notice1 = notices.find((notice) => notice.report === day1.report);
    expect(notice1).toMatchObject({ needsReview: 2, approved: 0, rejected: 0 });

    // The reviewed copy: the person wrote APPROVE (as people write it) and REJECTED, with a note for one.
    const reviewed = join(folder, 'day1.reviewed.csv');
    await reviewedCopy(
      day1.report,
      reviewed,
      { 'B-2': 'approve', 'B-3': 'REJECTED' },
      { 'B-3': 'another person: ask the agent for his own account' },
    );
    const review = await runCli(['review', reviewed, '--by', 'ratna'], env);
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toContain(`review of ${reviewed} by ratna: 2 recorded, 0 unchanged, 0 refused`);
    expect(review.stdout).toContain('row 2 (B-2): APPROVED recorded');
    expect(review.stdout).toContain('row 3 (B-3): REJECTED recorded');
    // The same file again records nothing new.
    const again = await runCli(['review', reviewed, '--by', 'ratna'], env);
    expect(again.stdout).toContain('0 recorded, 2 unchanged, 0 refused');

    // Day 2: the same export, a new batch: both decisions stand, with who and when; nothing left for a person.
    const day2 = await day('day2', 'NEEDS_REVIEW');
    expect(day2.run.code, day2.run.stderr).toBe(0);
    expect(day2.run.stdout).toContain(
      'review: 0 row(s) need a person (CLOSE_MATCH / NO_MATCH without a decision); decided: 1 APPROVED, 1 REJECTED',
    );
    const rows2 = await reportRows(day2.report);
    expect(rows2.get('B-2')).toMatchObject({ result: 'CLOSE_MATCH', decision: 'APPROVED', decided_by: 'ratna' });
    expect(rows2.get('B-3')).toMatchObject({ result: 'NO_MATCH', decision: 'REJECTED', decided_by: 'ratna' });
    expect(rows2.get('B-1')).toMatchObject({ result: 'MATCH', decision: '', decided_by: '', decided_at: '' });
    expect(rows2.get('B-2')!.decided_at).toMatch(WIB_TIME);
    const summary2 = await summaryOf(day2.report);
    expect(summary2).toMatchObject({ needsReview: 0, approved: 1, rejected: 1 });
    expect(summary2.batchId).not.toBe((await summaryOf(day1.report)).batchId);
    expect(notices.find((notice) => notice.report === day2.report)).toMatchObject({ needsReview: 0, approved: 1, rejected: 1 });

    // Day 3: the bank renames the approved holder. The approval no longer applies: the row needs a person again.
    await renameHolder(sandbox, ACCOUNTS.close, 'RATNA SARI WULANDARI');
    const day3 = await day('day3');
    expect(day3.run.code, day3.run.stderr).toBe(0);
    const rows3 = await reportRows(day3.report);
    expect(['CLOSE_MATCH', 'NO_MATCH']).toContain(rows3.get('B-2')!.result);
    expect(rows3.get('B-2')).toMatchObject({ account_holder: 'RATNA SARI WULANDARI', decision: '', decided_by: '', decided_at: '' });
    expect(rows3.get('B-2')!.reason).toMatch(
      /the decision APPROVED by ratna \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d WIB\) no longer applies: it was made for the holder name "RATNA SARI DEWI"/,
    );
    expect(rows3.get('B-3')).toMatchObject({ decision: 'REJECTED', decided_by: 'ratna' });
    expect(await summaryOf(day3.report)).toMatchObject({ needsReview: 1, approved: 0, rejected: 1 });
    // The day-1 copy decided on the old holder: recorded now, it would be a decision on facts the bank no longer gives.
    await reviewedCopy(day1.report, reviewed, { 'B-2': 'REJECTED' });
    const stale = await runCli(['review', reviewed, '--by', 'budi'], env);
    expect(stale.code).toBe(3);
    expect(stale.stdout).toContain('0 recorded, 0 unchanged, 1 refused');
    expect(stale.stdout).toContain(`row 2 (B-2): refused: the bank's holder name for this account is now "RATNA SARI WULANDARI"`);

    // prune removes every batch (working state) but no decision: the next check still shows the rejection.
    const prune = await runCli(['prune', '--older-than', '0s'], env);
    expect(prune.code, prune.stderr).toBe(0);
    expect(prune.stdout).toContain('3 finished batch(es)');
    expect(await redis.zcard(`${prefix}:batches`)).toBe(0);
    const day4 = await day('day4');
    expect(day4.run.code, day4.run.stderr).toBe(0);
    expect((await reportRows(day4.report)).get('B-3')).toMatchObject({ decision: 'REJECTED', decided_by: 'ratna' });
    expect(await summaryOf(day4.report)).toMatchObject({ needsReview: 1, rejected: 1 });

    // The audit trail: both decisions, in order, with who, when and the note, the account masked.
    const trail = await trailOf(redis, prefix);
    expect(
      trail.map((entry) => [entry.event, entry.decision, entry.decided_by, entry.expected_name, entry.holder_name, entry.account]),
    ).toEqual([
      ['RECORDED', 'APPROVED', 'ratna', 'Ratna Sari', 'RATNA SARI DEWI', '*********6543'],
      ['RECORDED', 'REJECTED', 'ratna', 'Muhammad Fauzi', 'MUHAMMAD IQBAL', '*********3344'],
    ]);
    expect(trail[1]!.note).toBe('another person: ask the agent for his own account');
    expect(trail[0]!.source).toBe(`review ${reviewed}`);
    const exported = join(folder, 'decisions.csv');
    const exportRun = await runCli(['decisions', 'export', '--out', exported], env);
    expect(exportRun.code, exportRun.stderr).toBe(0);
    expect(exportRun.stdout).toContain('2 audit entries written');
    const exportedRows = await readReport(exported);
    expect(exportedRows.map((row) => [row.event, row.decision, row.decided_by, row.bank_code, row.account])).toEqual([
      ['RECORDED', 'APPROVED', 'ratna', '008', '*********6543'],
      ['RECORDED', 'REJECTED', 'ratna', '008', '*********3344'],
    ]);
    expect(exportedRows[0]!.recorded_at).toMatch(WIB_TIME);
    expect(exportedRows[0]!.recorded_at).toBe(rows2.get('B-2')!.decided_at);
    const exportedText = await readFile(exported, 'utf8');
    for (const account of Object.values(ACCOUNTS)) expect(exportedText).not.toContain(account.accountNumber);
    // The same as a workbook.
    const workbookPath = join(folder, 'decisions.xlsx');
    expect((await runCli(['decisions', 'export', '--out', workbookPath], env)).code).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(workbookPath);
    const sheet = workbook.worksheets[0]!;
    const cells = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1).map(String);
    expect(cells(1).slice(0, 4)).toEqual(['recorded_at', 'event', 'decision', 'decided_by']);
    expect(sheet.rowCount).toBe(3);
    expect(cells(3).slice(1, 4)).toEqual(['RECORDED', 'REJECTED', 'ratna']);

    // No key names an account number or a holder name.
    const keys = await keysOf(redis, prefix);
    expect(keys).toContain(`${prefix}:{decisions}:standing`);
    for (const key of keys) for (const account of Object.values(ACCOUNTS)) expect(key).not.toContain(account.accountNumber);
    expect(keys.filter((key) => /RATNA|IQBAL|Ratna|Iqbal/.test(key))).toEqual([]);

    // Day 5: the bank gives the old name back. The approval made for it stays void (the name changed after it
    // was made: what comes back is no longer what ratna saw), is ended for good, and the trail says so.
    await renameHolder(sandbox, ACCOUNTS.close, 'RATNA SARI DEWI');
    const day5 = await day('day5');
    expect(day5.run.code, day5.run.stderr).toBe(0);
    const rows5 = await reportRows(day5.report);
    expect(rows5.get('B-2')).toMatchObject({ account_holder: 'RATNA SARI DEWI', decision: '', decided_by: '' });
    expect(rows5.get('B-2')!.reason).toMatch(
      /the decision APPROVED by ratna \(.* WIB\) no longer applies: the bank gave the holder name "RATNA SARI WULANDARI" after it was made/,
    );
    expect((await trailOf(redis, prefix)).at(-1)).toMatchObject({ event: 'VOIDED', previous_decision: 'APPROVED', previous_by: 'ratna' });
    const day6 = await day('day6');
    expect((await reportRows(day6.report)).get('B-2')).toMatchObject({ decision: '', decided_by: '' });
    expect(await summaryOf(day6.report)).toMatchObject({ needsReview: 1, approved: 0, rejected: 1 });
    // A rejection is not ended so: the same facts again are the same no (an ended one would make the row look new).
    await renameHolder(sandbox, ACCOUNTS.other, 'MUHAMMAD IQBAL HASAN');
    expect((await reportRows((await day('day7')).report)).get('B-3')).toMatchObject({ decision: '' });
    await renameHolder(sandbox, ACCOUNTS.other, ACCOUNTS.other.holderName);
    expect((await reportRows((await day('day8')).report)).get('B-3')).toMatchObject({ decision: 'REJECTED', decided_by: 'ratna' });
  });
});
