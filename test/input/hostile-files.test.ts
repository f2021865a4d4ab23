import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT, runCli, type CliResult } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';

/**
 * The hostile-input suite: files a careless export, a broken tool or an attacker produces. Every file must
 * end in one of two ways: exit 2 with one clear line (no stack trace, no full account number), or exit 0
 * with a report holding every input row exactly once, in order, where no cell starts a formula in any
 * reader (not even one that splits rows on a bare line break). Each data row carries an `id` (`r1`, `r2`,
 * ...) so the report's rows can be checked against the rows written.
 */
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;

type Expect = 'report' | 'refuse' | 'either';
interface HostileFile {
  name: string;
  bytes: Buffer;
  expect: Expect;
  /** The ids of the data rows, in order (for a report). */
  ids: string[];
  /** The report's delimiter. */
  delimiter?: string;
}

const HEADER = 'id,bank_code,account_number,name,note';
const GOOD = (id: string) => `${id},014,0012345678,Budi Santoso,ok`;
const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** A CSV of rows `r1..rN` built from a line template. */
function rowsFile(
  name: string,
  lines: Array<(id: string) => string>,
  options: { header?: string; eol?: string; expect?: Expect; encode?: (text: string) => Buffer; delimiter?: string } = {},
): HostileFile {
  const ids = lines.map((_, index) => `r${index + 1}`);
  const eol = options.eol ?? '\n';
  const text = `${options.header ?? HEADER}${eol}${lines.map((line, index) => line(ids[index]!)).join(eol)}${eol}`;
  return {
    name,
    bytes: (options.encode ?? utf8)(text),
    expect: options.expect ?? 'report',
    ids,
    ...(options.delimiter && { delimiter: options.delimiter }),
  };
}

const refuse = (name: string, bytes: Buffer): HostileFile => ({ name, bytes, expect: 'refuse', ids: [] });
const either = (file: HostileFile): HostileFile => ({ ...file, expect: 'either' });
const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const withCell = (column: 'bank' | 'account' | 'name' | 'note', value: string) => (id: string) => {
  const cells = { bank: '014', account: '0012345678', name: 'Budi Santoso', note: 'ok', [column]: value };
  return [id, cells.bank, cells.account, cells.name, cells.note].map(field).join(',');
};

const FORMULAS = [
  '=1+1',
  '+1+1',
  '-1+1',
  '@SUM(A1)',
  '\t=1+1',
  '\r=1+1',
  '=HYPERLINK("http://evil.invalid","x")',
  "=cmd|' /C calc'!A0",
  'x\n=1+1',
  'x\r\n@SUM(1)',
  'x\r-2+3',
];

