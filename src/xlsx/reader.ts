import { closeSync, createReadStream, fstat, open as openFd, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import { InputFileError, UsageError } from '../errors.js';
import { maskDigitRuns } from '../logging/logger.js';
import { listedSheets, shownSheetName } from './sheet-names.js';
import {
  type PartEnd,
  readNumberFormats,
  readRecomputesOnLoad,
  readSharedStrings,
  readSheetRows,
  type SheetContext,
  type SheetEnd,
} from './sheet-xml.js';

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
  /** The first data row (see CsvFileInfo.firstRow). */
  firstRow?: SheetRecord;
  workbook: SheetFacts;
}

/** What the inspection learnt of the sheet read and of the others, for what a row cannot say. */
export interface SheetFacts {
  /** The name of the sheet read (see firstVisible). */
  sheet: string;
  /** The workbook's other worksheets, in tab order, as people read them (shownSheetName): `"Data" (hidden)`, `"Summary"`. */
  otherSheets: string[];
  /** The sheet row numbers of the header and of the last data row (the header's when there is none). */
  headerRow: number;
  lastDataRow: number;
  /** The sheet's merged ranges (`D2:D3`). */
  merged: string[];
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

/** The relation type of a worksheet (a chart sheet or a macro sheet before it holds no rows). */
const WORKSHEET_RELATION = /\/worksheet$/;

/**
 * Streams the rows of the workbook's first sheet (the first worksheet tab Excel shows) as text (see
 * sheet-xml.ts and display.ts): rows are never all in memory (shared strings are: a workbook keeps them in
 * one part). The first non-empty row is the header; empty rows are skipped; rows shorter than the header
 * are padded.
 *
 * The zip is read through its central directory (yauzl), each part checked against its CRC, not in
 * exceljs' single streaming pass: that pass (unzipper's Parse) intermittently ended before the last
 * entries, and exceljs' own writer stores `xl/workbook.xml` last, so a whole workbook was refused as
 * unreadable now and then (exceljs#3064: 2 reads in 1,000 here, more under load); an Excel file, whose
 * shared strings come after its sheets, could lose them. Here the parts a sheet needs (the workbook, its
 * relations, shared strings, styles) are read first, each whole, and then the sheet, row by row. exceljs
 * still reads the workbook, its relations and its styles.
 */
export async function* readXlsxRecords(
  path: string,
  onHeader?: (header: string[]) => void,
  onBytes?: (chunk: Buffer) => void,
  onSheetRead?: (facts: SheetFacts) => void,
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
  let headerRow = 0;
  let lastLine = 0;
  try {
    const before = await promisify(fstat)(fd);
    // The content is the whole file, hashed from the same open file the rows are read from.
    if (onBytes) for await (const chunk of createReadStream(path, { fd, start: 0, autoClose: false })) onBytes(chunk as Buffer);
    const opened = await yauzl.fromFdPromise(fd, { lazyEntries: true, autoClose: false });
    zip = opened;
    // By name, without case: a package's part names ignore it (Sheet1.xml is the part a relation calls sheet1.xml).
    const entries = new Map<string, Entry>();
    for await (const entry of opened.eachEntry()) {
      const name = entry.fileName.toLowerCase();
      // Readers differ on which of two parts of one name counts: what is checked would not be what is seen.
      if (entries.has(name)) throw new Error(`it holds two parts named ${entry.fileName}`);
      entries.set(name, entry);
    }
    const part = async (name: string): Promise<AsyncIterable<Buffer> | undefined> => {
      const entry = entries.get(name.toLowerCase());
      if (entry === undefined) return undefined;
      const stream = await opened.openReadStreamPromise(entry);
      streams.push(stream);
      return checked(stream, entry);
    };
    const required = async (name: string): Promise<AsyncIterable<Buffer>> => {
      const found = await part(name);
      if (found === undefined) throw new Error(`it has no ${name}`);
      return found;
    };

    // The workbook and the styles are read by exceljs and by this reader (what exceljs leaves out of them):
    // unzipped and checked once, each held whole (a few kilobytes), and given to both as streams.
    const held = async (found: AsyncIterable<Buffer>): Promise<Buffer[]> => {
      const chunks: Buffer[] = [];
      for await (const chunk of found) chunks.push(chunk);
      return chunks;
    };
    const workbook = new ExcelJS.stream.xlsx.WorkbookReader(path, { styles: 'cache' }) as unknown as WorkbookParts;
    // exceljs reads these parts as streams.
    await workbook._parseRels(Readable.from(await required(PARTS.relations)));
    const workbookXml = await held(await required(PARTS.workbook));
    await workbook._parseWorkbook(Readable.from(workbookXml));
    const stylesPart = await part(PARTS.styles);
    const stylesXml = stylesPart === undefined ? undefined : await held(stylesPart);
    if (stylesXml !== undefined) await workbook._parseStyles(Readable.from(stylesXml));
    // The custom formats as written (exceljs drops their backslashes: see readNumberFormats).
    const customFormats = stylesXml === undefined ? new Map<number, string>() : await readNumberFormats(Readable.from(stylesXml));
    const stringsPart = await part(PARTS.sharedStrings);
    let strings: string[] | undefined;
    if (stringsPart !== undefined) {
      const stringsEnd: PartEnd = { closed: false };
      const read = await readSharedStrings(stringsPart, stringsEnd);
      // Cut and closed again, the part looks whole: its header still counts every string (every writer sets it).
      if (!stringsEnd.closed || (read.declared !== undefined && read.strings.length < read.declared))
        throw cutShort(path, "its text cells' shared strings stop before their end");
      strings = read.strings;
    }

    const sheetEnd: SheetEnd = { closed: false, lastRow: 0, merged: [] };
    const sheetContext: SheetContext = {
      sharedStrings: strings,
      // Without a styles part every cell is General (exceljs' styles hold nothing then).
      numFmtOf:
        stylesXml === undefined
          ? () => undefined
          : (styleId) =>
              customFormats.get(workbook.styles.model?.styles?.[styleId]?.numFmtId ?? -1) ?? workbook.styles.getStyleModel(styleId)?.numFmt,
      date1904: workbook.properties?.model?.date1904 === true,
      // exceljs does not read calcPr's attributes.
      recomputesOnLoad: await readRecomputesOnLoad(Readable.from(workbookXml)),
    };
    const sheets = worksheetsOf(workbook);
    const read = firstVisible(sheets);
    const others = sheets
      .filter((sheet) => sheet !== read)
      .map((sheet) => `${shownSheetName(sheet.name)}${isVisible(sheet) ? '' : ' (hidden)'}`);
    const othersNotRead = `the workbook's other sheets, ${listedSheets(others)}, are not read: put the list on the first sheet`;
    for await (const row of readSheetRows(await required(sheetPath(workbook, read)), sheetContext, sheetEnd)) {
      const fields = Array.from({ length: Math.max(row.cells.length, header?.length ?? 0) }, (_, index) => row.cells[index] ?? '');
      if (fields.every((field) => field.trim() === '')) continue;
      if (header === undefined) {
        header = fields.map((name) => name.trim());
        headerRow = row.number;
        onHeader?.(header);
        continue;
      }
      lastLine = row.number;
      yield { fields, line: row.number };
    }
    if (!sheetEnd.closed) throw cutShort(path, `its first sheet stops before the sheet's end (after row ${lastLine})`);
    // Cut and closed again, the sheet looks whole: its dimension, written before the rows, still spans them all.
    if (sheetEnd.dimensionLastRow !== undefined && sheetEnd.lastRow < sheetEnd.dimensionLastRow)
      throw cutShort(
        path,
        `its first sheet says it spans rows to ${sheetEnd.dimensionLastRow} (its dimension), but holds rows only to ${sheetEnd.lastRow}`,
      );
    // A sheet of a header only (a template tab) before the data's: an empty report would look like a night with nobody to pay.
    if (header !== undefined && lastLine === 0 && others.length > 0)
      throw new InputFileError(
        `${path}: its first sheet shown, ${shownSheetName(read.name)}, has a header and no data rows, and ${othersNotRead}, or save its sheet alone, and run that`,
      );
    onSheetRead?.({
      sheet: read.name,
      otherSheets: others,
      headerRow,
      lastDataRow: Math.max(lastLine, headerRow),
      merged: sheetEnd.merged,
    });
    // Written over while it was read (a copy in place): the rows may be another file's than the bytes hashed.
    if (changed(before, await promisify(fstat)(fd)))
      throw new InputFileError(`${path} changed while it was being read: run it again once it is written`);
    if (header === undefined)
      throw new InputFileError(
        `${path} is empty: its first sheet needs a header row${others.length > 0 ? ` (sheet ${shownSheetName(read.name)}; ${othersNotRead})` : ''}`,
      );
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
}

const cutShort = (path: string, what: string): InputFileError =>
  new InputFileError(
    `${path} is cut short: ${what}, as when a workbook was written or copied incompletely; nothing was checked. Save the workbook again and run that`,
  );

const changed = (before: Stats, after: Stats): boolean =>
  before.size !== after.size || before.mtimeMs !== after.mtimeMs || before.ctimeMs !== after.ctimeMs;

/** A part's bytes, checked at their end against the CRC its zip entry records (yauzl does not check it). */
async function* checked(stream: Readable, entry: Entry): AsyncGenerator<Buffer> {
  let crc = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    crc = crc32(chunk, crc);
    yield chunk;
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) throw new Error(`its part ${entry.fileName} is damaged (its checksum does not match)`);
}

type SheetEntry = NonNullable<NonNullable<WorkbookParts['model']>['sheets']>[number];

const isVisible = (sheet: SheetEntry): boolean => sheet.state === undefined || sheet.state === 'visible';

/** The workbook's worksheets in tab order (a chart sheet holds no rows). */
function worksheetsOf(workbook: WorkbookParts): SheetEntry[] {
  const relations = new Map((workbook.workbookRels ?? []).map((relation) => [relation.Id, relation]));
  return (workbook.model?.sheets ?? []).filter((sheet) => WORKSHEET_RELATION.test(relations.get(sheet.rId)?.Type ?? ''));
}

/**
 * The sheet read: the first tab Excel shows that is a worksheet (a hidden sheet before it, often a lookup list,
 * is not what the person who dropped the file saw first). The others are named in a notice (SheetFacts).
 */
function firstVisible(worksheets: SheetEntry[]): SheetEntry {
  const first = worksheets.find(isVisible) ?? worksheets[0];
  if (first === undefined) throw new Error('its workbook lists no worksheet');
  return first;
}

/** Where a sheet is in the zip: its relation says (relative to xl/, or absolute from the zip's root). */
function sheetPath(workbook: WorkbookParts, sheet: SheetEntry): string {
  const target = (workbook.workbookRels ?? []).find((relation) => relation.Id === sheet.rId)!.Target;
  const path = target.startsWith('/') ? posix.normalize(target.slice(1)) : posix.join('xl', target);
  if (path.startsWith('../')) throw new Error(`its sheet ${shownSheetName(sheet.name)} points outside the workbook (${target})`);
  return path;
}

/**
 * The parts of exceljs' streaming reader driven here (exceljs 4.4's WorkbookReader, whose own `parse` is not
 * used: see readXlsxRecords): each parses one part of the workbook, given as a stream.
 */
interface WorkbookParts {
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseStyles(part: Readable): Promise<void>;
  /** The workbook's sheets in tab order (set by _parseWorkbook). */
  model?: { sheets?: Array<{ name: string; rId: string; state?: string }> };
  /** The workbook's properties (set by _parseWorkbook): dates from 1904 in old Mac workbooks. */
  properties?: { model?: { date1904?: boolean } };
  /** The workbook's relations (set by _parseRels). */
  workbookRels?: Array<{ Id: string; Type: string; Target: string }>;
  /** The cell styles (set by _parseStyles; Excel's defaults before). */
  styles: {
    getStyleModel(styleId: number): { numFmt?: string } | undefined;
    /** The cell styles as the part lists them: each one's number format id. */
    model?: { styles?: Array<{ numFmtId?: number } | undefined> };
  };
}

/** First pass: the workbook reads to the end; rows counted, bytes hashed. */
export async function inspectXlsxFile(path: string): Promise<XlsxFileInfo> {
  const hash = createHash('sha256');
  let header: string[] = [];
  let rowCount = 0;
  let firstRow: SheetRecord | undefined;
  let workbook: SheetFacts | undefined;
  for await (const record of readXlsxRecords(
    path,
    (h) => (header = h),
    (chunk) => hash.update(chunk),
    (facts) => (workbook = facts),
  )) {
    firstRow ??= record;
    rowCount += 1;
  }
  // Read to its end without an error, the sheet said what it holds.
  return { path, header, rowCount, contentHash: hash.digest('hex'), workbook: workbook!, ...(firstRow === undefined ? {} : { firstRow }) };
}
