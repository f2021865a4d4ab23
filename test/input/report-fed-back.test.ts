import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULT_COLUMNS } from '../../src/csv/report-columns.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { emulatorEnvironment, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';

/**
 * A report fed back as input (issue 25, defect 2). Ops re-check yesterday's report: `run
 * day1.reconciled.csv`. Before, `account_holder` (the bank's answer in a report) was an expected-name
 * alias listed before `beneficiary_name`, so day 2 compared the bank's holder with itself (NO_MATCH became
 * MATCH 100), and the day-2 report had `result`, `account_holder`, `reason`... twice, the first stale.
 */
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;

const DAY1 = [
  'beneficiary_id,bank_code,account_number,beneficiary_name',
  'B-1,014,0012345678,Budi Santoso',
  'B-2,014,1234567890,Dewi Lestari',
  'B-3,014,9990001112,Rina Marlina',
].join('\n');
const INPUT_COLUMNS = ['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name'];

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: [
      { bankCode: '014', accountNumber: '0012345678', holderName: 'ANDI WIJAYA KUSUMA', status: 'SUCCESS' },
      { bankCode: '014', accountNumber: '1234567890', holderName: 'DEWI LESTARI', status: 'SUCCESS' },
      { bankCode: '014', accountNumber: '9990001112', holderName: 'RINA MARLINA', status: 'PENDING' },
    ],
  });
  workDir = await mkdtemp(join(tmpdir(), 'bc-fed-back-'));
});

beforeEach(() => sandbox.resetStats());

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

const env = () => emulatorEnvironment(prefix, sandbox.url, { INQUIRY_RATE: '200/s' });
const headerOf = async (path: string) => (parse(await readFile(path), { bom: true, to_line: 1 }) as string[][])[0]!;

async function checkDay1(out: string): Promise<void> {
  const input = join(workDir, 'day1.csv');
  await writeFile(input, `${DAY1}\n`);
  const day1 = await runCli(['run', input, '--out', out], env());
  expect(day1.code, day1.stderr).toBe(0);
}

describe('a report fed back as input', () => {
  it('is read by its original columns: the bank holder is never the expected name, each column once, the stale results replaced', async () => {
    const day1Report = join(workDir, 'day1.reconciled.csv');
    await checkDay1(day1Report);
    expect((await readReport(day1Report)).map((row) => row.result)).toEqual(['NO_MATCH', 'MATCH', 'FAILED']);
    sandbox.resetStats();

    const day2Report = join(workDir, 'day2.reconciled.csv');
    const day2 = await runCli(['run', day1Report, '--out', day2Report], env());
    expect(day2.code, day2.stderr).toBe(0);
    expect(sandbox.stats().inquiries).toBe(3);
    const header = await headerOf(day2Report);
    expect(header).toEqual([...INPUT_COLUMNS, ...RESULT_COLUMNS]);
    expect((await readReport(day2Report)).map((row) => [row.beneficiary_id, row.result, row.name_score, row.account_holder])).toEqual([
      ['B-1', 'NO_MATCH', '0', 'ANDI WIJAYA KUSUMA'],
      ['B-2', 'MATCH', '100', 'DEWI LESTARI'],
      ['B-3', 'FAILED', '', ''], // an unfinished answer (PENDING) never shows a holder name
    ]);

    // Which column was read for each role: on the progress output, in the printed summary and the JSON.
    const roles = 'bank code "bank_code", account number "account_number", expected name "beneficiary_name"';
    expect(day2.stderr).toContain(`reading ${roles}; the columns of an earlier report (${RESULT_COLUMNS.join(', ')}) are not read`);
    expect(day2.stdout).toContain(`columns read: ${roles}`);
    const summary = JSON.parse(await readFile(day2Report.replace(/\.csv$/, '.summary.json'), 'utf8'));
    expect(summary.columns).toEqual({ bankCode: 'bank_code', accountNumber: 'account_number', expectedName: 'beneficiary_name' });
    expect(summary.replacedColumns).toEqual([...RESULT_COLUMNS]);
  });

  it('a reviewed report (decision columns) and a workbook report are read the same way', async () => {
    const day1Book = join(workDir, 'day1.reconciled.xlsx');
    await checkDay1(day1Book);
    const fromBook = join(workDir, 'from-book.csv');
    const again = await runCli(['run', day1Book, '--out', fromBook], env());
    expect(again.code, again.stderr).toBe(0);
    expect(await headerOf(fromBook)).toEqual([...INPUT_COLUMNS, ...RESULT_COLUMNS]);
    expect((await readReport(fromBook)).map((row) => row.result)).toEqual(['NO_MATCH', 'MATCH', 'FAILED']);

    const reviewed = join(workDir, 'reviewed.csv');
    const lines = (await readFile(fromBook, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    await writeFile(
      reviewed,
      [
        `${lines[0]},decision,decided_by,decided_at`,
        ...lines.slice(1).map((line, index) => `${line},${index === 0 ? 'REJECTED,ops,2026-11-20' : ',,'}`),
      ].join('\n'),
    );
    const fromReviewed = join(workDir, 'from-reviewed.csv');
    const third = await runCli(['run', reviewed, '--out', fromReviewed], env());
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain('decisions written in it are not recorded (record them with `review`');
    expect(JSON.parse(await readFile(fromReviewed.replace(/\.csv$/, '.summary.json'), 'utf8')).notes).toEqual([
      "the file is an earlier report: its result and decision columns are not read, and decisions written in it are not recorded (record them with `review`, or in a watched folder's reviews/)",
    ]);
    expect(await headerOf(fromReviewed)).toEqual([...INPUT_COLUMNS, ...RESULT_COLUMNS]);
    expect((await readReport(fromReviewed)).map((row) => row.result)).toEqual(['NO_MATCH', 'MATCH', 'FAILED']);
  });

  it("a file that is not a report but names a column like one of the report's is refused (exit 2), nothing asked", async () => {
    const file = join(workDir, 'partner.csv');
    await writeFile(file, 'bank_code,account_number,account_holder\n014,0012345678,Budi Santoso\n');
    const result = await runCli(['run', file, '--out', join(workDir, 'partner.out.csv')], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"account_holder" have the name of a column this product writes into its report');
    expect(result.stderr).toContain('Rename them');
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('never reads an output column for a role, even when a flag names it', async () => {
    const day1Report = join(workDir, 'flag.reconciled.csv');
    await checkDay1(day1Report);
    sandbox.resetStats();
    const result = await runCli(['run', day1Report, '--out', join(workDir, 'flag.out.csv'), '--name-column', 'account_holder'], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('column "account_holder" given for the expected name is a column this product writes into its report');
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('refuses two columns of one name (exit 2) instead of reading the first', async () => {
    const file = join(workDir, 'twice.csv');
    await writeFile(file, 'id,bank_code,account_number,name,Account Number\n1,014,0012345678,Budi Santoso,1234567890\n');
    const result = await runCli(['run', file, '--out', join(workDir, 'twice.out.csv')], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the header names two columns alike, "account_number", "Account Number" (columns 3 and 5)');
    expect(sandbox.stats().inquiries).toBe(0);
  });
});
