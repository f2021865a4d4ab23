import { closeSync, createReadStream, open as openFd } from 'node:fs';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Row } from 'exceljs';
import type { Entry, ZipFile } from 'yauzl';
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

function readFailure(path: string, error: NodeJS.ErrnoException): InputFileError {
  return new InputFileError(`cannot read input file ${path}: ${error.code ?? error.message}`, { cause: error });
}

/** The parts of a workbook read before its sheet, by their place in the zip. */
const PARTS = {
  relations: 'xl/_rels/workbook.xml.rels',
  workbook: 'xl/workbook.xml',
  sharedStrings: 'xl/sharedStrings.xml',
  styles: 'xl/styles.xml',
};

/**
 * Streams the rows of the workbook's first sheet (the first tab Excel shows) as text (see display.ts), with
 * exceljs' parsers: rows are never all in memory (shared strings are: a workbook keeps them in one part). The
 * first non-empty row is the header; empty rows are skipped; rows shorter than the header are padded.
 *
 * The zip is read through its central directory (yauzl), not exceljs' single streaming pass: that pass
 * (unzipper's Parse) intermittently ends before the last entries, and exceljs' own writer stores
 * `xl/workbook.xml` last, so a whole workbook was refused as unreadable now and then (exceljs#3064: 2 reads
 * in 1,000 here, more under load); an Excel file, whose shared strings come after its sheets, could lose
 * them. Here the parts a sheet needs (the workbook, its relations, shared strings, styles) are read first,
 * each whole, and then the sheet, row by row.
 */
export async function* readXlsxRecords(
  path: string,
  onHeader?: (header: string[]) => void,
  onBytes?: (chunk: Buffer) => void,
): AsyncGenerator<SheetRecord> {
  // Loaded on first use: exceljs takes about a second of CPU to load, which every CSV run would pay at start.
  const [{ default: ExcelJS }, { default: yauzl }] = await Promise.all([import('exceljs'), import('yauzl')]);
  // A plain descriptor, not a FileHandle: yauzl takes it over and closes it with the zip.
  const fd = await promisify(openFd)(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw readFailure(path, error);
  });
  let zip: ZipFile | undefined;
  // The parts' streams: one left open (the sheet, when the rows are not read to the end) holds the file open.
  const streams: Readable[] = [];
  let header: string[] | undefined;
  let lastLine = 0;
  try {
    // The content is the whole file, hashed from the same open file the rows are read from.
    if (onBytes) for await (const chunk of createReadStream(path, { fd, start: 0, autoClose: false })) onBytes(chunk as Buffer);
    const opened = await yauzl.fromFdPromise(fd, { lazyEntries: true, autoClose: false });
    zip = opened;
    const entries = new Map<string, Entry>();
    for await (const entry of opened.eachEntry()) entries.set(entry.fileName, entry);
    const part = async (name: string): Promise<Readable | undefined> => {
      const entry = entries.get(name);
      if (entry === undefined) return undefined;
      const stream = await opened.openReadStreamPromise(entry);
      streams.push(stream);
      return stream;
    };
    const required = async (name: string): Promise<Readable> => {
      const stream = await part(name);
      if (stream === undefined) throw new Error(`it has no ${name}`);
      return stream;
    };

    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    }) as unknown as WorkbookParts;
    const sharedStrings = watchSharedStrings(reader);
    await reader._parseRels(await required(PARTS.relations));
    await reader._parseWorkbook(await required(PARTS.workbook));
    const strings = await part(PARTS.sharedStrings);
    if (strings !== undefined) for await (const _ of reader._parseSharedStrings(strings));
    const styles = await part(PARTS.styles);
    if (styles !== undefined) await reader._parseStyles(styles);

    const sheetPath = firstSheetPath(reader);
    const sheetEnd = watchXmlEnd(await required(sheetPath), 'worksheet');
    const [sheet] = reader._parseWorksheet(sheetEnd.xml, /(\d+)\.xml$/.exec(sheetPath)?.[1] ?? '1');
    for await (const row of sheet!.value) {
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
    if (!sheetEnd.closed() || sharedStrings.cut()) {
      const cut = sharedStrings.cut()
        ? "its text cells' shared strings stop before their end"
        : `its first sheet stops before the sheet's end (after row ${lastLine})`;
      throw new InputFileError(
        `${path} is cut short: ${cut}, as when a workbook was written or copied incompletely; nothing was checked. Save the workbook again and run that`,
      );
    }
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    if ((error as NodeJS.ErrnoException).code !== undefined && (error as NodeJS.ErrnoException).syscall !== undefined) {
      throw readFailure(path, error as NodeJS.ErrnoException);
    }
    throw new UsageError(
      `${path} is a zip file but not a readable XLSX workbook (${maskDigitRuns(error instanceof Error ? error.message : String(error)).slice(0, 300)}): save the sheet as .xlsx or CSV UTF-8 and run that`,
      { cause: error },
    );
  } finally {
    for (const stream of streams) stream.destroy();
    if (zip === undefined) closeSync(fd);
    else zip.close(); // the descriptor closes once the last part's stream is done
  }
  if (header === undefined) throw new UsageError(`${path} is empty: its first sheet needs a header row`);
}

/**
 * Where the first sheet is in the zip: the first tab Excel shows (a hidden sheet before it, often a
 * lookup list, is not what the person who dropped the file saw first). The workbook lists its sheets in
 * tab order, and its relations say which part each one is (relative to xl/, or absolute from the root).
 */
function firstSheetPath(reader: WorkbookParts): string {
  const sheets = reader.model?.sheets ?? [];
  const first = sheets.find((sheet) => sheet.state === undefined || sheet.state === 'visible') ?? sheets[0];
  if (first === undefined) throw new Error('its workbook lists no sheet');
  const target = reader.workbookRels?.find((relation) => relation.Id === first.rId)?.Target;
  if (target === undefined) throw new Error(`its workbook names no part for sheet "${first.name}"`);
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

/**
 * The parts of exceljs' streaming reader driven here (exceljs 4.4's WorkbookReader, whose own `parse` is not
 * used: see readXlsxRecords): each parses one part of the workbook, given as a stream.
 */
interface WorkbookParts {
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: AsyncIterable<Buffer | string>): AsyncGenerator<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(xml: AsyncIterable<Buffer | string>, sheetNo: string): Generator<{ eventType: string; value: SheetReader }>;
  /** The workbook's sheets in tab order (set by _parseWorkbook). */
  model?: { sheets?: Array<{ name: string; rId: string; state?: string }> };
  /** The workbook's relations (set by _parseRels). */
  workbookRels?: Array<{ Id: string; Target: string }>;
  /** The shared strings read so far (sharedStrings: 'cache'). */
  sharedStrings?: unknown[];
}

/** A sheet's rows, as exceljs' WorksheetReader gives them. */
type SheetReader = AsyncIterable<Row>;

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
