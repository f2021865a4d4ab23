import { resolve } from 'node:path';
import { inspectCsvFile, readCsvRecords, readHead, type CsvFileInfo, type CsvRecord } from '../csv/reader.js';
import { describeUnreadable, sniffContent } from '../csv/sniff.js';
import { InputFileError } from '../errors.js';
import { inspectXlsxFile, readXlsxRecords, type SheetFacts } from '../xlsx/reader.js';

/** An input file after inspection: a CSV, or an XLSX workbook (its first sheet), told apart by content, not name. */
export type InputFileInfo = CsvFileInfo & {
  kind: 'csv' | 'xlsx';
  /** A workbook's sheet read, its other sheets and its merged cells. */
  workbook?: SheetFacts;
};

/** A file's name as a message shows it: quoted when it holds a control character (a line break in a name would forge a line). */
export const shownFileName = (name: string): string => (/[\p{Cc}\u2028\u2029]/u.test(name) ? JSON.stringify(name) : name);

/**
 * First pass over an input, by what its first bytes say it is: a zip is a workbook, text is a CSV (in the
 * encoding its byte-order mark names, else UTF-8 or Windows-1252), anything else (a legacy .xls, gzip,
 * binary data) is refused saying what it is and what to do. The rest of the pipeline sees rows of text
 * cells under a header either way. A workbook's rows go to a CSV report with `,` (or to a workbook, by the
 * report's name).
 */
export async function inspectInputFile(path: string): Promise<InputFileInfo> {
  const head = await readHead(path);
  const content = sniffContent(head);
  switch (content.kind) {
    case 'zip':
      return { ...(await inspectXlsxFile(path)), delimiter: ',', encoding: 'utf-8', kind: 'xlsx' };
    case 'text':
      return { ...(await inspectCsvFile(path, head, content.encoding)), kind: 'csv' };
    default:
      throw new InputFileError(`${path} ${describeUnreadable(content)}`);
  }
}

/** Second pass: the data rows, streamed; `onBytes` sees every byte of the file (to check it did not change). */
export function readInputRecords(file: InputFileInfo, onBytes: (chunk: Buffer) => void): AsyncIterable<CsvRecord> {
  return file.kind === 'xlsx' ? readXlsxRecords(file.path, undefined, onBytes) : readCsvRecords(file.path, file, undefined, onBytes);
}

/** The file's header and its records, read as `run` reads them (a reviewed report: src/review/review-file.ts). */
export async function openInputFile(path: string): Promise<{ header: string[]; records: AsyncIterable<CsvRecord> }> {
  const file = await inspectInputFile(resolve(path));
  return { header: file.header, records: readInputRecords(file, () => undefined) };
}
