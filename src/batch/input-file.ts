import { inspectCsvFile, readCsvRecords, type CsvFileInfo, type CsvRecord } from '../csv/reader.js';
import { UsageError } from '../errors.js';
import { inspectXlsxFile, readXlsxRecords, sniffFileKind } from '../xlsx/reader.js';

/** An input file after inspection: a CSV, or an XLSX workbook (its first sheet), told apart by content, not name. */
export type InputFileInfo = CsvFileInfo & { kind: 'csv' | 'xlsx' };

/**
 * First pass over an input, by what it is: a zip is a workbook, anything else a CSV. The rest of the
 * pipeline sees rows of text cells under a header either way. A workbook's rows go to a CSV report with
 * `,` (or to a workbook, by the report's name).
 */
export async function inspectInputFile(path: string): Promise<InputFileInfo> {
  const kind = await sniffFileKind(path);
  if (kind === 'xls') throw new UsageError(`${path} is a legacy Excel workbook (.xls): save it as .xlsx or CSV and run that`);
  if (kind === 'xlsx') return { ...(await inspectXlsxFile(path)), delimiter: ',', kind: 'xlsx' };
  return { ...(await inspectCsvFile(path)), kind: 'csv' };
}

/** Second pass: the data rows, streamed; `onBytes` sees every byte of the file (to check it did not change). */
export function readInputRecords(file: InputFileInfo, onBytes: (chunk: Buffer) => void): AsyncIterable<CsvRecord> {
  return file.kind === 'xlsx' ? readXlsxRecords(file.path, undefined, onBytes) : readCsvRecords(file.path, file, undefined, onBytes);
}
