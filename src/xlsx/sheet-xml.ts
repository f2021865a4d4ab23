import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { cellText, type CellValue, formattedText, numberText } from './display.js';
import { unreadCellText } from './unread-cell.js';

/**
 * The two parts of a workbook that hold what a row says, read here rather than by exceljs' streaming
 * reader, which an outside review caught changing cells: an inline string written in runs kept its last
 * run only (`0012345678` in two runs read `345678`, and a row MATCHed an account the workbook does not
 * hold); the phonetic reading Japanese Excel stores beside a shared string replaced its text; a text cell
 * pointing past the shared strings, or at none, read as empty (a name read empty is no name to check).
 * Here a cell reads as Excel shows it, or the workbook is refused naming the cell.
 */

/** One parse event, batched per chunk (the parser is synchronous: a chunk's events are all there after its write). */
type XmlEvent = { kind: 'open'; tag: SaxesTagPlain } | { kind: 'text'; text: string } | { kind: 'close'; name: string };

/**
 * Whether a part's XML got to its root's closing tag. The parser is never closed (it would fail on the
 * first cut): XML cut anywhere, in a zip entry written short or a part truncated by a tool, ends a sheet's
 * rows there, or the shared strings short, without an error, and the batch would be checked with rows or
 * values missing. What comes after the root (a comment, whitespace) does not matter.
 */
export interface PartEnd {
  closed: boolean;
}

/** The XML of a part as it streams, decoded across chunk boundaries (a character split over two chunks stays whole). */
async function* xmlEvents(part: AsyncIterable<Buffer>, end: PartEnd): AsyncGenerator<XmlEvent[]> {
  const parser = new SaxesParser();
  const decoder = new StringDecoder('utf8');
  let events: XmlEvent[] = [];
  let depth = 0;
  parser.on('opentag', (tag) => {
    depth += 1;
    events.push({ kind: 'open', tag: tag as SaxesTagPlain });
  });
  parser.on('text', (text) => events.push({ kind: 'text', text }));
  parser.on('closetag', (tag) => {
    depth -= 1;
    if (depth === 0) end.closed = true;
    events.push({ kind: 'close', name: tag.name });
  });
  for await (const chunk of part) {
    parser.write(decoder.write(chunk));
    yield events;
    events = [];
  }
  parser.write(decoder.end());
  yield events;
}

/** A tag's local name (`x:row` is `row`: some writers prefix the main namespace). */
const local = (name: string): string => name.slice(name.indexOf(':') + 1);

/**
 * A string item's text (`<si>` or `<is>`): its `<t>`, or the `<t>` of its runs joined, never the `<t>` of
 * a phonetic reading (`<rPh>`), which is not what the cell shows.
 */
class StringItem {
  private text = '';
  private inText = false;
  private phonetic = 0;

  open(name: string): void {
    if (name === 'rPh') this.phonetic += 1;
    else if (name === 't' && this.phonetic === 0) this.inText = true;
  }

  close(name: string): void {
    if (name === 'rPh') this.phonetic -= 1;
    else if (name === 't') this.inText = false;
  }

  add(text: string): void {
    if (this.inText) this.text += text;
  }

  value(): string {
    return this.text;
  }
}

export interface SharedStrings {
  strings: string[];
  /** How many the part says it holds (`uniqueCount`), when it says. */
  declared: number | undefined;
}

/** The workbook's shared strings, each as its cells show it; `end` tells whether the part was whole. */
export async function readSharedStrings(part: AsyncIterable<Buffer>, end: PartEnd): Promise<SharedStrings> {
  const strings: string[] = [];
  let declared: number | undefined;
  let item: StringItem | undefined;
  for await (const events of xmlEvents(part, end)) {
    for (const event of events) {
      if (event.kind === 'open') {
        const name = local(event.tag.name);
        if (name === 'sst' && event.tag.attributes.uniqueCount !== undefined) declared = Number(event.tag.attributes.uniqueCount);
        else if (name === 'si') item = new StringItem();
        else item?.open(name);
      } else if (event.kind === 'text') item?.add(event.text);
      else {
        const name = local(event.name);
        if (name === 'si' && item !== undefined) {
          strings.push(item.value());
          item = undefined;
        } else item?.close(name);
      }
    }
  }
  return { strings, declared };
}

/**
 * The custom number formats of the styles part (`<numFmt numFmtId formatCode>`), by id, as written. Read
 * here because exceljs' styles reader drops a format's backslashes (`\0\00` became `000`: 12345678
 * shown as 0012345678 in Excel read 12345678, another account).
 */