const hostileFiles: HostileFile[] = [
  // Nothing to read.
  refuse('empty.csv', Buffer.alloc(0)),
  refuse('only-bom.csv', Buffer.from([0xef, 0xbb, 0xbf])),
  refuse('only-blank-lines.csv', utf8('\n\r\n\n   \n')),
  { name: 'header-only.csv', bytes: utf8(`${HEADER}\n`), expect: 'report', ids: [] },
  { name: 'header-only-no-newline.csv', bytes: utf8(HEADER), expect: 'report', ids: [] },
  // Not text.
  refuse('binary.csv', Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 256))),
  // A transfer sheet: the payer's own account beside the payee's (the first alias used to win: the source was asked).
  refuse(
    'transfer-sheet-source-and-destination.csv',
    utf8('No,Kode Bank,No Rekening,Kode Bank Tujuan,No Rekening Tujuan,Nama Penerima\n1,014,1234509876,009,1122334455,Dewi Lestari\n'),
  ),
  // A web application's "export to Excel": an HTML table named .xls (read as CSV it failed on a quote in the markup).
  refuse(
    'html-export.xls',
    utf8(
      '<html><head><meta http-equiv="Content-Type" content="text/html"></head><body><table><tr><td>bank_code</td></tr></table></body></html>\n',
    ),
  ),
  refuse('png.csv', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)])),
  refuse('pdf.csv', utf8('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n')),
  refuse('zip-not-workbook.csv', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)])),
  refuse('gzip.csv', gzipSync(utf8(`${HEADER}\n${GOOD('r1')}\n`))),
  refuse('legacy-xls.csv', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)])),
  refuse('nul-in-text.csv', Buffer.concat([utf8(`${HEADER}\n${GOOD('r1')}\n`), Buffer.from([0]), utf8(`${GOOD('r2')}\n`)])),
  refuse('utf16le-no-bom.csv', iconv.encode(`${HEADER}\n${GOOD('r1')}\n`, 'utf-16le')),
  // Encodings.
  rowsFile('utf16le-bom.csv', [GOOD, withCell('name', 'José Ramos'), GOOD], {
    encode: (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]),
  }),
  rowsFile('utf16be-bom.csv', [GOOD, withCell('name', 'Ñoño Pérez')], {
    encode: (text) => Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(text, 'utf-16be')]),
  }),
  rowsFile('windows-1252.csv', [withCell('name', 'José Ramos'), withCell('note', 'Café € – “quoted”'), GOOD], {
    encode: (text) => iconv.encode(text, 'windows-1252'),
  }),
  rowsFile('utf8-bom.csv', [GOOD, withCell('name', 'Dewi 😀 Lestari')], {
    encode: (text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(text)]),
  }),
  refuse(
    'neither-utf8-nor-1252.csv',
    Buffer.concat([utf8(`${HEADER}\n${GOOD('r1')}\nr2,014,0012345678,Bud`), Buffer.from([0x81, 0x9d]), utf8(',x\n')]),
  ),
  refuse(
    'utf8-bom-then-invalid.csv',
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(`${HEADER}\nr1,014,0012345678,Jos`), Buffer.from([0xe9]), utf8(',x\n')]),
  ),
  refuse(
    'utf8-mixed-with-1252.csv',
    Buffer.concat([utf8(`${HEADER}\nr1,014,0012345678,José,x\nr2,014,0012345678,Jos`), Buffer.from([0xe9]), utf8(',x\n')]),
  ),
  either(
    rowsFile('overlong-utf8.csv', [GOOD, (id) => `${id},014,0012345678,Bud\u00c0\u0080i,x`], {
      encode: (text) => iconv.encode(text, 'latin1'),
    }),
  ),
  // Quotes and sizes.
  refuse('unbalanced-quote-at-end.csv', utf8(`${HEADER}\n${GOOD('r1')}\nr2,014,0012345678,"Budi Santoso,ok\n`)),
  refuse('unbalanced-quote-mid-file.csv', utf8(`${HEADER}\nr1,014,"0012345678,Budi,ok\n${GOOD('r2')}\n${GOOD('r3')}\n`)),
  either(rowsFile('quote-inside-field.csv', [GOOD, (id) => `${id},014,0012345678,Budi "Bud" Santoso,ok`])),
  refuse('quote-after-closing-quote.csv', utf8(`${HEADER}\nr1,014,"0012345678"9,Budi,ok\n`)),
  refuse('huge-field.csv', utf8(`${HEADER}\nr1,014,0012345678,"${'A'.repeat(2 * 1024 * 1024)}",ok\n`)),
  refuse('huge-header.csv', utf8(`${Array.from({ length: 120_000 }, (_, index) => `column_${index}`).join(',')}\n1,2\n`)),
  refuse('wide-header-missing-columns.csv', utf8(`${Array.from({ length: 5_000 }, (_, index) => `c${index}`).join(',')}\n1,2\n`)),
  rowsFile('long-name.csv', [withCell('name', `Budi ${'Santoso '.repeat(1_500)}`), GOOD]),
  rowsFile('long-note.csv', [withCell('note', 'x'.repeat(40_000)), GOOD]),
  // Line endings.
  rowsFile(
    'crlf-header-lf-rows.csv',
    Array.from({ length: 300 }, () => GOOD),
    { header: `${HEADER}\r` },
  ),
  rowsFile('cr-only.csv', [GOOD, GOOD, withCell('name', 'Dewi Lestari')], { eol: '\r' }),
  rowsFile('crlf.csv', [GOOD, GOOD], { eol: '\r\n' }),
  { name: 'no-final-newline.csv', bytes: utf8(`${HEADER}\n${GOOD('r1')}\n${GOOD('r2')}`), expect: 'report', ids: ['r1', 'r2'] },
  {
    name: 'blank-lines-between.csv',
    bytes: utf8(`\n\n${HEADER}\n\n${GOOD('r1')}\n\r\n\n${GOOD('r2')}\n\n`),
    expect: 'report',
    ids: ['r1', 'r2'],
  },
  // Formulas in every column, at the start and after a line break.
  ...(['bank', 'account', 'name', 'note'] as const).map((column) =>
    rowsFile(
      `formulas-in-${column}.csv`,
      FORMULAS.map((value) => withCell(column, value)),
    ),
  ),
  rowsFile('formula-header.csv', [GOOD], { header: 'id,bank_code,account_number,name,"=HYPERLINK(""x"")"' }),
  rowsFile('html-in-name.csv', [withCell('name', '<script>alert(1)</script>'), withCell('note', '<img src=x onerror=alert(1)>')]),
  // Account numbers and bank codes people and spreadsheets write.
  rowsFile(
    'scientific-notation.csv',
    ['1.23457E+11', '1,23457E+11', '9.87e10', '-1.2E+10'].map((value) => withCell('account', value)),
  ),
  rowsFile(
    'signs-and-decimals.csv',
    ['-12345678', '+12345678', '1234567890.0', '1234567890,00', '123456.78', '1.234.567,89'].map((value) => withCell('account', value)),
  ),
  rowsFile(
    'non-ascii-digits.csv',
    ['١٢٣٤٥٦٧٨', '۱۲۳۴۵۶۷۸', '１２３４５６７８', '१२३४५६७८'].map((value) => withCell('account', value)),
  ),
  rowsFile(
    'separators.csv',
    ['0012-3456-78', '0012 3456 78', '0012.3456.78', '0012\u00a03456\u00a078', '0012--3456', '0012-3456.78', '12345678-'].map((value) =>
      withCell('account', value),
    ),
  ),
  rowsFile(
    'account-lengths.csv',
    ['1234', '12345', '12345678901234567890', '123456789012345678901', '0000000', ' '].map((value) => withCell('account', value)),
  ),
  rowsFile(
    'account-letters.csv',
    ['12345ABC', '1234O678', 'IBAN ID12 3456', '0x1234567'].map((value) => withCell('account', value)),
  ),
  rowsFile(
    'odd-bank-codes.csv',
    ['BCA!', 'b c a', 'ＢＣＡ', 'bca\u200b', 'bca:014', '014/1', 'bank_jatim', 'ID_BCA', 'b'.repeat(60), ''].map((value) =>
      withCell('bank', value),
    ),
  ),
  rowsFile('empty-cells.csv', [(id) => `${id},,,,`, (id) => `${id},  ,  ,  ,  `, GOOD]),
  rowsFile('unicode-names.csv', [
    withCell('name', 'عبد الله'),
    withCell('name', '陈小明'),
    withCell('name', 'Zoë Ångström'),
    withCell('name', 'Ｂｕｄｉ'),
    withCell('name', 'Budi\u200bSantoso'),
  ]),
  rowsFile('control-characters.csv', [withCell('note', 'bell\u0007here'), withCell('name', 'Budi\u001bSantoso')]),
  // Headers.
  // Two columns of one name: which one holds the bank code would be a guess (the first silently won before).
  refuse('duplicate-header-names.csv', utf8(`id,bank_code,account_number,name,bank_code\nr1,014,0012345678,Budi Santoso,009\n`)),
  refuse(
    'duplicate-header-names-loosely.csv',
    utf8(`id,bank_code,Account Number,name,account_number\nr1,014,0012345678,Budi Santoso,1234567890\n`),
  ),
  // A report of this product fed back (issue 25): read by its original columns, each column once in the new report.
  rowsFile(
    'report-fed-back.csv',
    [
      (id) => `${id},014,0012345678,Budi Santoso,ok,MATCH,100,BUDI SANTOSO,BCA,6500,SUCCESS,7,2026-11-20T01:02:03.000000Z,,NEW,0012345678`,
      (id) =>
        `${id},014,1234567890,Somebody Else,ok,NO_MATCH,0,DEWI LESTARI,BCA,6500,SUCCESS,8,2026-11-20T01:02:04.000000Z,word does not match,NEW,1234567890`,
    ],
    {
      header: `${HEADER},result,name_score,account_holder,bank_name,fee,inquiry_status,inquiry_id,checked_at,reason,change,account_number_checked`,
    },
  ),
  rowsFile('report-fed-back-twice-bug.csv', [(id) => `${id},014,0012345678,Budi Santoso,ok,NO_MATCH,0,ANDI,MATCH,100,BUDI SANTOSO`], {
    header: `${HEADER},result,name_score,account_holder,result,name_score,account_holder`,
  }),
  refuse('output-column-name-in-partner-file.csv', utf8(`id,bank_code,account_number,account_holder\nr1,014,0012345678,Budi Santoso\n`)),
  // A last row cut short (the transfer stopped mid-row, no line end): refused, never asked.
  refuse('cut-last-row.csv', utf8(`${HEADER}\n${GOOD('r1')}\nr2,014,00123`)),
  refuse('cut-last-row-crlf.csv', utf8(`${HEADER}\r\n${GOOD('r1')}\r\nr2,014,0012345678,Bu`)),
  refuse('cut-last-row-semicolon.csv', utf8(`id;bank_code;account_number;name;note\nr1;014;0012345678;Budi;ok\nr2;014`)),
  // Cut after the bank code, and a line end added (an editor, a tool): it may be cut in a value read.
  refuse('cut-after-line-end.csv', utf8(`${HEADER}\n${GOOD('r1')}\nr2,014\n`)),
  refuse('required-columns-missing.csv', utf8('id,nama,catatan\nr1,Budi,x\n')),
  refuse('no-header-row.csv', utf8('014,0012345678,Budi Santoso\n014,1234567890,Dewi Lestari\n')),
  rowsFile('indonesian-header.csv', [(id) => `${id};014;0012345678;Budi Santoso;ok`], {
    header: 'ID;  Kode Bank ;No Rekening;NAMA PEMILIK;Catatan',
    delimiter: ';',
  }),
  rowsFile('padded-header.csv', [GOOD], { header: '"id"," Bank_Code ","Account-Number","  name  ",note' }),
  either(
    rowsFile('double-bom-header.csv', [GOOD], {
      encode: (text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), utf8(text)]),
    }),
  ),
  {
    name: 'tab-separated-without-sep-line.csv',
    bytes: utf8('id\tbank_code\taccount_number\nr1\t014\t0012345678\n'),
    expect: 'report',
    ids: ['r1'],
    delimiter: '\t',
  },
  // Cells beyond the header.
  rowsFile('extra-cells.csv', [GOOD, (id) => `${GOOD(id)},unexpected,1234567890`, (id) => `${GOOD(id)},,,,`]),
  // Short rows, the last one no shorter than the row before it (a shorter last one may be cut: cut-after-line-end).
  rowsFile('short-rows.csv', [(id) => `${id},014,0012345678`, (id) => `${id},014`, (id) => `${id},014,0012345678`]),
  // Excel's sep= line, BOM and ;.
  rowsFile('sep-semicolon.csv', [(id) => `${id};014;0012345678;Budi Santoso;ok`], {
    header: 'sep=;\r\nid;bank_code;account_number;name;note',
    eol: '\r\n',
    delimiter: ';',
  }),
  rowsFile('sep-comma-with-semicolons-inside.csv', [(id) => `${id},014,0012345678,Budi Santoso,a;b;c`], {
    header: 'sep=,\nid,bank_code,account_number,name,note',
  }),
  rowsFile('sep-tab.csv', [(id) => `${id}\t014\t0012345678\tBudi Santoso\tok`], {
    header: 'sep=\t\nid\tbank_code\taccount_number\tname\tnote',
    delimiter: '\t',
  }),
  refuse('sep-pipe.csv', utf8('sep=|\nid|bank_code|account_number\nr1|014|0012345678\n')),
  rowsFile('bom-semicolon.csv', [(id) => `${id};014;0012345678;"Budi; Santoso";ok`], {
    encode: (text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(text)]),
    header: 'id;bank_code;account_number;name;note',
    delimiter: ';',
  }),
  // Many rows over few accounts.
  rowsFile(
    'many-rows.csv',
    Array.from({ length: 3_000 }, (_, index) => (index % 2 === 0 ? GOOD : withCell('name', 'Dewi Lestari'))),
  ),
];

