import { describe, expect, it } from 'vitest';
import { cellText, formattedText, numberText } from '../../src/xlsx/display.js';
import { parseUnreadCell, unreadCellText, type UnreadCell } from '../../src/xlsx/unread-cell.js';
import { isCandidateName } from '../../src/watch/inbox.js';
import { reportFormatOf } from '../../src/report/sink.js';

describe('workbook cells as Excel shows them', () => {
  it('reads text cells exactly, leading zeros and all digits included', () => {
    for (const text of ['0012345678', '1234567890123456', '014', ' BUDI ', '=SUM(A1)', '']) expect(cellText(text)).toBe(text);
  });

  it.each([
    [12345678, 'General', '12345678'],
    [12345678901, 'General', '12345678901'],
    [123456789012, 'General', '1.23457E+11'],
    [100000000000, 'General', '1E+11'],
    [123456789012345, '0', '123456789012345'],
    [1234567890123456, '0', '1.23457E+15'],
    [1234567890123456, '@', '1.23457E+15'],
    [12345678, '0000000000', '0012345678'],
    [881234567, '0000000000', '0881234567'],
    [12345678, '@', '12345678'],
    [0.5, 'General', '0.5'],
    [1 / 3, 'General', '0.333333333'],
    [-5000, 'General', '-5000'],
    [1500000.5, 'General', '1500000.5'],
    // Arithmetic's rounding error on an account number: the digits Excel shows, never zeros for the last ones.
    [12345678901.000002, 'General', '12345678901'],
    [12345678901.000002, '@', '12345678901'],
    [1234567890123.0002, 'General', '1.23457E+12'],
    [99999999999.6, 'General', '1E+11'],
  ])('number %d in format %j reads %j', (value, format, text) => {
    expect(numberText(value, format)).toBe(text);
  });

  // An outside tester: sections and quoted literals read 12345678 where Excel shows 0012345678, another account.
  it.each([
    [12345678, '0000000000;-0000000000', '0012345678'],
    [-12345678, '0000000000;-0000000000', '-0012345678'],
    [-12345678, '0000000000;(0000000000)', '(0012345678)'],
    [-12345678, '0000000000', '-0012345678'],
    [0, '0000000000;-0000000000;"none"', 'none'],
    [0, '0;-0;;@', ''],
    [12345678, '"00"0', '0012345678'],
    [12345678, '\\0\\00', '0012345678'],
    [14, '000', '014'],
    [14, '"0"#', '014'],
    [1234567890, '000-000-0000', '123-456-7890'],
    [1234567890, '0000\\ 0000\\ 00', '1234 5678 90'],
    [12345678, '[Red]0000000000', '0012345678'],
    [12345678, '[$Rp-421]#,##0', 'Rp12,345,678'],
    [12345678, '"Rp "General', 'Rp 12345678'],
    [12345678, '@', '12345678'],
    [0, '#', ''],
    [5, '#', '5'],
    [12, '??0', ' 12'],
    [1234567, '#,##0', '1,234,567'],
    [1234567.456, '#,##0.00', '1,234,567.46'],
    [1.005, '0.00', '1.01'],
    [0.5, '#.##', '.5'],
    [0.5, '0%', '50%'],
    [1234567, '#,##0,', '1,235'],
    [1500000, '_(* #,##0_);_(* (#,##0);_(* "-"??_);_(@_)', ' 1,500,000 '],
  ])('number %d in format %j reads %j (sections, literals, placeholders)', (value, format, text) => {
    expect(numberText(value, format)).toBe(text);
  });

  it.each([
    ['[>100]0;0', 'a condition'],
    ['0.00E+00', 'scientific notation'],
    ['# ?/?', 'a fraction'],
    ['abc0', 'letters'],
  ])('does not guess at a format it does not render: %j (%s)', (format) => {
    expect(numberText(12345678, format)).toBeUndefined();
  });

  it("shows a text cell through its format's text section", () => {
    expect(formattedText('123', '"ID-"@')).toBe('ID-123');
    expect(formattedText('123', '0;-0;0;"x"@"y"')).toBe('x123y');
    expect(formattedText('0012345678', '0000')).toBe('0012345678');
    expect(formattedText('0012345678', '@')).toBe('0012345678');
    // hidden by its format, the text is still the cell's: a name read as nothing was never compared
    expect(formattedText('Budi Santoso', ';;;')).toBe('Budi Santoso');
  });

  it('writes a cell it cannot read as a marker that reads back as the same cell', () => {
    const cells: UnreadCell[] = [
      { kind: 'uncomputed', ref: 'D2', formula: 'B2&" "&C2' },
      { kind: 'uncomputed', ref: 'AB100', formula: '' },
      { kind: 'error', ref: 'D2', error: '#N/A' },
      { kind: 'format', ref: 'B7', value: '12345678', format: '[>100]0;0' },
    ];
    for (const cell of cells) expect(parseUnreadCell(unreadCellText(cell))).toEqual(cell);
    expect(unreadCellText(cells[0]!)).toBe('#CELL! D2 formula never computed: =B2&" "&C2');
    for (const text of ['#N/A', 'Budi', '#CELL!', '#CELL! D2 something else']) expect(parseUnreadCell(text)).toBeUndefined();
  });

  it('never reads a number of 16 digits or more as digits: Excel already lost some', () => {
    for (const format of ['General', '0', '0000000000000000', '@']) expect(numberText(1234567890123456, format)).toMatch(/E\+15$/);
  });

  it('reads the other kinds of cells as their shown text', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText(true)).toBe('TRUE');
    expect(cellText(false)).toBe('FALSE');
    expect(cellText(new Date(Date.UTC(2026, 10, 21)))).toBe('2026-11-21');
    expect(cellText(new Date(Date.UTC(2026, 10, 21, 6, 52, 3)))).toBe('2026-11-21 06:52:03');
    expect(cellText({ richText: [{ text: 'Agus ' }, { text: 'Wijaya' }] })).toBe('Agus Wijaya');
    expect(cellText({ text: 'click', hyperlink: 'http://example.invalid' })).toBe('click');
    expect(cellText({ formula: 'A1&B1', result: 'BUDI SANTOSO' })).toBe('BUDI SANTOSO');
    expect(cellText({ formula: 'A1*1', result: 12345678 }, '0000000000')).toBe('0012345678');
    expect(cellText({ formula: 'A1' })).toBe('');
    expect(cellText({ error: '#N/A' })).toBe('#N/A');
  });
});

describe('workbooks in and out by name', () => {
  it('the watched folder and the scheduler take .xlsx beside .csv, never Excel lock files', () => {
    expect(isCandidateName('payouts.xlsx')).toBe(true);
    expect(isCandidateName('PAYOUTS.XLSX')).toBe(true);
    expect(isCandidateName('payouts.csv')).toBe(true);
    expect(isCandidateName('~$payouts.xlsx')).toBe(false);
    expect(isCandidateName('payouts.xlsx.part')).toBe(false);
    expect(isCandidateName('payouts.xls')).toBe(false);
  });

  it('writes a workbook for an .xlsx report path, CSV otherwise', () => {
    expect(reportFormatOf('/o/report.xlsx')).toBe('xlsx');
    expect(reportFormatOf('/o/report.XLSX')).toBe('xlsx');
    expect(reportFormatOf('/o/report.csv')).toBe('csv');
    expect(reportFormatOf('/o/report.txt')).toBe('csv');
  });
});
