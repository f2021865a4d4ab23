import { describe, expect, it } from 'vitest';
import {
  type PartEnd,
  readNumberFormats,
  readRecomputesOnLoad,
  readSharedStrings,
  readSheetRows,
  type SheetEnd,
} from '../../src/xlsx/sheet-xml.js';

const sheetEnd = (): SheetEnd => ({ closed: false, lastRow: 0, merged: [] });

/** A part as a zip entry streams it: in the chunks given. */
async function* chunks(...parts: Array<string | number[]>): AsyncGenerator<Buffer> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part) : Buffer.from(part);
}

describe('the XML of a workbook part', () => {
  it("reads a sheet's dimension (a range only), its last row and its merged ranges, written after the rows", async () => {
    const context = { sharedStrings: [], numFmtOf: () => undefined, date1904: false };
    const end = sheetEnd();
    const xml =
      '<worksheet><dimension ref="A1:C29"/><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="15"/></sheetData>' +
      '<mergeCells count="2"><mergeCell ref="D2:D3"/><mergeCell ref="$A$5:$B$5"/></mergeCells></worksheet>';
    for await (const _row of readSheetRows(chunks(xml), context, end));
    expect(end).toEqual({ closed: true, dimensionLastRow: 29, lastRow: 15, merged: ['D2:D3', '$A$5:$B$5'] });
    const empty = sheetEnd();
    for await (const _row of readSheetRows(chunks('<worksheet><dimension ref="A1"/><sheetData/></worksheet>'), context, empty));
    expect(empty.dimensionLastRow).toBeUndefined();
  });

  it('keeps a character whole when a chunk ends inside it (é is two bytes)', async () => {
    const end: PartEnd = { closed: false };
    const read = await readSharedStrings(chunks('<sst uniqueCount="1"><si><t>Jos', [0xc3], [0xa9], '</t></si></sst>'), end);
    expect(read).toEqual({ strings: ['José'], declared: 1 });
    expect(end.closed).toBe(true);
  });

  it('says a part cut inside its root was not whole, and yields the rows it had', async () => {
    const end = sheetEnd();
    const context = { sharedStrings: [], numFmtOf: () => undefined, date1904: false };
    const rows = [];
    for await (const row of readSheetRows(
      chunks('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2'),
      context,
      end,
    ))
      rows.push(row);
    expect(rows).toEqual([{ number: 1, cells: ['1'] }]);
    expect(end.closed).toBe(false);
  });

  it('reads numbers as Excel shows them: a zero-padded format, a date, a boolean, an error (as a cell not read), a formula result', async () => {
    const end = sheetEnd();
    const formats: Record<number, string> = { 1: '0000000000', 2: 'yyyy-mm-dd' };
    const context = { sharedStrings: [], numFmtOf: (style: number) => formats[style], date1904: false };
    const rows = [];
    const xml =
      '<x:worksheet xmlns:x="main"><x:sheetData><x:row r="3"><x:c r="B3" s="1"><x:v>881234567</x:v></x:c><x:c r="C3" s="2"><x:v>46347</x:v></x:c>' +
      '<x:c r="D3" t="b"><x:v>1</x:v></x:c><x:c r="E3" t="e"><x:v>#N/A</x:v></x:c><x:c r="F3" t="str"><x:f>A1&amp;"x"</x:f><x:v>a&amp;b</x:v></x:c></x:row></x:sheetData></x:worksheet>';
    for await (const row of readSheetRows(chunks(xml), context, end)) rows.push(row);
    expect(rows).toEqual([{ number: 3, cells: [undefined, '0881234567', '2026-11-21', 'TRUE', '#CELL! E3 Excel error: #N/A', 'a&b'] }]);
    expect(end.closed).toBe(true);
  });

  it("reads the cell formats of <numFmts>, not a conditional format's of the same id (an outside review: 0 for 0000000000)", async () => {
    const styles =
      '<styleSheet><numFmts count="1"><numFmt numFmtId="166" formatCode="0000000000"/></numFmts>' +
      '<dxfs count="1"><dxf><numFmt numFmtId="166" formatCode="0"/></dxf></dxfs></styleSheet>';
    expect(await readNumberFormats(chunks(styles))).toEqual(new Map([[166, '0000000000']]));
  });

  it("reads every formula of a workbook Excel computes again on opening as never computed: its stored values are a program's", async () => {
    expect(await readRecomputesOnLoad(chunks('<workbook><calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>'))).toBe(true);
    expect(await readRecomputesOnLoad(chunks('<workbook><calcPr calcId="191029"/></workbook>'))).toBe(false);
    const context = { sharedStrings: [], numFmtOf: () => undefined, date1904: false, recomputesOnLoad: true };
    const rows = [];
    const xml =
      '<worksheet><sheetData><row r="2"><c r="A2" t="str"><f>"0099999999"</f><v>0012345678</v></c><c r="B2"><v>5</v></c></row></sheetData></worksheet>';
    for await (const row of readSheetRows(chunks(xml), context, sheetEnd())) rows.push(row);
    expect(rows[0]!.cells).toEqual(['#CELL! A2 formula never computed: ="0099999999"', '5']);
  });

  it('reads a date format with a serial past its dates as a cell not read, and escaped letters as no date', async () => {
    const formats: Record<number, string> = { 1: 'yyyy-mm-dd', 2: '\\N\\o\\m\\o\\r\\ 0000000000' };
    const context = { sharedStrings: [], numFmtOf: (style: number) => formats[style], date1904: false };
    const rows = [];
    const xml =
      '<worksheet><sheetData><row r="2"><c r="A2" s="1"><v>5000000000</v></c><c r="B2" s="1"><v>-3</v></c><c r="C2" s="2"><v>12345678</v></c></row></sheetData></worksheet>';
    for await (const row of readSheetRows(chunks(xml), context, sheetEnd())) rows.push(row);
    expect(rows[0]!.cells[0]).toMatch(/^#CELL! A2 number 5000000000 in format: yyyy-mm-dd$/);
    expect(rows[0]!.cells[1]).toMatch(/^#CELL! B2 number -3 in format/);
    expect(rows[0]!.cells[2]).toBe('Nomor 0012345678');
  });

  it('reads a formula without a cached value as a formula never computed, never as empty; one with a value as its value', async () => {
    const end = sheetEnd();
    const formats: Record<number, string> = { 1: '0000000000' };
    const context = { sharedStrings: [], numFmtOf: (style: number) => formats[style], date1904: false };
    const rows = [];
    const xml =
      '<worksheet><sheetData><row r="2">' +
      '<c r="A2"><f>B2*1</f></c>' + // exceljs, and programs like it: no <v>
      '<c r="B2" s="1"><f>C2*1</f><v></v></c>' + // an empty <v>: a number has no empty value
      '<c r="C2" t="str"><f>IF(E2="","",E2)</f><v></v></c>' + // a text formula that computed to "": Excel shows nothing
      '<c r="D2" t="str"><f>E2&amp;" "&amp;F2</f></c>' +
      '<c r="E2"><f t="shared" si="0"/></c>' + // a shared formula's other cell: no text of its own
      '<c r="F2" s="1"><f>G2*1</f><v>12345678</v></c>' +
      '<c r="G2" t="e"><f>VLOOKUP(A2,X:Y,2,0)</f><v>#REF!</v></c>' +
      '</row></sheetData></worksheet>';
    for await (const row of readSheetRows(chunks(xml), context, end)) rows.push(row);
    expect(rows[0]!.cells).toEqual([
      '#CELL! A2 formula never computed: =B2*1',
      '#CELL! B2 formula never computed: =C2*1',
      '',
      '#CELL! D2 formula never computed: =E2&" "&F2',
      '#CELL! E2 formula never computed: (shared formula)',
      '0012345678',
      '#CELL! G2 Excel error: #REF!',
    ]);
  });

  it('reads a number in a format it does not render as a cell not read, naming the cell and the format', async () => {
    const end = sheetEnd();
    const formats: Record<number, string> = { 1: '[>100]0000000000;0', 2: '0000000000;-0000000000', 3: '"00"0' };
    const context = { sharedStrings: [], numFmtOf: (style: number) => formats[style], date1904: false };
    const rows = [];
    const xml =
      '<worksheet><sheetData><row r="4"><c r="A4" s="1"><v>12345678</v></c><c r="B4" s="2"><v>12345678</v></c><c r="C4" s="3"><v>12345678</v></c></row></sheetData></worksheet>';
    for await (const row of readSheetRows(chunks(xml), context, end)) rows.push(row);
    expect(rows[0]!.cells).toEqual(['#CELL! A4 number 12345678 in format: [>100]0000000000;0', '0012345678', '0012345678']);
  });
});