/** Runs every file through the CLI, a few at a time. */
async function runAll(files: HostileFile[], parallel: number): Promise<Map<string, { result: CliResult; out: string }>> {
  const results = new Map<string, { result: CliResult; out: string }>();
  let next = 0;
  const env = cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    INQUIRY_RATE: '1000/s',
  });
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < files.length) {
        const file = files[next++]!;
        const path = join(workDir, 'in', file.name);
        const out = join(workDir, 'out', `${file.name}.reconciled.csv`);
        await writeFile(path, file.bytes);
        results.set(file.name, { result: await runCli(['run', path, '--out', out], env, 120_000), out });
      }
    }),
  );
  return results;
}

const PLAIN_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

let results: Map<string, { result: CliResult; out: string }>;

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-hostile-'));
  await mkdir(join(workDir, 'in'));
  await mkdir(join(workDir, 'out'));
  results = await runAll(hostileFiles, 4);
}, 600_000);

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

describe('hostile input files', () => {
  it('has at least 60 of them', () => expect(hostileFiles.length).toBeGreaterThanOrEqual(60));

  it.each(hostileFiles.map((file) => [file.name, file] as const))(
    '%s: a clear exit 2, or a report with every row once, in order, and no live formula',
    async (name, file) => {
      const { result, out } = results.get(name)!;
      const allowed = file.expect === 'report' ? [0] : file.expect === 'refuse' ? [2] : [0, 2];
      expect(allowed, `exit ${result.code}; stderr: ${result.stderr.slice(0, 500)}`).toContain(result.code);
      // Never a stack trace, an internal error or a full account number, whatever happened (batch ids aside).
      const stderr = result.stderr.replace(/b\d{8}-\d{6}-[0-9a-f]{6}/g, '<batch>');
      expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(stderr).not.toContain('unexpected error');
      expect(stderr).not.toMatch(/\d{6,}/);
      if (result.code === 2) {
        const message = result.stderr.split('\n').find((line) => line.startsWith('beneficiary-check: '));
        expect(message, result.stderr).toBeDefined();
        expect(message!.length).toBeLessThan(1_500);
        return;
      }
      const raw = await readFile(out, 'utf8');
      const rows = parse(raw, { bom: true, delimiter: file.delimiter ?? ',', relax_column_count: false }) as string[][];
      const [header, ...data] = rows;
      expect(header).toContain('result');
      // No report ever has two columns of one name.
      const named = header!.filter((name) => name.trim() !== '');
      expect(named.length).toBe(new Set(named).size);
      const idColumn = header!.findIndex((cell) => cell.trim().toLowerCase() === 'id');
      expect(data.map((row) => row[idColumn])).toEqual(file.ids);
      expect(data.every((row) => row[header!.indexOf('result')] !== '')).toBe(true);
      for (const cell of rows.flat()) expect(cell).not.toMatch(/^(?![+-]?\d+(?:[.,]\d+)?$)[=+\-@\t\r]/);
      // A reader that splits rows on any line break must not meet a formula at a line start either.
      for (const line of raw.split(/\r\n|\r|\n/)) if (!PLAIN_NUMBER.test(line)) expect(line).not.toMatch(/^[=+\-@\t]/);
    },
  );
});
