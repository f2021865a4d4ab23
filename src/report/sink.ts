import { extname } from 'node:path';
import { openCsvSink } from './csv-sink.js';
import { openXlsxSink } from './xlsx-sink.js';

/** Where a report's rows go: one file, written under a temporary name and put in place by `close`. */
export interface RowSink {
  /** Writes one row of cells (the header first); resolves when the sink can take more. */
  write(cells: readonly string[]): Promise<void>;
  /** Finishes the file and renames it into place. */
  close(): Promise<void>;
  /** Removes what was written (a failed or stopped report leaves nothing half-written). */
  discard(): Promise<void>;
}

export interface SinkOptions {
  /** The CSV delimiter (the input's). */
  delimiter: string;
  /** Index of the `result` column, coloured in a workbook. */
  resultColumn: number;
  /** What the file is and where its answers come from: a workbook's title and description (File > Info); a CSV has no place for it. */
  about?: { title: string; description: string };
}

export type ReportFormat = 'csv' | 'xlsx';

/** The format a report path asks for: `.xlsx` is a workbook, anything else CSV (the default). */
export const reportFormatOf = (path: string): ReportFormat => (extname(path).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv');

/** Opens the sink the path's extension names. */
export function openSink(path: string, options: SinkOptions): Promise<RowSink> {
  return reportFormatOf(path) === 'xlsx' ? openXlsxSink(path, options) : openCsvSink(path, options);
}
