import { describe, expect, it } from 'vitest';
import { fileNotes } from '../../src/batch/file-notes.js';
import { listedSheets, shownSheetName } from '../../src/xlsx/sheet-names.js';

describe('shownSheetName and listedSheets: a sheet as a message names it', () => {
  it('quotes a name so that no quote, comma or line break in it passes for another sheet or another line', () => {
    expect(shownSheetName('Data')).toBe('"Data"');
    expect(shownSheetName('q" (hidden), "fake')).toBe('"q\\" (hidden), \\"fake"');
    expect(shownSheetName('line1\nnote: forged')).toBe('"line1\\nnote: forged"');
    // A right-to-left override would show the rest of the message reversed.
    expect(shownSheetName('abc\u202Egpj.exe')).toBe('"abc\\u202egpj.exe"');
  });

  it('cuts a long name and lists at most ten sheets, then says how many more', () => {
    expect(shownSheetName('x'.repeat(5_000))).toBe(`"${'x'.repeat(60)}…"`);
    const many = Array.from({ length: 3_000 }, (_, index) => shownSheetName(`S${index}`));
    expect(listedSheets(many)).toBe(`${many.slice(0, 10).join(', ')} and 2990 more`);
    expect(listedSheets(many.slice(0, 2))).toBe('"S0", "S1"');
  });
});

describe('fileNotes', () => {
  const csv = { layout: { delimiter: ',' as const }, sheets: undefined, rowCount: 3, replacedColumns: [] };

  it('says nothing of a plain UTF-8 CSV with rows', () => {
    expect(fileNotes(csv)).toEqual([]);
  });

  it('names an encoding other than UTF-8, a header alone, and the sheets not read, masked as free text', () => {
    expect(fileNotes({ ...csv, layout: { delimiter: ';', encoding: 'windows-1252' }, rowCount: 0 })).toEqual([
      'read as Windows-1252 (Excel\'s "CSV" on Windows) text',
      'the file has a header and no data rows: the report holds none',
    ]);
    expect(fileNotes({ ...csv, sheets: { read: 'Rek 5270123456', notRead: ['"Old 0012345678" (hidden)'] } })).toEqual([
      'sheet "Rek ******3456" is read (the first one shown); the workbook\'s other sheets are not: "Old ******5678" (hidden)',
    ]);
  });

  it("says that an earlier report given as input has its decisions left unrecorded, not its other report columns' absence", () => {
    expect(fileNotes({ ...csv, replacedColumns: ['result', 'decision', 'decided_by'] })).toEqual([
      "the file is an earlier report: its result and decision columns are not read, and decisions written in it are not recorded (record them with `review`, or in a watched folder's reviews/)",
    ]);
    expect(fileNotes({ ...csv, replacedColumns: ['result'] })).toEqual([]);
  });
});
