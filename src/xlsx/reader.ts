import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { InputFileError, UsageError } from '../errors.js';
import { maskDigitRuns } from '../logging/logger.js';
import { cellText } from './display.js';

/** One data row of the first sheet as text cells, with its row number for messages. */
export interface SheetRecord {
  fields: string[];
  line: number;
}

export interface XlsxFileInfo {
  path: string;
  header: string[];
  rowCount: number;
  /** SHA-256 of the file's bytes: the same workbook dropped twice is the same content. */
  contentHash: string;
}

/**
 * Streams the rows of the workbook's first sheet as text (see display.ts), with exceljs' streaming reader:
 * rows are never all in memory (shared strings are: a workbook keeps them in one part). The first non-empty
 * row is the header; empty rows are skipped; rows shorter than the header are padded.
 */
export async function* readXlsxRecords(path: string, onHeader?: (header: string[]) => void, onBytes?: (chunk: Buffer) => void): AsyncGenerator<SheetRecord> {
  // Loaded on first use: exceljs takes about a second of CPU to load, which every CSV run would pay at start.
  const { default: ExcelJS } = await import('exceljs');
  const source = createReadStream(path);
  const input = new PassThrough();
  source.on('error', (error) => input.destroy(error));
  if (onBytes) source.on('data', (chunk) => onBytes(chunk as Buffer));
  source.pipe(input);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  let header: string[] | undefined;
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const cells: string[] = [];
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          cells[column - 1] = cellText(cell.value, cell.numFmt);
        });
        const fields = Array.from({ length: Math.max(cells.length, header?.length ?? 0) }, (_, index) => cells[index] ?? '');
        if (fields.every((field) => field.trim() === '')) continue;
        if (header === undefined) {
          header = fields.map((name) => name.trim());
          onHeader?.(header);
          continue;
        }
        yield { fields, line: row.number };
      }
      break; // the first sheet only
    }
    // The content is the whole file: the bytes after the first sheet are read (and hashed) too.
    source.unpipe(input);
    if (!source.readableEnded) await new Promise<void>((resolve, reject) => {
      source.once('end', resolve);
      source.once('error', reject);
      source.resume();
    });
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && (error as NodeJS.ErrnoException).syscall !== undefined) {
      throw new InputFileError(`cannot read input file ${path}: ${code}`, { cause: error });
    }
    throw new UsageError(`${path} is a zip file but not a readable XLSX workbook (${maskDigitRuns(error instanceof Error ? error.message : String(error)).slice(0, 300)}): save the sheet as .xlsx or CSV UTF-8 and run that`, { cause: error });
  } finally {
    source.destroy();
    input.destroy();
  }
  if (header === undefined) throw new UsageError(`${path} is empty: its first sheet needs a header row`);
}

/** First pass: the workbook reads to the end; rows counted, bytes hashed. */
export async function inspectXlsxFile(path: string): Promise<XlsxFileInfo> {
  const hash = createHash('sha256');
  let header: string[] = [];
  let rowCount = 0;
  for await (const _ of readXlsxRecords(path, (h) => (header = h), (chunk) => hash.update(chunk))) rowCount += 1;
  return { path, header, rowCount, contentHash: hash.digest('hex') };
}
