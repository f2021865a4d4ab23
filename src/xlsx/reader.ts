import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
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
function readFailure(path: string, error: NodeJS.ErrnoException): InputFileError {
  return new InputFileError(`cannot read input file ${path}: ${error.code ?? error.message}`, { cause: error });
}

/** Resolves once the file is open; a file that cannot be opened (gone since it was checked) is the file's error. */
async function opened(source: ReturnType<typeof createReadStream>, path: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    source.once('open', () => resolve());
    source.once('error', (error: NodeJS.ErrnoException) => reject(readFailure(path, error)));
  });
}

export async function* readXlsxRecords(
  path: string,
  onHeader?: (header: string[]) => void,
  onBytes?: (chunk: Buffer) => void,
): AsyncGenerator<SheetRecord> {
  // Loaded on first use: exceljs takes about a second of CPU to load, which every CSV run would pay at start.
  const { default: ExcelJS } = await import('exceljs');
  const source = createReadStream(path);
  // Opened before the reader sees it: a file gone since it was checked is the file's error (exit 2), not an
  // 'error' event on a stream nobody listens to.
  await opened(source, path);
  const input = new PassThrough();
  // A read error later (a disk error) ends the input, as a cut file would; the error is kept and thrown as the
  // file's (a destroyed input would leave exceljs' reader waiting for ever).
  let readError: NodeJS.ErrnoException | undefined;
  source.on('error', (error) => {
    readError ??= error;
    input.end();
  });
  if (onBytes) source.on('data', (chunk) => onBytes(chunk as Buffer));
  source.pipe(input);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const sharedStrings = watchSharedStrings(reader as unknown as WorkbookParts);
  let header: string[] | undefined;
  let lastLine = 0;
  try {
    for await (const sheet of reader) {
      const parts = sheet as unknown as SheetParts;
      const sheetEnd = watchXmlEnd(parts.iterator, 'worksheet');
      parts.iterator = sheetEnd.xml;
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
        lastLine = row.number;
        yield { fields, line: row.number };
      }
      if (readError !== undefined) throw readFailure(path, readError);
      if (!sheetEnd.closed() || sharedStrings.cut()) {
        const part = sharedStrings.cut()
          ? "its text cells' shared strings stop before their end"
          : `its first sheet stops before the sheet's end (after row ${lastLine})`;
        throw new InputFileError(
          `${path} is cut short: ${part}, as when a workbook was written or copied incompletely; nothing was checked. Save the workbook again and run that`,
        );
      }
      break; // the first sheet only
    }
    // The content is the whole file: the bytes after the first sheet are read (and hashed) too.
    source.unpipe(input);
    if (!source.readableEnded)
      await new Promise<void>((resolve, reject) => {
        source.once('end', resolve);
        source.once('error', reject);
        source.resume();
      });
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    if (readError !== undefined) throw readFailure(path, readError);
    if ((error as NodeJS.ErrnoException).code !== undefined && (error as NodeJS.ErrnoException).syscall !== undefined) {
      throw readFailure(path, error as NodeJS.ErrnoException);
    }
    throw new UsageError(
      `${path} is a zip file but not a readable XLSX workbook (${maskDigitRuns(error instanceof Error ? error.message : String(error)).slice(0, 300)}): save the sheet as .xlsx or CSV UTF-8 and run that`,
      { cause: error },
    );
  } finally {
    source.destroy();
    input.destroy();
  }
  if (header === undefined) throw new UsageError(`${path} is empty: its first sheet needs a header row`);
}

/** The parts of exceljs' streaming readers met here: a sheet's XML as its zip entry streams it, and the shared strings' parser. */
interface SheetParts {
  iterator: AsyncIterable<Buffer | string>;
}
interface WorkbookParts {
  _parseSharedStrings(entry: AsyncIterable<Buffer | string>): AsyncGenerator<unknown>;
  /** The shared strings read so far (sharedStrings: 'cache'). */
  sharedStrings?: unknown[];
}

const TAIL_CHARACTERS = 256;
/** How much of a part's start is kept to read its root element's attributes. */
const HEAD_CHARACTERS = 1024;

/**
 * Watches a part's XML on its way to exceljs, which parses it without ever closing its XML parser: XML cut
 * anywhere (a zip entry written short, a part truncated by a tool) would end a sheet's rows there, or leave
 * the cells of the shared strings never read empty, without an error, and the batch would be checked with
 * rows or values missing. `closed()` says whether the XML got to its root's closing tag (`</worksheet>`,
 * `</sst>`, perhaps with a namespace prefix), after which only whitespace may come.
 */
function watchXmlEnd(source: AsyncIterable<Buffer | string>, root: string): { xml: AsyncIterable<Buffer | string>; closed: () => boolean } {
  const end = new RegExp(`</(?:[A-Za-z_][\\w.-]*:)?${root}\\s*>\\s*$`);
  let tail = '';
  let done = false;
  const xml = (async function* () {
    for await (const chunk of source) {
      tail = (tail + (typeof chunk === 'string' ? chunk : chunk.toString('latin1'))).slice(-TAIL_CHARACTERS);
      yield chunk;
    }
    done = true;
  })();
  return { xml, closed: () => done && end.test(tail) };
}

/**
 * The workbook's shared strings (where its text cells are), watched to their end; `cut()` is true when they
 * were read and stopped short, or hold fewer strings than their own header declares (`uniqueCount`, which
 * every writer of the format sets to their number): strings cut off and the part closed again would leave
 * text cells pointing at nothing, read as empty, and their rows INPUT_INVALID while the file looks whole.
 */
function watchSharedStrings(reader: WorkbookParts): { cut: () => boolean } {
  const parse = reader._parseSharedStrings.bind(reader);
  let watched: { closed: () => boolean; declared: () => number | undefined } | undefined;
  reader._parseSharedStrings = (entry) => {
    let head = '';
    const headed = (async function* () {
      for await (const chunk of entry) {
        if (head.length < HEAD_CHARACTERS) head += (typeof chunk === 'string' ? chunk : chunk.toString('latin1')).slice(0, HEAD_CHARACTERS);
        yield chunk;
      }
    })();
    const { xml, closed } = watchXmlEnd(headed, 'sst');
    const declared = () => {
      const count = /<(?:[A-Za-z_][\w.-]*:)?sst\b[^>]*\suniqueCount\s*=\s*["'](\d+)["']/.exec(head)?.[1];
      return count === undefined ? undefined : Number(count);
    };
    watched = { closed, declared };
    return parse(Readable.from(xml)); // exceljs reads this part as a stream
  };
  return {
    cut: () => {
      if (watched === undefined) return false;
      const declared = watched.declared();
      return !watched.closed() || (declared !== undefined && (reader.sharedStrings?.length ?? declared) < declared);
    },
  };
}

/** First pass: the workbook reads to the end; rows counted, bytes hashed. */
export async function inspectXlsxFile(path: string): Promise<XlsxFileInfo> {
  const hash = createHash('sha256');
  let header: string[] = [];
  let rowCount = 0;
  for await (const _ of readXlsxRecords(
    path,
    (h) => (header = h),
    (chunk) => hash.update(chunk),
  ))
    rowCount += 1;
  return { path, header, rowCount, contentHash: hash.digest('hex') };
}
