import { describe, expect, it } from 'vitest';
import { accountKey, parseAccountKey, validateRow } from '../../src/csv/validation.js';
import { unreadCellText } from '../../src/xlsx/unread-cell.js';
import { parseBankCodeMap } from '../../src/config/bank-code-map.js';
import { headerLayout } from '../../src/csv/reader.js';
import { sniffContent, windows1252Problem } from '../../src/csv/sniff.js';
import { ConfigError } from '../../src/errors.js';
import { detectDelimiter } from '../../src/csv/delimiter.js';

const mapping = { bankCode: 0, accountNumber: 1, expectedName: 2 };

describe('validateRow', () => {
  it('keeps leading zeros and trims', () => {
    expect(validateRow([' 014 ', ' 0012345678 ', ' Budi '], mapping)).toEqual({
      valid: true,
      account: { bankCode: '014', accountNumber: '0012345678' },
      expectedName: 'Budi',
    });
  });

  it.each([
    ['0012-3456-78', '0012345678'],
    ['0012 3456 78', '0012345678'],
    ['0012.3456.78', '0012345678'],
    ['12.345.678', '12345678'],
    ['0012\u00A03456\u00A078', '0012345678'],
    ['001 234 567 890 123 456', '001234567890123456'],
  ])('removes only the separators typed between digit groups: %j -> %s', (written, sent) => {
    expect(validateRow(['014', written, 'X'], mapping)).toMatchObject({ valid: true, account: { accountNumber: sent } });
  });

  it.each(['bca', 'BCA', 'bank_jatim', 'bpd_diy', 'ID_BCA', '014', 'bank-dki', 'b.n.i'])(
    'sends the bank code %j exactly as written',
    (code) => {
      expect(validateRow([` ${code} `, '0012345678', 'X'], mapping)).toMatchObject({ valid: true, account: { bankCode: code } });
    },
  );

  it('keeps bank codes of different case apart (the provider decides what they mean)', () => {
    const lower = validateRow(['bca', '0012345678', 'X'], mapping);
    const upper = validateRow(['BCA', '0012345678', 'X'], mapping);
    expect(lower.valid && upper.valid && accountKey(lower.account) !== accountKey(upper.account)).toBe(true);
  });

  it('translates a bank name through BANK_CODE_MAP, case and spaces ignored', () => {
    const map = parseBankCodeMap('alias,provider_code\nBank Central Asia,BCA\nbca,BCA\n');
    expect(validateRow(['  BANK CENTRAL  ASIA ', '0012345678', 'X'], mapping, map)).toMatchObject({
      valid: true,
      account: { bankCode: 'BCA' },
    });
    expect(validateRow(['Bca', '0012345678', 'X'], mapping, map)).toMatchObject({ valid: true, account: { bankCode: 'BCA' } });
    expect(validateRow(['Bank Mandiri', '0012345678', 'X'], mapping, map)).toMatchObject({
      valid: false,
      reason: expect.stringContaining('BANK_CODE_MAP'),
    });
  });

  it.each([
    [['', '0012345678', 'A'], 'bank code is empty'],
    [['  ', '0012345678', 'A'], 'bank code is empty'],
    [['01 4', '0012345678', 'A'], 'is not a bank code'],
    [['BCA:1', '0012345678', 'A'], 'is not a bank code'],
    [['=cmd', '0012345678', 'A'], 'is not a bank code'],
    [['b'.repeat(41), '0012345678', 'A'], 'is not a bank code'],
    [['bca', '1234567890.0', 'A'], 'looks like a decimal number'],
    [['bca', '1234567890,0', 'A'], 'looks like a decimal number'],
    [['bca', '1234567890.00', 'A'], 'looks like a decimal number'],
    [['bca', '123456789.12', 'A'], 'looks like a decimal number'],
    [['bca', '1.234.567,89', 'A'], 'looks like a decimal number'],
    [['bca', '12,345,678', 'A'], 'looks like a decimal number'],
    [['bca', '-12345678', 'A'], 'starts with a sign'],
    [['bca', '+12345678', 'A'], 'starts with a sign'],
    [['bca', '-1.2E+10', 'A'], 'scientific notation'],
    [['bca', '١٢٣٤٥٦٧٨', 'A'], 'digits other than 0-9'],
    [['bca', '１２３４５６７８', 'A'], 'digits other than 0-9'],
    [['bca', '12345678-', 'A'], 'characters other than digits'],
    [['bca', '1234--5678', 'A'], 'characters other than digits'],
    [['bca', '1234-5678.90', 'A'], 'characters other than digits'],
    [['bca', '1234 / 5678', 'A'], 'characters other than digits'],
    [['bca', '=1234567', 'A'], 'characters other than digits'],
    [['014', '', 'A'], 'account number is empty'],
    [['014', '1.23457E+11', 'A'], 'scientific notation'],
    [['014', '1,23457E+11', 'A'], 'scientific notation'],
    [['014', '9.87E10', 'A'], 'scientific notation'],
    [['014', '12345ABC', 'A'], 'characters other than digits'],
    [['014', '1234O678', 'A'], 'characters other than digits: "O"'],
    // what a person cannot see, or typed to keep the zeros, is named (found unclear by an outside attack)
    [['014', '5270123456\u200b', 'A'], 'characters other than digits: U+200B (not visible)'],
    [['014', "'0012345678", 'A'], 'a leading apostrophe'],
    [['014', '="0012345678"', 'A'], 'a spreadsheet formula written out'],
    [['014', '1234', 'A'], 'has 4 digits'],
    [['014', '123456789012345678901', 'A'], 'has 21 digits'],
    [['014', '0000000', 'A'], 'all zeros'],
    [['014', '2023-03-15', 'A'], 'reads as a date'],
  ])('refuses %j: %s', (fields, reason) => {
    const result = validateRow(fields, mapping);
    expect(result.valid).toBe(false);
    expect(!result.valid && result.reason).toContain(reason);
  });

  it('reads digit groups that are no date as an account number (no month 13)', () => {
    expect(validateRow(['014', '1234-13-45', 'A'], mapping)).toMatchObject({ valid: true, account: { accountNumber: '12341345' } });
  });

  it('treats a blank expected name as no name', () => {
    expect(validateRow(['014', '0012345678', '  '], mapping)).toMatchObject({ valid: true, expectedName: undefined });
    expect(validateRow(['014', '0012345678'], { ...mapping, expectedName: undefined })).toMatchObject({
      valid: true,
      expectedName: undefined,
    });
  });

  // An outside tester: #N/A as a name was NO_MATCH with a reason about joint accounts; TRUE or a date went to the comparison too.
  it.each(['#N/A', '#REF!', '#VALUE!', '#DIV/0!', '#NAME?', '#NULL!', '#NUM!', '#SPILL!', ' #n/a '])(
    "refuses Excel's error value %j in any column the check reads, saying so",
    (error) => {
      expect(validateRow(['014', '0012345678', error], mapping)).toMatchObject({
        valid: false,
        reason: expect.stringMatching(/^the expected name is Excel's error value #[A-Z/0!?]+: a formula in the spreadsheet failed/),
      });
      expect(validateRow(['014', error, 'Budi'], mapping)).toMatchObject({
        valid: false,
        reason: expect.stringContaining("the account number is Excel's error value"),
      });
      expect(validateRow([error, '0012345678', 'Budi'], mapping)).toMatchObject({
        valid: false,
        reason: expect.stringContaining("the bank code is Excel's error value"),
      });
    },
  );

  it.each([
    ['TRUE', "a spreadsheet's TRUE/FALSE value, not a name"],
    ['false', "a spreadsheet's TRUE/FALSE value, not a name"],
    ['2026-11-21', 'has no letter (a date, a number?)'],
    ['21/11/2026', 'has no letter (a date, a number?)'],
    ['12345', 'has no letter (a date, a number?)'],
    ['-', 'has no letter (a date, a number?)'],
  ])('refuses the expected name %j: %s', (name, reason) => {
    expect(validateRow(['014', '0012345678', name], mapping)).toMatchObject({ valid: false, reason: expect.stringContaining(reason) });
  });

  it.each(['Budi Santoso', 'TRUE LOVE FOUNDATION', '王小明', 'PT. 3M Indonesia', '#1 Store'])('compares the name %j as a name', (name) => {
    expect(validateRow(['014', '0012345678', name], mapping)).toMatchObject({ valid: true, expectedName: name });
  });

  it('refuses a workbook cell the reader could not read, naming the cell and what to do', () => {
    const formula = unreadCellText({ kind: 'uncomputed', ref: 'D2', formula: 'B2&" "&C2' });
    expect(validateRow(['014', '0012345678', formula], mapping)).toMatchObject({
      valid: false,
      reason:
        'cell D2 (the expected name) holds a formula that was never computed (=B2&" "&C2): the program that wrote the workbook left its value for Excel to compute; open and save the workbook in Excel or LibreOffice, or export the sheet as CSV, and run that',
    });
    expect(validateRow(['014', unreadCellText({ kind: 'uncomputed', ref: 'B2', formula: 'X2' }), 'Budi'], mapping)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/^cell B2 \(the account number\) holds a formula that was never computed/),
    });
    expect(validateRow(['014', '0012345678', unreadCellText({ kind: 'error', ref: 'C2', error: '#N/A' })], mapping)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/^cell C2 \(the expected name\) holds the Excel error #N\/A: correct the cell/),
    });
    const format = unreadCellText({ kind: 'format', ref: 'B2', value: '12345678', format: '[>100]0;0' });
    expect(validateRow(['014', format, 'Budi'], mapping)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(
        /^cell B2 \(the account number\) holds the number 12345678 in the number format "\[>100\]0;0", which this reader does not render/,
      ),
    });
    // A column not read holds what it holds: the row is checked.
    expect(validateRow(['014', '0012345678', 'Budi', formula], mapping)).toMatchObject({ valid: true });
    expect(validateRow(['014', '0012345678', formula], { bankCode: 0, accountNumber: 1, expectedName: undefined })).toMatchObject({
      valid: true,
    });
  });

  it('builds and parses account keys', () => {
    const key = accountKey({ bankCode: '014', accountNumber: '0012345678' });
    expect(key).toBe('014:0012345678');
    expect(parseAccountKey(key)).toEqual({ bankCode: '014', accountNumber: '0012345678' });
  });
});

