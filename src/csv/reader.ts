import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import { InputFileError, UsageError } from '../errors.js';
import { detectDelimiter, type Delimiter } from './delimiter.js';

/** One data row as it stands in the file, with its 1-based line number for messages. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** How to read a file again after inspection; JSON-serialisable, stored with the batch. */
export interface CsvLayout {
  delimiter: Delimiter;
}

export interface CsvFileInfo extends CsvLayout {
  path: string;
  header: string[];
  /** Data rows, not counting the header or blank lines. */
  rowCount: number;
  /** SHA-256 of the bytes: the same content dropped again is recognised whatever its name. */
  contentHash: string;
}

/** Reads the start of the file (at most 64 KiB) to find the header line and the delimiter. */
async function readFirstLine(path: string): Promise<string> {
  let handle;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputFileError(`${path} is not a file`);
    handle = await open(path, 'r');
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw new InputFileError(`cannot read input file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '');
    return text.split(/\r?\n/, 1)[0] ?? '';
  } finally {
    await handle.close();
  }
}

/**
 * Streams the data rows of a CSV file: never more than a parser buffer in memory. The first record
 * is the header; rows with fewer fields than the header are padded (spreadsheets drop trailing empty cells).
 */
export async function* readCsvRecords(
  path: string,
  layout: CsvLayout,
  onHeader?: (header: string[]) => void,
  onBytes?: (chunk: Buffer) => void,
): AsyncGenerator<CsvRecord> {
  const source = createReadStream(path);
  const parser = parse({ delimiter: layout.delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  if (onBytes) {
    const tap = new PassThrough();
    tap.on('data', onBytes);
    source.pipe(tap).pipe(parser);
  } else {
    source.pipe(parser);
  }
  source.on('error', (error) => parser.destroy(error));
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (header === undefined) {
        header = record.map((name) => name.trim());
        onHeader?.(header);
        continue;
      }
      const fields = record.length < header.length ? [...record, ...new Array<string>(header.length - record.length).fill('')] : record;
      yield { fields, line: info.lines };
    }
  } catch (error) {
    if (error instanceof CsvError) {
      throw new UsageError(`${path} is not a readable CSV file: ${error.message}`, { cause: error });
    }
    throw new InputFileError(`cannot read input file ${path}: ${(error as Error).message}`, { cause: error });
  } finally {
    source.destroy();
  }
  if (header === undefined) throw new UsageError(`${path} is empty: a header row is required`);
}

/**
 * First pass over a file before anything is queued: checks that it parses to the end, counts rows and
 * hashes the content. A broken file is refused whole, instead of half of it being checked.
 */
export async function inspectCsvFile(path: string): Promise<CsvFileInfo> {
  const delimiter = detectDelimiter(await readFirstLine(path));
  const hash = createHash('sha256');
  let header: string[] = [];
  let rowCount = 0;
  for await (const _ of readCsvRecords(path, { delimiter }, (h) => (header = h), (chunk) => hash.update(chunk))) rowCount += 1;
  return { path, delimiter, header, rowCount, contentHash: hash.digest('hex') };
}
