import { once } from 'node:events';
import type { RowSink, SinkOptions } from './sink.js';
import { openTemporaryFile } from './temporary-file.js';

/** Excel's own "Good / Neutral / Bad" colours, so the sheet reads at a glance like any other. */
const RESULT_COLOURS: Record<string, { fill: string; font: string }> = {
  MATCH: { fill: 'FFC6EFCE', font: 'FF006100' },
  VERIFIED: { fill: 'FFC6EFCE', font: 'FF006100' },
  CLOSE_MATCH: { fill: 'FFFFEB9C', font: 'FF9C5700' },
  NO_MATCH: { fill: 'FFFFC7CE', font: 'FF9C0006' },
  ACCOUNT_INVALID: { fill: 'FFFFC7CE', font: 'FF9C0006' },
  INPUT_INVALID: { fill: 'FFD9D9D9', font: 'FF3F3F3F' },
  FAILED: { fill: 'FFF8CBAD', font: 'FF833C0B' },
};

/** Every cell is text: shown as written, never turned into a number, a date or a formula. */
const TEXT = '@';

/** Excel's limits: columns in a sheet, characters in a cell (a workbook past either is "repaired" by Excel, its data lost). */
export const XLSX_MAX_COLUMNS = 16_384;
export const XLSX_MAX_CELL_CHARACTERS = 32_767;

/**
 * A cell longer than a workbook holds is cut, and says so in itself: the reader sees where and by how much
 * (the CSV report, `export --out x.csv`, keeps it whole). Only pass-through input cells come near this:
 * the product's own cells are capped far below it (see capReason).
 */
export function fitCell(text: string): string {
  if (text.length <= XLSX_MAX_CELL_CHARACTERS) return text;
  const note = ` [cut: ${text.length.toLocaleString('en')} characters in all; a CSV report keeps the whole cell]`;
  let end = XLSX_MAX_CELL_CHARACTERS - note.length;
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end -= 1; // never half of a character
  return `${text.slice(0, end)}${note}`;
}

/**
 * A reconciliation workbook, streamed (exceljs' streaming writer: each row is committed to the zip as it
 * is written, without shared strings, so memory stays bounded however many rows). Every cell is written as
 * a string with the Text number format: account numbers, bank codes and ids keep their leading zeros and
 * all their digits, and a cell that starts with `=` is text, not a formula (it is written as a value, never
 * as `<f>`, and a Text cell is not evaluated when edited either), so no neutralising apostrophe is added.
 * The header row is frozen and has an auto-filter; the `result` column is coloured by value.
 */
export async function openXlsxSink(path: string, options: Pick<SinkOptions, 'resultColumn' | 'about'>): Promise<RowSink> {
  // Loaded on first use: exceljs takes about a second of CPU to load, which every CSV run would pay at start.
  const { default: ExcelJS } = await import('exceljs');
  const file = await openTemporaryFile(path);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: file.stream, useStyles: true, useSharedStrings: false });
  if (options.about !== undefined) Object.assign(workbook, options.about);
  const sheet = workbook.addWorksheet('Reconciliation', { views: [{ state: 'frozen', ySplit: 1 }] });
  const resultColumn = options.resultColumn + 1;
  let header = true;
  return {
    write: async (cells) => {
      if (header) {
        // Checked before anything is asked (checkReportWidth); a workbook past the limit is never written.
        if (cells.length > XLSX_MAX_COLUMNS)
          throw new RangeError(`a workbook holds at most ${XLSX_MAX_COLUMNS} columns, not ${cells.length}`);
        sheet.columns = cells.map((name) => ({ width: Math.min(Math.max(name.length + 2, 12), 40), style: { numFmt: TEXT } }));
        sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: cells.length } };
      }
      const row = sheet.addRow(cells.map(fitCell));
      if (header) row.font = { bold: true };
      else {
        const colours = RESULT_COLOURS[cells[options.resultColumn] ?? ''];
        if (colours !== undefined) {
          const cell = row.getCell(resultColumn);
          cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: colours.fill } };
          cell.font = { color: { argb: colours.font } };
        }
      }
      header = false;
      row.commit();
      const backlog = zipBacklog(sheet);
      if (backlog !== undefined) await Promise.race([once(backlog, 'drain'), file.failed]);
    },
    close: async () => {
      sheet.commit();
      await Promise.race([workbook.commit(), file.failed]);
      if (!file.stream.writableFinished) await Promise.race([once(file.stream, 'finish'), file.failed]);
      await file.commit();
    },
    discard: () => file.discard(),
  };
}

/**
 * exceljs' streaming writer hands each committed row to the zip without waiting for it: a writer faster
 * than the compression would pile the whole sheet up in memory. Its sheet stream pipes into the zip entry's
 * stream; when that one asks for a drain, the next row waits for it. (An exceljs internal, read defensively:
 * if it is not there, rows are not held back.)
 */
function zipBacklog(sheet: unknown): NodeJS.EventEmitter | undefined {
  const target = (sheet as { stream?: { pipes?: Array<NodeJS.EventEmitter & { _writableState?: { needDrain?: boolean } }> } }).stream
    ?.pipes?.[0];
  return target?._writableState?.needDrain === true ? target : undefined;
}