export async function readNumberFormats(part: AsyncIterable<Buffer>): Promise<Map<number, string>> {
  const formats = new Map<number, string>();
  // Only the cell formats of `<numFmts>`: a `<numFmt>` of a conditional format (`<dxfs>`) applies where its
  // condition holds, and may reuse a cell format's id with another code (`0` for `0000000000`: another account).
  let inNumFmts = false;
  for await (const events of xmlEvents(part, { closed: false })) {
    for (const event of events) {
      if (event.kind === 'close') {
        if (local(event.name) === 'numFmts') inNumFmts = false;
        continue;
      }
      if (event.kind !== 'open') continue;
      const name = local(event.tag.name);
      if (name === 'numFmts') inNumFmts = true;
      if (name !== 'numFmt' || !inNumFmts) continue;
      const { numFmtId, formatCode } = event.tag.attributes;
      if (numFmtId !== undefined && formatCode !== undefined) formats.set(Number(numFmtId), formatCode);
    }
  }
  return formats;
}

/**
 * Whether the workbook asks Excel to compute every formula again when it opens it (`<calcPr
 * fullCalcOnLoad="1"/>` in workbook.xml): programs that write formulas (XlsxWriter with 0 as every result,
 * openpyxl) set it, and the values they stored, if any, are not what Excel shows.
 */
export async function readRecomputesOnLoad(part: AsyncIterable<Buffer>): Promise<boolean> {
  let recomputes = false;
  for await (const events of xmlEvents(part, { closed: false })) {
    for (const event of events) {
      if (event.kind !== 'open' || local(event.tag.name) !== 'calcPr') continue;
      const value = event.tag.attributes.fullCalcOnLoad;
      recomputes = value === '1' || value === 'true';
    }
  }
  return recomputes;
}

/** What a sheet's cells need from the rest of the workbook. */
export interface SheetContext {
  /** Undefined when the workbook has no shared strings part. */
  sharedStrings: string[] | undefined;
  /** The number format of a cell style (`s`), as Excel applies it. */
  numFmtOf(styleId: number): string | undefined;
  /** The workbook counts dates from 1904 (old Mac workbooks). */
  date1904: boolean;
  /** Excel computes every formula again on opening (readRecomputesOnLoad): no formula's stored value is what it shows. */
  recomputesOnLoad?: boolean;
}

/**
 * What the end of a sheet's part says besides its rows (PartEnd): the rows its `<dimension>` says the sheet
 * spans, the last row it holds, and its merged cells (`<mergeCells>`, written after the rows).
 */
export interface SheetEnd extends PartEnd {
  /** The last row of the sheet's `<dimension ref="A1:G29">` (29), when it has one. */
  dimensionLastRow?: number;
  /** The number of the last `<row>` the sheet holds (0: none). */
  lastRow: number;
  /** Its merged ranges, as written (`D2:D3`). */
  merged: string[];
}

export interface SheetRow {
  /** The row's number in the sheet (1-based). */
  number: number;
  /** Its cells as text, by column (index 0 is column A); columns without a cell are missing. */
  cells: string[];
}

/**
 * A cell being read: its place, style, type, and the text of its value or inline string. A formula's cached
 * value is what Excel shows; its text is kept for a formula without one (see shownText).
 */
interface OpenCell {
  ref: string;
  column: number;
  /** Where it is, as Excel names it (`D2`), for a cell that cannot be read. */
  name: string;
  /** Its style (`s`), when it has one. */
  style: number | undefined;
  type: string;
  value?: string;
  inline?: StringItem;
  /** The text of its formula (`<f>`), when it has one (empty for a shared formula's other cells). */
  formula?: string;
}

/** A sheet's rows as text, one at a time, as Excel shows each cell (see display.ts); `end` tells whether the part was whole. */
export async function* readSheetRows(part: AsyncIterable<Buffer>, context: SheetContext, end: SheetEnd): AsyncGenerator<SheetRow> {
  let row: SheetRow | undefined;
  let lastRow = 0;
  let lastColumn = -1;
  let cell: OpenCell | undefined;
  let inValue = false;
  let inFormula = false;
  for await (const events of xmlEvents(part, end)) {
    const done: SheetRow[] = [];
    for (const event of events) {
      if (event.kind === 'open') {
        const name = local(event.tag.name);
        const attributes = event.tag.attributes;
        if (name === 'row') {
          // `r` may be left out: the row after the last one.
          lastRow = attributes.r === undefined ? lastRow + 1 : Number(attributes.r);
          end.lastRow = Math.max(end.lastRow, lastRow);
          row = { number: lastRow, cells: [] };
          lastColumn = -1;
        } else if (name === 'dimension' && attributes.ref !== undefined) {
          // A range (`A1:G29`); a single cell (`A1`) is what writers put in an empty sheet.
          const last = /:\$?[A-Za-z]+\$?(\d+)$/.exec(attributes.ref)?.[1];
          if (last !== undefined) end.dimensionLastRow = Number(last);
        } else if (name === 'mergeCell' && attributes.ref !== undefined) {
          end.merged.push(attributes.ref);
        } else if (name === 'c' && row !== undefined) {
          const ref = attributes.r ?? '';
          lastColumn = ref === '' ? lastColumn + 1 : columnOf(ref);
          cell = {
            ref: ref || `row ${row.number}, column ${lastColumn + 1}`,
            column: lastColumn,
            name: `${columnName(lastColumn)}${row.number}`,
            style: attributes.s === undefined ? undefined : Number(attributes.s),
            type: attributes.t ?? 'n',
          };
        } else if (cell !== undefined) {
          if (name === 'v') {
            inValue = true;
            cell.value = '';
          } else if (name === 'f') {
            inFormula = true;
            cell.formula = '';
          } else if (name === 'is') cell.inline = new StringItem();
          else cell.inline?.open(name);
        }
      } else if (event.kind === 'text') {
        if (inValue && cell !== undefined) cell.value += event.text;
        else if (inFormula && cell !== undefined) cell.formula += event.text;
        else cell?.inline?.add(event.text);
      } else {
        const name = local(event.name);
        if (name === 'v') inValue = false;
        else if (name === 'f') inFormula = false;
        else if (name === 'c' && cell !== undefined && row !== undefined) {
          row.cells[cell.column] = shownText(cell, context);
          cell = undefined;
        } else if (name === 'row' && row !== undefined) {
          done.push(row);
          row = undefined;
        } else cell?.inline?.close(name);
      }
    }
    yield* done;
  }
}