describe('detectDelimiter', () => {
  it.each([
    ['bank_code,account_number,name', ','],
    ['bank_code;account_number;name', ';'],
    ['"a;b",c,d', ','],
    ['"a,b";c;d', ';'],
    ['single', ','],
    ['bank_code\taccount_number\tnama', '\t'],
    ['"a\tb",c,d', ','],
    ['kode;bank\tnama\tno', '\t'],
  ])('%s -> %s', (line, delimiter) => expect(detectDelimiter(line)).toBe(delimiter));

  it('prefers the delimiter that splits the header into known column names (a tie of counts: a cell holding the other)', () => {
    const known = (name: string) => ['kodebank', 'norek', 'nama'].includes(name.toLowerCase().replace(/\s+/g, ''));
    expect(detectDelimiter('Kode Bank\tNo Rek\tNama (Depan, Tengah, Belakang)', known)).toBe('\t');
    expect(detectDelimiter('Kode Bank,No Rek,"Nama\tLengkap\tx"', known)).toBe(',');
    expect(detectDelimiter('a,b\tc', known)).toBe(',');
  });
});

describe('headerLayout', () => {
  it.each([
    ['bank;account;name\r\n1;2;3', ';', false],
    ['\r\n\n  \nbank;account;name', ';', false],
    ['sep=;\r\nbank;account;name', ';', true],
    ['SEP=,\nbank;account;name', ',', true],
    ['"sep=;"\nbank,account', ';', true],
    ['sep=\t\nbank\taccount', '\t', true],
    ['\uFEFFbank,account', ',', false],
    ['', ',', false],
  ])('%j -> %j (sep line %s)', (text, delimiter, sepLine) => expect(headerLayout(text)).toEqual({ delimiter, sepLine }));

  it('refuses a sep= line naming a delimiter it cannot read', () =>
    expect(() => headerLayout('sep=|\na|b')).toThrow(/only ',', ';' and tab/));
});

