import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, DEFAULT_BANKS, type SandboxServer } from '../../src/sandbox/index.js';
import { emulatorEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { waitFor } from '../support/wait.js';

/**
 * The input and output edges of issue 10, end to end: the built CLI against the emulator and the real
 * Redis. Each test states what the product did before (the defect) in its name's promise.
 */
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;

const env = (extra: Record<string, string> = {}) =>
  emulatorEnvironment(prefix, sandbox.url, {
    INQUIRY_RATE: '500/s',
    ...extra,
  });

// Opaque bank codes of several providers' styles; `bca` and `BCA` are different codes here, on purpose.
const banks = [
  ...DEFAULT_BANKS,
  { bankCode: 'bca', name: 'BCA (lower-case code)', fee: '6500' },
  { bankCode: 'BCA', name: 'BCA (upper-case code)', fee: '6500' },
  { bankCode: 'bank_jatim', name: 'BANK JATIM', fee: '6500' },
  { bankCode: 'ID_BCA', name: 'BCA (channel code)', fee: '6500' },
];
const accounts = [
  { bankCode: 'bca', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' },
  { bankCode: 'BCA', accountNumber: '0012345678', holderName: 'AGUS SALIM', status: 'SUCCESS' },
  { bankCode: 'bank_jatim', accountNumber: '3301234567', holderName: 'JOSÉ RAMOS HORTA', status: 'SUCCESS' },
  { bankCode: 'ID_BCA', accountNumber: '5270123456', holderName: 'SITI NURHALIZA', status: 'SUCCESS' },
  { bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' },
  { bankCode: '014', accountNumber: '1234567890', holderName: 'DEWI LESTARI', status: 'SUCCESS' },
  { bankCode: '014', accountNumber: '12345678', holderName: 'RATNA SARI', status: 'SUCCESS' },
];

beforeAll(async () => {
  sandbox = await startSandbox({ accounts, banks });
  workDir = await mkdtemp(join(tmpdir(), 'bc-input-edges-'));
});

beforeEach(() => sandbox.resetStats());

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

async function runFile(name: string, content: string | Buffer, extra: Record<string, string> = {}, args: string[] = []) {
  const file = join(workDir, name);
  await writeFile(file, content);
  const out = join(workDir, `${name}.out.csv`);
  const result = await runCli(['run', file, '--out', out, ...args], env(extra));
  return { file, out, result };
}

describe('bank codes', () => {
  it('sends each code exactly as written: bca, BCA, bank_jatim and ID_BCA are four accounts, each asked once', async () => {
    const { out, result } = await runFile(
      'codes.csv',
      'id,bank_code,account_number,name\n1, bca ,0012345678,Budi Santoso\n2,BCA,0012345678,Agus Salim\n3,bank_jatim,3301234567,Jose Ramos Horta\n4,ID_BCA,5270123456,Siti Nurhaliza\n5,bca,0012345678,Budi Santoso\n',
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = await readReport(out);
    expect(rows.map((row) => [row.id, row.result, row.account_holder])).toEqual([
      ['1', 'MATCH', 'BUDI SANTOSO'],
      ['2', 'MATCH', 'AGUS SALIM'],
      ['3', 'MATCH', 'JOSÉ RAMOS HORTA'],
      ['4', 'MATCH', 'SITI NURHALIZA'],
      ['5', 'MATCH', 'BUDI SANTOSO'],
    ]);
    expect(rows[0]!.bank_code).toBe(' bca ');
    expect(sandbox.stats().inquiriesByAccount).toEqual({
      'bca:0012345678': 1,
      'BCA:0012345678': 1,
      'bank_jatim:3301234567': 1,
      'ID_BCA:5270123456': 1,
    });
  });

  it('translates bank names through BANK_CODE_MAP and says so in the row', async () => {
    const map = join(workDir, 'banks.csv');
    await writeFile(map, 'alias,provider_code\nBank Central Asia,BCA\nBank Jatim,bank_jatim\n');
    const { out, result } = await runFile(
      'names.csv',
      'bank,rekening,nama\nBank Central Asia,0012345678,Agus Salim\nBANK  JATIM,3301234567,José Ramos Horta\nBank Antah,0012345678,X\n',
      {
        BANK_CODE_MAP: map,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = await readReport(out);
    expect(rows.map((row) => row.result)).toEqual(['MATCH', 'MATCH', 'INPUT_INVALID']);
    expect(rows[0]!.reason).toContain('bank "Bank Central Asia" sent as code "BCA" (BANK_CODE_MAP)');
    expect(rows[0]!.bank).toBe('Bank Central Asia');
    expect(rows[2]!.reason).toContain('BANK_CODE_MAP');
    expect(sandbox.stats().inquiriesByAccount).toEqual({ 'BCA:0012345678': 1, 'bank_jatim:3301234567': 1 });
  });

  it('refuses a broken BANK_CODE_MAP before anything is asked (exit 2)', async () => {
    const map = join(workDir, 'broken-banks.csv');
    await writeFile(map, 'Bank Central Asia,not a code\n');
    const { result } = await runFile('names2.csv', 'bank,rekening\nBCA,0012345678\n', { BANK_CODE_MAP: map });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not a bank code');
    expect(sandbox.stats().inquiries).toBe(0);
  });
});

describe('account numbers', () => {
  it('asks only the number written (separators between digit groups removed) and shows it in account_number_checked', async () => {
    const { out, result } = await runFile(
      'numbers.csv',
      'id,bank_code,account_number,name\n1,014,0012-3456-78,Budi Santoso\n2,014,0012 3456 78,Budi Santoso\n3,014,1234567890.0,Dewi Lestari\n4,014,-12345678,Ratna Sari\n5,014,1.23457E+11,X\n6,014,"1234567890,0",Dewi Lestari\n7,014,１２３４５６７８,Ratna Sari\n',
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = await readReport(out);
    expect(rows.map((row) => [row.result, row.account_number_checked])).toEqual([
      ['MATCH', '0012345678'],
      ['MATCH', '0012345678'],
      ['INPUT_INVALID', ''],
      ['INPUT_INVALID', ''],
      ['INPUT_INVALID', ''],
      ['INPUT_INVALID', ''],
      ['INPUT_INVALID', ''],
    ]);
    expect(rows[2]!.reason).toContain('decimal number');
    expect(rows[3]!.reason).toContain('sign');
    expect(rows[6]!.reason).toContain('digits other than 0-9');
    // Before: 1234567890.0 was asked as 12345678900 and -12345678 as 12345678, another account each.
    expect(sandbox.stats().inquiriesByAccount).toEqual({ '014:0012345678': 1 });
  });
});

describe('line endings, separators and blank lines', () => {
  it('reads every row of a CRLF header over LF rows (and CR-only rows), not one collapsed row', async () => {
    const rows = Array.from({ length: 1000 }, (_, index) => `${index},014,0012345678,Budi Santoso`);
    const content = `id,bank_code,account_number,name\r\n${rows.slice(0, 998).join('\n')}\n${rows[998]}\r${rows[999]}\r\n`;
    const { out, result } = await runFile('mixed.csv', content);
    expect(result.code, result.stderr).toBe(0);
    const report = await readReport(out);
    expect(report.map((row) => row.id)).toEqual(rows.map((_, index) => String(index)));
    expect(new Set(report.map((row) => row.result))).toEqual(new Set(['MATCH']));
  });

  it("accepts Excel's sep=; line and blank lines before the header", async () => {
    const { out, result } = await runFile(
      'sep.csv',
      '\uFEFFsep=;\r\n\r\n\r\nid;bank_code;account_number;name\r\n1;014;0012345678;Budi Santoso\r\n',
    );
    expect(result.code, result.stderr).toBe(0);
    const raw = await readFile(out, 'utf8');
    expect(raw.split('\r\n')[0]).toMatch(/^\uFEFFid;bank_code;account_number;name;result;/);
    expect((await readReport(out, ';')).map((row) => row.result)).toEqual(['MATCH']);
  });

  it('reads a file whose header follows blank lines with ; as its delimiter', async () => {
    const { out, result } = await runFile('blank-first.csv', '\n\nid;bank_code;account_number;name\n1;014;0012345678;Budi Santoso\n');
    expect(result.code, result.stderr).toBe(0);
    expect((await readReport(out, ';')).map((row) => row.result)).toEqual(['MATCH']);
  });
});

describe('encodings', () => {
  const lines = 'id,bank_code,account_number,name\r\n1,bank_jatim,3301234567,José Ramos Horta\r\n2,014,0012345678,Budi Santoso\r\n';

  it('reads a Windows-1252 export right, says so, and gives its names back unchanged (in UTF-8)', async () => {
    const { out, result } = await runFile('cp1252.csv', iconv.encode(lines, 'windows-1252'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('read as Windows-1252');
    const rows = await readReport(out);
    expect(rows.map((row) => [row.name, row.result])).toEqual([
      ['José Ramos Horta', 'MATCH'],
      ['Budi Santoso', 'MATCH'],
    ]);
    const summary = JSON.parse(await readFile(out.replace(/\.csv$/, '.summary.json'), 'utf8'));
    expect(summary.encoding).toBe('windows-1252');
  });

  it.each([
    ['utf-16le', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(lines, 'utf-16le')])],
    ['utf-16be', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(lines, 'utf-16be')])],
  ])('reads %s with a byte-order mark', async (encoding, bytes) => {
    const { out, result } = await runFile(`${encoding}.csv`, bytes);
    expect(result.code, result.stderr).toBe(0);
    expect((await readReport(out)).map((row) => [row.name, row.result])).toEqual([
      ['José Ramos Horta', 'MATCH'],
      ['Budi Santoso', 'MATCH'],
    ]);
  });

  it('refuses bytes that are neither UTF-8 nor Windows-1252, naming what it found (exit 2, nothing asked)', async () => {
    const { result } = await runFile(
      'neither.csv',
      Buffer.concat([Buffer.from('id,bank_code,account_number\n1,014,0012345678\n2,014,'), Buffer.from([0x81, 0x8d]), Buffer.from('\n')]),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('neither UTF-8 nor Windows-1252');
    expect(result.stderr).toContain('byte 0x81');
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('says what a gzip or a legacy workbook named .csv is', async () => {
    const gzip = await runFile('packed.csv', gzipSync(Buffer.from(lines)));
    expect(gzip.result.code).toBe(2);
    expect(gzip.result.stderr).toContain('gzip-compressed: unpack it');
    const xls = await runFile('old.csv', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]));
    expect(xls.result.code).toBe(2);
    expect(xls.result.stderr).toContain('legacy Excel workbook');
  });
});

describe('messages', () => {
  it('never shows a full account number of a file without a header row', async () => {
    const { result } = await runFile('no-header.csv', '014,0012345678,Budi Santoso\n014,1234567890,Dewi Lestari\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('required column(s) missing');
    expect(result.stderr).toContain('******5678');
    expect(result.stderr).not.toContain('0012345678');
  });

  it('masks cell values a parser error quotes', async () => {
    const { result } = await runFile('bad-quote.csv', 'bank_code,account_number\n014,0012345678"9"\n');
    expect(result.code).toBe(2);
    expect(result.stderr).not.toMatch(/\d{6,}/);
    expect(result.stderr).not.toContain('unexpected error');
  });
});

describe('report cells', () => {
  it('quotes every cell with a bare LF or CR and neutralises a formula after a line break', async () => {
    const { out, result } = await runFile(
      'breaks.csv',
      'id,bank_code,account_number,name,note\n1,014,0012345678,Budi Santoso,"x\n=cmd|\' /C calc\'!A0"\n2,014,0012345678,Budi Santoso,"a\rb"\n',
    );
    expect(result.code, result.stderr).toBe(0);
    const raw = await readFile(out, 'utf8');
    expect(raw).toContain(`"x\n'=cmd|' /C calc'!A0"`);
    expect(raw).toContain('"a\rb"');
    // Split on every kind of line break, as a careless reader does: no line starts a formula.
    for (const line of raw.split(/\r\n|\r|\n/)) expect(line).not.toMatch(/^[=+\-@\t]/);
    expect((await readReport(out)).map((row) => row.id)).toEqual(['1', '2']);
  });
});

describe('the output path is checked before the first inquiry', () => {
  const input = 'id,bank_code,account_number,name\n1,014,0012345678,Budi Santoso\n';

  it.each([
    ['a directory', async () => join(workDir, 'a-directory'), 'is a directory'],
    ['a device', async () => '/dev/null', 'not a regular file'],
    ['under a read-only file system', async () => '/proc/self/beneficiaries.reconciled.csv', 'cannot write the report'],
    ['a name too long for the file system', async () => join(workDir, `${'r'.repeat(245)}.csv`), 'ENAMETOOLONG'],
  ])('refuses %s: exit 2, nothing asked', async (_, outPath, message) => {
    await mkdir(join(workDir, 'a-directory'), { recursive: true });
    const file = join(workDir, 'out-check.csv');
    await writeFile(file, input);
    const result = await runCli(['run', file, '--out', await outPath()], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(sandbox.stats().inquiries).toBe(0);
    expect(sandbox.stats().logins).toBe(0);
  });

  it('never overwrites the input file', async () => {
    const file = join(workDir, 'self.csv');
    await writeFile(file, input);
    const result = await runCli(['run', file, '--out', file], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is the input file itself');
    expect(await readFile(file, 'utf8')).toBe(input);
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('a folder that stops being writable after the check is a typed exit 2; the next run writes the report asking nothing', async () => {
    sandbox.setKnobs({ latencyMs: { min: 300, max: 300 } });
    try {
      const rows = Array.from({ length: 6 }, (_, index) => `${index},014,${['0012345678', '1234567890', '12345678'][index % 3]},X`);
      const file = join(workDir, 'vanishing-out.csv');
      await writeFile(file, `id,bank_code,account_number,name\n${rows.join('\n')}\n`);
      const folder = join(workDir, 'vanishing');
      await mkdir(folder, { recursive: true });
      const out = join(folder, 'report.csv');
      const child = startCli(['run', file, '--out', out, '--concurrency', '1'], env({ INQUIRY_RATE: '5/s' }));
      await waitFor(() => sandbox.stats().answeredInquiries >= 1, 20_000, 'a first answer');
      // The folder becomes a file: the writer can neither make it nor write into it.
      await rm(folder, { recursive: true, force: true });
      await writeFile(folder, 'not a folder');
      const code = await waitForExit(child);
      const { stderr } = child.output();
      expect(code).toBe(2);
      expect(stderr).toContain('cannot write the report');
      expect(stderr).not.toContain('unexpected error');
      await rm(folder, { force: true });
      const calls = sandbox.stats().inquiries;
      const again = await runCli(['run', file, '--out', out], env());
      expect(again.code, again.stderr).toBe(0);
      expect(sandbox.stats().inquiries).toBe(calls);
      expect((await readReport(out)).map((row) => row.id)).toEqual(['0', '1', '2', '3', '4', '5']);
      expect((await readdir(folder)).filter((name) => name.includes('.tmp-'))).toEqual([]);
    } finally {
      sandbox.setKnobs({ latencyMs: { min: 0, max: 0 } });
    }
  });
});
