import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_COLUMNS } from '../../src/report/row-result.js';
import { runCli } from '../support/cli.js';
import { startWorld, type World } from '../history/world.js';
import { stringify } from 'csv-stringify/sync';
import { readReport } from '../support/report.js';
import { ACCOUNTS, EXPORT, HEADER, reportRows, summaryOf, trailOf } from './review-helpers.js';

/**
 * `review` reads a report by its own columns, CSV or XLSX, refuses what cannot be decided and records the
 * rest in one step; a file it cannot read records nothing (exit 2).
 */
describe('review: the report as the review form', () => {
  let world: World;
  let report: string;

  beforeAll(async () => {
    world = await startWorld('review-import', Object.values(ACCOUNTS));
    const input = join(world.folder, 'payouts.csv');
    await writeFile(input, EXPORT);
    const run = await runCli(['run', input], world.env);
    expect(run.code, run.stderr).toBe(0);
    report = join(world.folder, 'payouts.reconciled.csv');
  });
  afterAll(() => world?.close());

  const review = (path: string, by = 'ratna') => runCli(['review', path, '--by', by], world.env);

  it('refuses a decision on a MATCH row, an unknown value, an edited account and one beneficiary decided twice', async () => {
    const rows = [...(await reportRows(report)).values()];
    const b2 = rows.find((row) => row.beneficiary_id === 'B-2')!;
    const b3 = rows.find((row) => row.beneficiary_id === 'B-3')!;
    const edited = join(world.folder, 'edited.csv');
    // B-1 (MATCH) decided, B-2 an unknown value, B-3 twice with different decisions, B-2 again with its account number changed.
    const written: Record<string, string> = { 'B-1': 'APPROVED', 'B-2': 'maybe', 'B-3': 'REJECTED' };
    const extra = [
      { ...b3, decision: 'APPROVED' },
      { ...b2, account_number: '0060009876544', decision: 'APPROVED' },
    ];
    await writeFile(
      edited,
      `\uFEFF${stringify([...rows.map((row) => ({ ...row, decision: written[row.beneficiary_id!] ?? '' })), ...extra], { header: true })}`,
    );
    const result = await review(edited);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('0 recorded, 0 unchanged, 5 refused');
    expect(result.stdout).toContain('row 1 (B-1): refused: a decision on a MATCH row: only CLOSE_MATCH and NO_MATCH rows are decided');
    expect(result.stdout).toContain('row 2 (B-2): refused: unknown decision "maybe": write APPROVED or REJECTED');
    expect(result.stdout).toContain('row 3 (B-3): refused: the same beneficiary is decided differently in rows 3, 4 of this file');
    expect(result.stdout).toContain('row 4 (B-3): refused: the same beneficiary is decided differently in rows 3, 4 of this file');
    expect(result.stdout).toContain(
      "row 5 (B-2): refused: the row's bank code, account number, expected name or holder name is not as the report wrote it",
    );
    expect(await trailOf(world.redis, world.prefix)).toEqual([]);
  });

  it('takes a reviewed workbook, and refuses to change back a decision somebody changed after the report was written', async () => {
    // The report as a workbook, edited as a spreadsheet leaves it: the decision cells typed in.
    const xlsx = join(world.folder, 'payouts.reconciled.xlsx');
    const exported = await runCli(['export', await batchOf(report), '--out', xlsx], world.env);
    expect(exported.code, exported.stderr).toBe(0);
    const reviewedXlsx = join(world.folder, 'ratna--payouts.reviewed.xlsx');
    await editWorkbook(xlsx, reviewedXlsx, { 'B-2': 'Approve', 'B-3': 'reject' });
    const first = await review(reviewedXlsx);
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toContain('2 recorded, 0 unchanged, 0 refused');

    // The next report shows both; a colleague changes B-2 with his own copy of that report.
    const shown = join(world.folder, 'shown.xlsx');
    expect((await runCli(['export', await batchOf(report), '--out', shown], world.env)).code).toBe(0);
    const budi = join(world.folder, 'budi.xlsx');
    await editWorkbook(shown, budi, { 'B-2': 'REJECTED' });
    const changed = await review(budi, 'budi');
    expect(changed.stdout).toContain('1 recorded, 1 unchanged, 0 refused');
    expect(changed.stdout).toMatch(/row 2 \(B-2\): REJECTED recorded \(was APPROVED by ratna, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d WIB\)/);

    // Ratna's copy of the same (older) report, B-3 switched: B-2 still shows her APPROVED, which no longer stands.
    const ratna = join(world.folder, 'ratna-late.xlsx');
    await editWorkbook(shown, ratna, { 'B-3': 'APPROVED' });
    const late = await review(ratna);
    expect(late.code).toBe(3);
    expect(late.stdout).toContain('1 recorded, 0 unchanged, 1 refused');
    expect(late.stdout).toMatch(
      /row 2 \(B-2\): refused: the decision changed after this report was written \(now REJECTED by budi, .* WIB\): decide on the latest report/,
    );
    const trail = await trailOf(world.redis, world.prefix);
    expect(trail.map((entry) => [entry.event, entry.expected_name, entry.decision, entry.previous_decision, entry.decided_by])).toEqual([
      ['RECORDED', 'Ratna Sari', 'APPROVED', '', 'ratna'],
      ['RECORDED', 'Muhammad Fauzi', 'REJECTED', '', 'ratna'],
      ['CHANGED', 'Ratna Sari', 'REJECTED', 'APPROVED', 'budi'],
      ['CHANGED', 'Muhammad Fauzi', 'APPROVED', 'REJECTED', 'ratna'],
    ]);
  });

  it('records nothing from a file it cannot read, or that is not a report: exit 2', async () => {
    const before = (await trailOf(world.redis, world.prefix)).length;
    const broken = join(world.folder, 'broken.csv');
    // Decisions in the first rows, then an unbalanced quote: the whole file is refused, not its first half.
    const header = [...HEADER.split(','), ...RESULT_COLUMNS].join(',');
    const decided = (id: string, account: string, bank: string) =>
      `${id},${bank},${account},Somebody,1,NO_MATCH,0,SOMEBODY ELSE,,,,,,,NEW,${account},REJECTED,,`;
    await writeFile(
      broken,
      `${header}\n${decided('X-1', ACCOUNTS.other.accountNumber, '008')}\n"X-2,008,${ACCOUNTS.close.accountNumber},unterminated\n`,
    );
    const unreadable = await review(broken);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('is not a readable CSV file');
    const pdf = join(world.folder, 'scan.csv');
    await writeFile(pdf, '%PDF-1.4\n...');
    expect((await review(pdf)).code).toBe(2);
    const plain = join(world.folder, 'input-again.csv');
    await writeFile(plain, EXPORT);
    const notReport = await review(plain);
    expect(notReport.code).toBe(2);
    expect(notReport.stderr).toContain('is not a reconciliation report with a decision column');
    expect((await review(join(world.folder, 'missing.csv'))).code).toBe(2);
    expect((await runCli(['review', report], world.env)).code).toBe(2); // no --by
    const nobody = await review(report, '  ');
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain('a decision needs the name of the person who made it');
    // More decisions than anybody makes by hand: the file is refused whole.
    const bulk = join(world.folder, 'bulk.csv');
    await writeFile(
      bulk,
      `${header}\n${Array.from({ length: 10_001 }, (_, index) => decided(`Y-${index}`, String(5_000_000_000 + index), '008')).join('\n')}\n`,
    );
    const tooMany = await review(bulk);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('holds more than 10,000 decisions: split it (nothing was recorded)');
    expect((await trailOf(world.redis, world.prefix)).length).toBe(before);
  });
});