/**
 * A cell's text as Excel shows it, or, for a cell whose shown text the reader does not have, its marker
 * (unread-cell.ts), which validation refuses in a column the check reads: a formula without a cached value
 * (written by a program, left for Excel to compute on opening: read as empty it made a named payee's row
 * VERIFIED), an error value, a number in a format not rendered (display.ts).
 */
function shownText(cell: OpenCell, context: SheetContext): string {
  // No cached value: `<v>` left out, or empty where the type has no empty value (an empty `<v>` of a text
  // formula, t="str", is a formula that computed to "", which Excel shows as nothing).
  if (
    cell.formula !== undefined &&
    (context.recomputesOnLoad === true || cell.value === undefined || (cell.value.trim() === '' && cell.type !== 'str'))
  )
    return unreadCellText({ kind: 'uncomputed', ref: cell.name, formula: cell.formula.trim() });
  if (cell.type === 'e' && cell.value !== undefined && cell.value.trim() !== '')
    return unreadCellText({ kind: 'error', ref: cell.name, error: cell.value.trim() });
  const numFmt = cell.style === undefined ? undefined : context.numFmtOf(cell.style);
  const value = cellValue(cell, context, numFmt);
  if (typeof value === 'number') {
    return (
      numberText(value, numFmt) ?? unreadCellText({ kind: 'format', ref: cell.name, value: cellText(value), format: numFmt ?? 'General' })
    );
  }
  if (typeof value === 'string') return formattedText(value, numFmt);
  return cellText(value, numFmt);
}

/** A cell's value for cellText (display.ts), from what the sheet says. */
function cellValue(cell: OpenCell, context: SheetContext, numFmt: string | undefined): CellValue {
  const text = cell.value;
  switch (cell.type) {
    case 's': {
      if (text === undefined) return null;
      const index = Number(text);
      const strings = context.sharedStrings;
      if (!Number.isInteger(index) || strings === undefined || index < 0 || index >= strings.length)
        throw new Error(
          `its cell ${cell.ref} refers to shared string ${text}, and the workbook holds ${strings === undefined ? 'none' : strings.length}`,
        );
      return strings[index];
    }
    case 'inlineStr':
      return cell.inline?.value() ?? text ?? null;
    case 'str':
      return text ?? null;
    case 'b':
      return text === undefined ? null : text.trim() !== '0';
    case 'e':
      return text === undefined ? null : { error: text };
    case 'd':
      return text === undefined ? null : new Date(text);
    default: {
      // An empty cell with a style (a formula without a cached value is read before: shownText).
      if (text === undefined || text.trim() === '') return null;
      const number = Number(text);
      // A serial outside Excel's dates (before 1900, after 9999) Excel shows as ####: no date to read, the
      // number goes on to its format, which is not rendered (the cell is reported as not read).
      return isDateFormat(numFmt) && number >= 0 && number < LAST_DATE_SERIAL ? excelDate(number, context.date1904) : number;
    }
  }
}

/** 27 (0-based) -> `AB`. */
export function columnName(column: number): string {
  let name = '';
  for (let rest = column + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

/** `AB12` -> 27 (0-based). */
export function columnOf(ref: string): number {
  let column = 0;
  for (const letter of ref.toUpperCase()) {
    const code = letter.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + code - 64;
  }
  return column - 1;
}

/** A number format that shows dates or times: any of y m d h s outside quoted text, escaped characters (`\N\o\m\o\r`) and [...] sections. */
function isDateFormat(numFmt: string | undefined): boolean {
  if (numFmt === undefined) return false;
  return /[ymdhs]/i.test(
    numFmt
      .replace(/\[[^\]]*]/g, '')
      .replace(/"[^"]*"/g, '')
      .replace(/\\./g, ''),
  );
}

/** 10000-01-01 as an Excel serial: past Excel's last date. */
const LAST_DATE_SERIAL = 2_958_466;

/** An Excel serial date as a Date (UTC: a workbook's dates carry no zone). */
function excelDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}
