import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { unzipSync, strFromU8 } from 'fflate';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/redis/keys.js';
import { RESULT_COLUMNS } from '../../src/report/row-result.js';
import { runCli } from '../support/cli.js';
import { readReport } from '../support/report.js';
import { startWorld, type World } from './world.js';

const ACCOUNTS = [
  { bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' },
  { bankCode: '014', accountNumber: '0000123456789012', holderName: 'SITI NURHALIZA', status: 'SUCCESS' },
  { bankCode: '008', accountNumber: '1234567890123456', holderName: 'PT SUMBER REJEKI ABADI', status: 'SUCCESS' },
  { bankCode: '009', accountNumber: '0881234567', holderName: 'AGUS WIJAYA', status: 'SUCCESS' },
];

/**
 * An independent reader: the workbook is unzipped with fflate and its sheet XML read here, not through
 * exceljs. Returns the first sheet's rows as text, and the raw parts for the layout checks.
 */
function readWorkbook(bytes: Uint8Array): { rows: string[][]; sheet: string; styles: string; styleOf: (ref: string) => number } {
  const parts = unzipSync(bytes);
  const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!);
  const styles = strFromU8(parts['xl/styles.xml']!);
  const shared = parts['xl/sharedStrings.xml']
    ? [...strFromU8(parts['xl/sharedStrings.xml']).matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => textOf(m[1]!))
    : [];
  const rows: string[][] = [];
  const styleByRef = new Map<string, number>();
  for (const [, body] of sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: string[] = [];
    for (const [, attributes, content] of body!.matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const ref = /r="([A-Z]+)(\d+)"/.exec(attributes!)!;
      const column = [...ref[1]!].reduce((total, letter) => total * 26 + letter.charCodeAt(0) - 64, 0) - 1;
      const type = /t="([^"]+)"/.exec(attributes!)?.[1];
      styleByRef.set(`${ref[1]}${ref[2]}`, Number(/s="(\d+)"/.exec(attributes!)?.[1] ?? 0));
      const value = /<v>([\s\S]*?)<\/v>/.exec(content ?? '')?.[1];
      cells[column] = type === 's' ? shared[Number(value)]! : type === 'inlineStr' ? textOf(content ?? '') : decode(value ?? '');
    }
    rows.push(Array.from(cells, (cell) => cell ?? ''));
  }
  return { rows, sheet, styles, styleOf: (ref) => styleByRef.get(ref) ?? 0 };
}
const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const textOf = (xml: string) => [...xml.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((m) => decode(m[1]!)).join('');

describe('Excel-native files', () => {
  let world: World;
  let redis: Redis;
  let prefix: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    world = await startWorld('xlsx', ACCOUNTS);
    ({ redis, prefix, folder, env } = world);
  });
  afterAll(() => world?.close());

  it('writes a workbook where every account number, bank code and id is the same text, header frozen and filtered, result coloured', async () => {
    const source = [
      ['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name', 'notes'],
      ['000017', '014', '0012345678', 'Budi Santoso', '=HYPERLINK("http://example.invalid","click")'],
      ['000018', '014', '0000123456789012', 'Siti Nurhaliza', '-5000'],
      ['000019', '008', '1234567890123456', 'Dewi Lestari', '+62 812'],
      ['000020', '009', '0881234567', 'Agus Wijaya', '@home'],
      ['000021', '014', '1.23457E+11', 'Somebody', ''],
    ];
    await writeFile(join(folder, 'payouts.csv'), stringify(source));
    const out = join(folder, 'payouts.reconciled.xlsx');
    const result = await runCli(['run', join(folder, 'payouts.csv'), '--out', out], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`summary: ${join(folder, 'payouts.reconciled.summary.json')}`);
    const { rows, sheet, styles, styleOf } = readWorkbook(await readFile(out));
    expect(rows[0]).toEqual([...source[0]!, ...RESULT_COLUMNS]);
    expect(rows).toHaveLength(source.length);
    for (const [index, row] of rows.slice(1).entries()) {
      // Every input cell is the same text: ids and account numbers with their zeros and all 16 digits, bank codes, and
      // formula-like notes as written (a workbook cell written as a value is never a formula: no neutralising apostrophe).
      expect(row.slice(0, 5)).toEqual(source[index + 1]);
    }
    expect(rows.slice(1).map((row) => row[5])).toEqual(['MATCH', 'MATCH', 'NO_MATCH', 'MATCH', 'INPUT_INVALID']);
    expect(rows[1]![4]).toBe('=HYPERLINK("http://example.invalid","click")');
    expect(sheet).not.toMatch(/<f[ >]/); // no formula anywhere
    expect(sheet).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
    expect(sheet).toContain(`<autoFilter ref="A1:${String.fromCharCode(64 + rows[0]!.length)}1"/>`);
    // Every cell has the Text format (49), so Excel keeps what is typed into it as text too; results carry their colour.
    const xfs = [.../<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)![1]!.matchAll(/<xf [^>]*>/g)].map((m) => m[0]);
    const fills = [.../<fills[^>]*>([\s\S]*?)<\/fills>/.exec(styles)![1]!.matchAll(/<fill>([\s\S]*?)<\/fill>/g)].map((m) => m[1]!);
    const fillOf = (ref: string) => fills[Number(/fillId="(\d+)"/.exec(xfs[styleOf(ref)]!)?.[1] ?? 0)]!;
    for (const ref of ['A2', 'B2', 'C2', 'C3', 'C4', 'E2', 'F2', 'K2', 'O2']) expect(xfs[styleOf(ref)], ref).toContain('numFmtId="49"');
    expect(fillOf('F2')).toContain('FFC6EFCE'); // MATCH: green
    expect(fillOf('F4')).toContain('FFFFC7CE'); // NO_MATCH: red
    expect(fillOf('F6')).toContain('FFD9D9D9'); // INPUT_INVALID: grey
    expect(fillOf('C2')).not.toContain('FFC6EFCE');
    const summary = JSON.parse(await readFile(join(folder, 'payouts.reconciled.summary.json'), 'utf8'));
    expect(summary).toMatchObject({ report: out, rows: 5, counts: { MATCH: 3, NO_MATCH: 1, INPUT_INVALID: 1 } });
  });

  it('reads a workbook as input (first sheet, cells as Excel shows them) end to end; its content is its bytes', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Payees');
    workbook.addWorksheet('Notes').addRow(['not read']);
    sheet.addRow(['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name']);
    sheet.addRow(['P-1', '014', '0012345678', 'Budi Santoso']);
    sheet.addRow(['P-2', '014', '0000123456789012', 'Siti Nurhaliza']);
    sheet.addRow([]);
    const padded = sheet.addRow(['P-3', '009', 881234567, { richText: [{ text: 'Agus ' }, { text: 'Wijaya' }] }]);
    padded.getCell(3).numFmt = '0000000000';
    sheet.addRow(['P-4', '008', 1234567890123456, 'Rounded By Excel']);
    sheet.addRow(['P-5', '008', 123456789012, 'General Format']);
    const path = join(folder, 'payees.xlsx');
    await workbook.xlsx.writeFile(path);

    const result = await runCli(['run', path], env);
    expect(result.code, result.stderr).toBe(0);
    const rows = await readReport(join(folder, 'payees.reconciled.csv'));
    expect(rows.map((row) => [row.beneficiary_id, row.account_number, row.beneficiary_name, row.result])).toEqual([
      ['P-1', '0012345678', 'Budi Santoso', 'MATCH'],
      ['P-2', '0000123456789012', 'Siti Nurhaliza', 'MATCH'],
      ['P-3', '0881234567', 'Agus Wijaya', 'MATCH'],
      ['P-4', '1.23457E+15', 'Rounded By Excel', 'INPUT_INVALID'],
      ['P-5', '1.23457E+11', 'General Format', 'INPUT_INVALID'],
    ]);
    expect(rows[3]!.reason).toContain('scientific notation');
    const summary = JSON.parse(await readFile(join(folder, 'payees.reconciled.summary.json'), 'utf8'));
    const contentHash = await redis.hget(redisKeys(prefix).batch(summary.batchId), 'contentHash');
    expect(contentHash).toBe(
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    );
  });

  // An outside tester: a formula a program wrote without its value read as empty (a named payee's row came out
  // VERIFIED), sections and quoted zeros lost an account's zeros, and #N/A, TRUE or a date as a name went to the
  // name comparison.
  it('reads formulas never computed, error cells, booleans and dates in a read column as INPUT_INVALID naming the cell; formats with sections and literals with their zeros', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Payees');
    sheet.addRow(['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name', 'note']);
    sheet.addRow(['P-1', '014', '0012345678', { formula: 'F2&" "&G2' }, 'name never computed']);
    sheet.addRow(['P-2', '009', { formula: 'TEXT(F3,"0000000000")' }, 'Agus Wijaya', 'account never computed']);
    sheet.addRow(['P-3', '014', 12345678, 'Budi Santoso', { formula: 'F4&"x"' }]).getCell(3).numFmt = '0000000000;-0000000000';
    sheet.addRow(['P-4', '009', 881234567, 'Agus Wijaya', 'quoted zero']).getCell(3).numFmt = '"0"0';
    sheet.addRow(['P-5', '014', '0012345678', { error: '#N/A' }, 'lookup failed']);
    sheet.addRow(['P-6', '014', '0012345678', true, 'boolean']);
    sheet.addRow(['P-7', '014', '0012345678', new Date(Date.UTC(2026, 10, 21)), 'date']);
    sheet.addRow(['P-8', '014', '0012345678', { formula: 'F9', result: 'Budi Santoso' }, 'cached value']);
    sheet.addRow(['P-9', '014', 12345678, 'Budi Santoso', 'condition']).getCell(3).numFmt = '[>100]0000000000;0';
    const path = join(folder, 'formulas.xlsx');
    await workbook.xlsx.writeFile(path);

    const result = await runCli(['run', path], env);
    expect(result.code, result.stderr).toBe(0);
    const rows = await readReport(join(folder, 'formulas.reconciled.csv'));
    expect(rows.map((row) => [row.beneficiary_id, row.result])).toEqual([
      ['P-1', 'INPUT_INVALID'],
      ['P-2', 'INPUT_INVALID'],
      ['P-3', 'MATCH'],
      ['P-4', 'MATCH'],
      ['P-5', 'INPUT_INVALID'],
      ['P-6', 'INPUT_INVALID'],
      ['P-7', 'INPUT_INVALID'],
      ['P-8', 'MATCH'],
      ['P-9', 'INPUT_INVALID'],
    ]);
    const reason = (id: string) => rows.find((row) => row.beneficiary_id === id)!.reason;
    expect(reason('P-1')).toMatch(
      /^cell D2 \(the expected name\) holds a formula that was never computed \(=F2&" "&G2\): .*open and save the workbook in Excel or LibreOffice, or export the sheet as CSV/,
    );
    expect(reason('P-2')).toMatch(/^cell C3 \(the account number\) holds a formula that was never computed/);
    expect(reason('P-5')).toMatch(/^cell D6 \(the expected name\) holds the Excel error #N\/A/);
    expect(reason('P-6')).toContain(`the expected name "TRUE" is a spreadsheet's TRUE/FALSE value`);
    expect(reason('P-7')).toContain('the expected name "2026-11-21" has no letter');
    expect(reason('P-9')).toMatch(/^cell C10 \(the account number\) holds the number 12345678 in the number format "\[>100\]0000000000;0"/);
    // What the workbook held is what the report shows: the zeros the format shows, the formula never computed.
    expect(rows.find((row) => row.beneficiary_id === 'P-3')).toMatchObject({
      account_number: '0012345678',
      account_number_checked: '0012345678',
      note: '#CELL! E4 formula never computed: =F4&"x"',
    });
    expect(rows.find((row) => row.beneficiary_id === 'P-4')!.account_number_checked).toBe('0881234567');

    // The same error value as a CSV saved by Excel writes it: the same rule.
    await writeFile(
      join(folder, 'errors.csv'),
      stringify([
        ['bank_code', 'account_number', 'beneficiary_name'],
        ['014', '0012345678', '#N/A'],
        ['#REF!', '0012345678', 'Budi Santoso'],
      ]),
    );
    const csv = await runCli(['run', join(folder, 'errors.csv')], env);
    expect(csv.code, csv.stderr).toBe(0);
    const csvRows = await readReport(join(folder, 'errors.reconciled.csv'));
    expect(csvRows.map((row) => [row.result, row.reason])).toEqual([
      ['INPUT_INVALID', expect.stringMatching(/^the expected name is Excel's error value #N\/A: /)],
      ['INPUT_INVALID', expect.stringMatching(/^the bank code is Excel's error value #REF!: /)],
    ]);
  });

  it('refuses a legacy .xls or a broken workbook as a usage error, naming it', async () => {
    await writeFile(
      join(folder, 'old.xls'),
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]),
    );
    const legacy = await runCli(['run', join(folder, 'old.xls')], env);
    expect(legacy.code).toBe(2);
    expect(legacy.stderr).toContain(
      'is a legacy Excel workbook (.xls) or a workbook protected by a password: save it as .xlsx without a password, or as CSV (UTF-8)',
    );
    await writeFile(join(folder, 'broken.xlsx'), Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100, 7)]));
    const broken = await runCli(['run', join(folder, 'broken.xlsx')], env);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${join(folder, 'broken.xlsx')} is a zip file but not a readable XLSX workbook`);
  });
});