/** The batch of a report, from its summary. */
const batchOf = async (reportPath: string): Promise<string> => (await summaryOf(reportPath)).batchId as string;

/** A workbook report with decision cells typed in by row id, saved as a spreadsheet would (cells stay text). */
async function editWorkbook(from: string, to: string, decisions: Record<string, string>): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(from);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const idColumn = header.indexOf('beneficiary_id') + 1;
  const decisionColumn = header.lastIndexOf('decision') + 1;
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const value = decisions[String(row.getCell(idColumn).value)];
    if (value !== undefined) row.getCell(decisionColumn).value = value;
  });
  await workbook.xlsx.writeFile(to);
}

/**
 * What a report as edited cannot decide, found by an outside attack on the morning review: a name typed in
 * since the report was written, a decision made after the copy was taken, a cell emptied to withdraw one; and
 * a REJECTED decision made under a stricter reading still stands when the same facts read MATCH.
 */
describe('review: what an edited copy of a report cannot decide', () => {
  const CITRA = { bankCode: '014', accountNumber: '0099887766', holderName: 'CITRA AYU MAHARANI', status: 'SUCCESS' };
  // A holder the bank gives starting with `-`: a CSV report writes it `'-RATNA...` (formula protection).
  const DASHED = { bankCode: '014', accountNumber: '0099887700', holderName: '-RATNA SARI DEWI', status: 'SUCCESS' };
  const INPUT = `${EXPORT}B-4,014,0099887766,Citra Maharani,75000\nB-5,014,0099887700,Ratna Sari,80000\n`;
  let world: World;
  let input: string;
  const strict = () => ({ ...world.env, NAME_MATCH_POLICY: 'strict' });
  const review = (path: string, by: string) => runCli(['review', path, '--by', by], strict());
  const edited = async (from: string, to: string, edit: (row: Record<string, string>) => Record<string, string>) =>
    writeFile(to, `\uFEFF${stringify((await readReport(from)).map(edit), { header: true })}`);

  beforeAll(async () => {
    world = await startWorld('review-edits', [...Object.values(ACCOUNTS), CITRA, DASHED]);
    input = join(world.folder, 'payouts.csv');
    await writeFile(input, INPUT);
  });
  afterAll(() => world?.close());

  it('refuses a decision for an expected name the report never compared with the holder', async () => {
    const report = join(world.folder, 'strict.csv');
    expect((await runCli(['run', input, '--out', report], strict())).code).toBe(0);
    const rows = await reportRows(report);
    expect([rows.get('B-2')?.result, rows.get('B-4')?.result]).toEqual(['CLOSE_MATCH', 'CLOSE_MATCH']);
    const renamed = join(world.folder, 'renamed.csv');
    await edited(report, renamed, (row) =>
      row.beneficiary_id === 'B-2' ? { ...row, beneficiary_name: 'Bambang Hartono', decision: 'APPROVED' } : row,
    );
    const result = await review(renamed, 'ratna');
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(
      "row 2 (B-2): refused: the expected name and the holder name give NO_MATCH (name_score 0), not this row's CLOSE_MATCH",
    );
    expect(await trailOf(world.redis, world.prefix)).toEqual([]);
  });

  it('keeps a decision made after a copy was taken, and says an emptied cell withdraws nothing', async () => {
    const report = join(world.folder, 'strict.csv');
    const budi = join(world.folder, 'budi.csv');
    const ratna = join(world.folder, 'ratna.csv');
    await edited(report, budi, (row) => (row.beneficiary_id === 'B-3' ? { ...row, decision: 'REJECTED' } : row));
    await edited(report, ratna, (row) => (row.beneficiary_id === 'B-3' ? { ...row, decision: 'APPROVED' } : row));
    expect((await review(budi, 'budi')).stdout).toContain('1 recorded');
    // Ratna's copy shows no decision on B-3: the one made since is not hers to change back.
    const late = await review(ratna, 'ratna');
    expect(late.code).toBe(3);
    expect(late.stdout).toMatch(/row 3 \(B-3\): refused: the decision changed after this report was written \(now REJECTED by budi, /);

    // The next report shows budi's decision; its cell emptied, the decision stands, and the person hears so.
    const next = join(world.folder, 'next.csv');
    expect((await runCli(['export', (await summaryOf(report)).batchId as string, '--out', next], strict())).code).toBe(0);
    expect((await reportRows(next)).get('B-3')?.decision).toBe('REJECTED');
    const emptied = join(world.folder, 'emptied.csv');
    await edited(next, emptied, (row) => (row.beneficiary_id === 'B-3' ? { ...row, decision: '' } : row));
    const withdrawn = await review(emptied, 'budi');
    expect(withdrawn.code).toBe(3);
    expect(withdrawn.stdout).toContain(
      'row 3 (B-3): refused: the decision cell is empty, but the report showed a decision by "budi": an emptied cell withdraws nothing',
    );
    // decided_by emptied with it (selected and deleted together): decided_at still shows the row had one.
    await edited(next, emptied, (row) => (row.beneficiary_id === 'B-3' ? { ...row, decision: '', decided_by: '' } : row));
    expect((await review(emptied, 'budi')).stdout).toContain(
      'row 3 (B-3): refused: the decision cell is empty, but the report showed a decision:',
    );
  });

  it('shows a REJECTED decision on facts that now read MATCH (made under a stricter reading): do not pay', async () => {
    const report = join(world.folder, 'strict.csv');
    const rejected = join(world.folder, 'citra.csv');
    await edited(report, rejected, (row) => (row.beneficiary_id === 'B-4' ? { ...row, decision: 'REJECTED' } : row));
    expect((await review(rejected, 'ratna')).stdout).toContain('1 recorded');
    // The standard reading: the same account, name and holder are MATCH, and the person's no still stands.
    const standard = join(world.folder, 'standard.csv');
    expect((await runCli(['run', input, '--out', standard], world.env)).code).toBe(0);
    const row = (await reportRows(standard)).get('B-4')!;
    expect(row).toMatchObject({ result: 'MATCH', decision: 'REJECTED', decided_by: 'ratna' });
    expect(row.reason).toContain('a REJECTED decision stands on this account, name and holder: do not pay');
    const summary = await summaryOf(standard);
    expect(summary.rejected).toBe(2);
    // `status` (and the console, by the same count) says so too, and --fail-on REJECTED catches it.
    const status = await runCli(['status', summary.batchId as string, '--json'], world.env);
    expect(JSON.parse(status.stdout).review).toMatchObject({ rejected: 2 });
    const failing = await runCli(['run', input, '--out', join(world.folder, 'standard-again.csv'), '--fail-on', 'REJECTED'], world.env);
    expect(failing.code, failing.stderr).toBe(3);
    // The report as written imports as it is (nothing changed), and the person may change their own no.
    const asWritten = join(world.folder, 'as-written.csv');
    await edited(standard, asWritten, (each) => each);
    const kept = await runCli(['review', asWritten, '--by', 'ratna'], world.env);
    expect(kept.code, kept.stdout).toBe(0);
    expect(kept.stdout).toContain('0 recorded');
    expect(kept.stdout).toContain('0 refused');
  });

  it('reads a report as a spreadsheet leaves it: a score saved as 85.0, a note column beside decision, a formula-like holder', async () => {
    // The latest report, of the standard reading.
    const report = join(world.folder, 'standard-again.csv');
    const rows = await readReport(report);
    const b2 = rows.find((row) => row.beneficiary_id === 'B-2')!;
    // A `decision_note` column put right after `decision`, and B-2's score as a spreadsheet may save it.
    const header = Object.keys(b2);
    const at = header.indexOf('decision') + 1;
    const withNote = [...header.slice(0, at), 'decision_note', ...header.slice(at)];
    const noted = join(world.folder, 'noted.csv');
    await writeFile(
      noted,
      `\uFEFF${stringify(
        rows.map((row) =>
          row.beneficiary_id === 'B-2'
            ? { ...row, name_score: `${row.name_score}.0`, decision: 'APPROVED', decision_note: 'her full name' }
            : row.beneficiary_id === 'B-5'
              ? { ...row, decision: 'REJECTED', decision_note: 'not her' }
              : { ...row, decision_note: '' },
        ),
        { header: true, columns: withNote },
      )}`,
    );
    const result = await runCli(['review', noted, '--by', 'budi'], world.env);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('row 2 (B-2): APPROVED recorded');
    expect(b2.name_score).not.toContain('.');
    expect(rows.find((row) => row.beneficiary_id === 'B-5')!.account_holder).toBe("'-RATNA SARI DEWI");
    expect(result.stdout).toContain('row 5 (B-5): REJECTED recorded');
    expect((await trailOf(world.redis, world.prefix)).find((entry) => entry.note === 'her full name')).toMatchObject({
      decision: 'APPROVED',
    });
  });
});