describe('sniffContent', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);
  it.each([
    [bytes(0x50, 0x4b, 0x03, 0x04, 1), { kind: 'zip' }],
    [bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1), { kind: 'xls' }],
    [bytes(0x1f, 0x8b, 8), { kind: 'gzip' }],
    [bytes(0xef, 0xbb, 0xbf, 0x61), { kind: 'text', encoding: 'utf-8' }],
    [bytes(0xff, 0xfe, 0x61, 0), { kind: 'text', encoding: 'utf-16le' }],
    [bytes(0xfe, 0xff, 0, 0x61), { kind: 'text', encoding: 'utf-16be' }],
    [bytes(0x61, 0x2c, 0x62), { kind: 'text', encoding: undefined }],
    [new TextEncoder().encode('\n <html><head><meta charset="utf-8">'), { kind: 'markup', what: 'an HTML page' }],
    [new TextEncoder().encode('\uFEFF<!DOCTYPE html>'), { kind: 'markup', what: 'an HTML page' }],
    [
      new TextEncoder().encode('<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">'),
      { kind: 'markup', what: 'an Excel 2003 XML spreadsheet' },
    ],
    [bytes(), { kind: 'text', encoding: undefined }],
    [bytes(0x61, 0, 0x62, 0), { kind: 'binary', what: 'UTF-16 text without a byte-order mark' }],
    [bytes(0x61, 0x2c, 0x62, 0x2c, 0), { kind: 'binary', what: 'binary data (a NUL byte at offset 4)' }],
    [bytes(0x25, 0x50, 0x44, 0x46, 0x2d), { kind: 'binary', what: 'a PDF document' }],
  ])('%j', (head, kind) => expect(sniffContent(head)).toEqual(kind));

  it('accepts Windows-1252 text bytes and names the first that is not', () => {
    expect(windows1252Problem(Buffer.from('Jos\xe9;\x80 5\r\n\tx', 'latin1'))).toBeUndefined();
    expect(windows1252Problem(Buffer.from('ab\x81', 'latin1'), 10)).toBe('byte 0x81 at offset 12');
    expect(windows1252Problem(Buffer.from('a\x07', 'latin1'))).toBe('byte 0x07 at offset 1');
    expect(windows1252Problem(Buffer.concat([Buffer.from('Jos\xe9 ', 'latin1'), Buffer.from('José', 'utf8')]))).toBe(
      'UTF-8 text mixed with other bytes: a UTF-8 character at offset 8',
    );
  });
});

describe('parseBankCodeMap', () => {
  it('reads alias,provider_code with or without a header, ; or ,', () => {
    expect([...parseBankCodeMap('Bank Central Asia;BCA\nBank Jatim,bank_jatim\n')]).toEqual([
      ['bankcentralasia', 'BCA'],
      ['bankjatim', 'bank_jatim'],
    ]);
  });

  it.each([
    ['alias,provider_code\nBank Central Asia\n', 'expected two values'],
    ['BCA,not a code\n', 'is not a bank code'],
    ['BCA,BCA\nbca,014\n', 'mapped to both'],
  ])('refuses %j', (text, message) => {
    expect(() => parseBankCodeMap(text)).toThrow(ConfigError);
    expect(() => parseBankCodeMap(text)).toThrow(message);
  });
});
