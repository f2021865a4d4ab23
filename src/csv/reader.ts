import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import iconv from 'iconv-lite';
import { InputFileError, UsageError } from '../errors.js';
import { maskDigitRuns } from '../logging/logger.js';
import { ALIAS_KEYS, headerKey } from './columns.js';
import { detectDelimiter, type Delimiter } from './delimiter.js';
import { windows1252Problem, type TextEncoding } from './sniff.js';

/** One data row as it stands in the file, with its 1-based line number for messages. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/**
 * The last row of a file, when it may have been cut: no line end after it, or fewer fields than the header
 * and than the row before it (a tool or an editor that saved a cut file ended it with a line break). How many fields it was written
 * with (before padding); whether its last value may be cut depends on the columns read (`cutLastValue`).
 */
export interface LastRowInDoubt {
  line: number;
  fieldCount: number;
  /** A line end follows it (then it has fewer fields than the header). */
  lineEnd: boolean;
}

/** How to read a file again after inspection; JSON-serialisable, stored with the batch. */
export interface CsvLayout {
  delimiter: Delimiter;
  /** How the bytes are decoded; UTF-8 when absent (batches made before encodings were told apart). */
  encoding?: TextEncoding;
  /** The file starts with Excel's `sep=;` line, which is not the header. */
  sepLine?: boolean;
}

export interface CsvFileInfo extends CsvLayout {
  path: string;
  encoding: TextEncoding;
  header: string[];
  /** Data rows, not counting the header or blank lines. */
  rowCount: number;
  /** SHA-256 of the bytes: the same content dropped again is recognised whatever its name. */
  contentHash: string;
  /** Set when the file's last row may have been cut (see LastRowInDoubt, `cutLastValue`). */
  lastRowInDoubt?: LastRowInDoubt;
  /** The first data row (a second header row is refused: see refuseSecondHeaderRow); in memory only, never stored. */
  firstRow?: CsvRecord;
}

/**
 * No row of a beneficiary list comes near this; a record that does is an unbalanced quote swallowing the
 * rest of the file, or not a beneficiary list: refused instead of read without bound.
 */
export const MAX_RECORD_CHARACTERS = 1_000_000;
/** Parser messages can quote cell values: cut, with digit runs masked (they may be account numbers). */
const MAX_MESSAGE_CHARACTERS = 300;
/** The start of the file, read to find the header line and its delimiter. */
const HEAD_BYTES = 64 * 1024;

/** The file is not valid UTF-8 (where it was read as UTF-8): the inspection tries Windows-1252 next. */
export class NotUtf8Error extends InputFileError {}

/** The first bytes of a file, checking that it is a readable file. */
export async function readHead(path: string, bytes = HEAD_BYTES): Promise<Buffer> {
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
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The delimiter, from the first line that is not blank: Excel's `sep=;` line names it (and is skipped),
 * otherwise the header line's own `,` or `;` count decides.
 */
export function headerLayout(text: string): Pick<CsvLayout, 'delimiter' | 'sepLine'> {
  const first =
    text
      .replace(/^\uFEFF/, '')
      .split(/\r\n|\r|\n/)
      .find((line) => line.trim() !== '') ?? '';
  const sep = /^"?sep=(.)"?\s*$/i.exec(first);
  if (sep === null) return { delimiter: detectDelimiter(first, (name) => ALIAS_KEYS.has(headerKey(name))), sepLine: false };
  const named = sep[1]!;
  if (named !== ',' && named !== ';' && named !== '\t') {
    throw new InputFileError(
      `the file's first line ${JSON.stringify(first)} names the delimiter ${JSON.stringify(named)}: only ',', ';' and tab are read`,
    );
  }
  return { delimiter: named, sepLine: true };
}

/**
 * UTF-8 or UTF-16 that refuses an invalid byte instead of writing U+FFFD: a name is never silently mangled,
 * and a UTF-16 file with an odd number of bytes (half a character at its end: a file cut short) is refused
 * rather than read without its last byte.
 */
class StrictDecoder extends Transform {
  private readonly decoder: InstanceType<typeof TextDecoder>;
  private offset = 0;

  constructor(
    private readonly path: string,
    private readonly encoding: 'utf-8' | 'utf-16le' | 'utf-16be',
  ) {
    super({ readableObjectMode: false, decodeStrings: true });
    this.decoder = new TextDecoder(encoding, { fatal: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      const text = this.decoder.decode(chunk, { stream: true });
      this.offset += chunk.length;
      callback(null, text);
    } catch {
      callback(this.invalid());
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      callback(null, this.decoder.decode());
    } catch {
      callback(this.invalid(true));
    }
  }

  private invalid(atEnd = false): InputFileError {
    if (this.encoding === 'utf-8') return new NotUtf8Error(`${this.path} is not valid UTF-8 (near byte ${this.offset})`);
    const name = this.encoding.toUpperCase();
    if (atEnd && this.offset % 2 === 1) {
      return new InputFileError(
        `${this.path} is cut short: as ${name} text it has an odd number of bytes (${this.offset}), half a character at its end, as when a transfer or an export was cut short; nothing was checked. Get the whole file again`,
      );
    }
    return new InputFileError(`${this.path} is not valid ${name} text (near byte ${this.offset}): save it again as CSV UTF-8 and run that`);
  }
}

const decoderFor = (encoding: TextEncoding, path: string): Transform =>
  encoding === 'windows-1252' ? (iconv.decodeStream(encoding) as unknown as Transform) : new StrictDecoder(path, encoding);

/** A parser message made safe to show: digit runs masked, cut to a readable length. */
function parserMessage(error: CsvError): string {
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    const line = /at line (\d+)/.exec(error.message)?.[1] ?? '?';
    return `the row at line ${line} holds more than ${MAX_RECORD_CHARACTERS.toLocaleString('en')} characters: an unbalanced quote, or not a beneficiary list`;
  }
  const message = maskDigitRuns(error.message);
  return message.length > MAX_MESSAGE_CHARACTERS ? `${message.slice(0, MAX_MESSAGE_CHARACTERS)}...` : message;
}

/**
 * Streams the data rows of a CSV file: never more than a parser buffer in memory. Bytes are decoded by the
 * file's encoding (see `inspectCsvFile`); rows end at CRLF, LF or CR, mixed in one file as editors leave
 * them (a line break inside quotes stays in its cell). Blank lines and Excel's `sep=` line are skipped;
 * the first record is the header; rows with fewer fields than the header are padded (spreadsheets drop
 * trailing empty cells), except the last row of a file with no line end after it: a file that stops
 * mid-row is a transfer or an export cut short (`...\nB,014,71000`: the account number may be cut too, and
 * the rows after it are missing), so the file is refused (InputFileError, exit 2) rather than its last
 * row asked (or made INPUT_INVALID while the file looks complete). A whole last row with no line end, or
 * a short one with a line end, is told to `onLastRowInDoubt`: whether its last value may be cut depends on
 * the columns read (`cutLastValue`). A DOS end-of-file mark (Ctrl-Z) after the last line is no row.
 */
export async function* readCsvRecords(
  path: string,
  layout: CsvLayout,
  onHeader?: (header: string[]) => void,
  onBytes?: (chunk: Buffer) => void,
  onLastRowInDoubt?: (row: LastRowInDoubt) => void,
): AsyncGenerator<CsvRecord> {
  const source = createReadStream(path);
  const decoder = decoderFor(layout.encoding ?? 'utf-8', path);
  const parser = parse({
    delimiter: layout.delimiter,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_CHARACTERS,
    info: true,
  });
  if (onBytes) {
    const tap = new PassThrough();
    tap.on('data', onBytes);
    source.pipe(tap).pipe(decoder).pipe(parser);
  } else {
    source.pipe(decoder).pipe(parser);
  }
  source.on('error', (error) => parser.destroy(error));
  decoder.on('error', (error) => parser.destroy(error));
  // Whether the text ends with a line end (a Ctrl-Z after it left aside): the last row of a file that does not, if short, was cut.
  let endsWithLineEnd = false;
  decoder.on('data', (chunk: Buffer | string) => {
    const at = (index: number) => (typeof chunk === 'string' ? chunk.charCodeAt(index) : chunk[index]);
    let end = chunk.length;
    while (end > 0 && at(end - 1) === CTRL_Z) end -= 1;
    if (end === 0) return;
    endsWithLineEnd = at(end - 1) === 0x0a || at(end - 1) === 0x0d;
  });
  let header: string[] | undefined;
  let sepLineSkipped = !layout.sepLine;
  // One row is held back until the next one comes: only then is it known not to be the last.
  let held: { record: string[]; line: number } | undefined;
  // How many fields the row before the held one had (the header's before the first): a last row shorter than it may be cut.
  let before = 0;
  const pad = (record: string[], width: number): CsvRecord['fields'] =>
    record.length < width ? [...record, ...new Array<string>(width - record.length).fill('')] : record;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!sepLineSkipped) {
        sepLineSkipped = true;
        continue;
      }
      if (record.length === 1 && isCtrlZ(record[0]!)) continue;
      if (header === undefined) {
        header = record.map((name) => name.trim());
        onHeader?.(header);
        continue;
      }
      if (held !== undefined) {
        before = held.record.length;
        yield { fields: pad(held.record, header.length), line: held.line };
      } else before = header.length;
      held = { record, line: info.lines };
    }
    if (held !== undefined && header !== undefined) {
      // A Ctrl-Z right after the last value (no line end before it) is no part of that value.
      const last = held.record.length - 1;
      held.record[last] = held.record[last]!.replace(TRAILING_CTRL_Z, '');
      // Blank cells too: a last line of `,` or `;` with no line end is the start of a row the transfer cut off.
      if (!endsWithLineEnd) {
        if (held.record.length < header.length) {
          throw cutFileError(
            path,
            `its last line (${held.line}) has ${held.record.length} of the header's ${header.length} fields and no line end`,
          );
        }
        onLastRowInDoubt?.({ line: held.line, fieldCount: held.record.length, lineEnd: false });
      } else if (held.record.length < Math.min(before, header.length) && held.record.some((value) => value.trim() !== '')) {
        // Shorter than the header and than the row before it: it may end where a cut did (a file whose rows are
        // all short alike is written so). A blank last line is a blank row, as anywhere in the file.
        onLastRowInDoubt?.({ line: held.line, fieldCount: held.record.length, lineEnd: true });
      }
      yield { fields: pad(held.record, header.length), line: held.line };
    }
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    if (error instanceof CsvError)
      throw new InputFileError(`${path} is not a readable CSV file: ${parserMessage(error)}`, { cause: error });
    throw new InputFileError(`cannot read input file ${path}: ${(error as Error).message}`, { cause: error });
  } finally {
    source.destroy();
  }
  if (header === undefined) throw new UsageError(`${path} is empty: a header row is required`);
}

/** The DOS end-of-file mark some old exports write after the last line. */
const CTRL_Z = 0x1a;
const TRAILING_CTRL_Z = new RegExp(`${String.fromCharCode(CTRL_Z)}+$`);
const isCtrlZ = (value: string): boolean => value.length > 0 && value.replace(TRAILING_CTRL_Z, '') === '';

/** A file that stops in the middle of a row: refused whole, as the rows after the cut are missing too. */
const cutFileError = (path: string, what: string, ifWhole = 'end the file with a line break'): InputFileError =>
  new InputFileError(
    `${path} stops in the middle of a row: ${what}, as when a transfer or an export was cut short; nothing was checked. ` +
      `Get the whole file again (if that row is complete, ${ifWhole})`,
  );

/**
 * The refusal of a file whose last row has no line end and ends in a value the check reads (`readPositions`:
 * the file's columns of the bank code, account number and expected name): a transfer cut inside that value
 * leaves a whole-looking row (`...\nB,014,71000` of `7100012345`: another account, perhaps another
 * person's), and nothing in the bytes tells a cut from a file written without its last line break. The
 * file is refused (exit 2) rather than the row made INPUT_INVALID, as for a row cut shorter: the rows after
 * the cut are missing too, and a run must not end 0 without them. Any other last column (a note, an id the
 * check does not read) is passed through as it stands: a cut there changes no answer.
 *
 * A last row with a line end but fewer fields than the header and than the row before it is refused the
 * same way when it ends in a value the check reads and lacks another one (`014,12345678` under `bank_code,account_number,nama`: a cut
 * file that a tool or an editor ended with a line break looks just so). One that lacks only columns the
 * check does not read is read, padded, as any short row (Excel leaves trailing empty cells out).
 */
export function cutLastValue(
  file: Pick<CsvFileInfo, 'path' | 'header' | 'lastRowInDoubt'>,
  readPositions: readonly number[],
): InputFileError | undefined {
  const row = file.lastRowInDoubt;
  if (row === undefined || !readPositions.includes(row.fieldCount - 1)) return undefined;
  const column = JSON.stringify(maskDigitRuns(file.header[row.fieldCount - 1] ?? ''));
  if (row.lineEnd) {
    if (readPositions.every((position) => position < row.fieldCount)) return undefined;
    return cutFileError(
      file.path,
      `its last line (${row.line}) has ${row.fieldCount} of the header's ${file.header.length} fields, lacks a value the check reads and ends in the column ${column}, which may have been cut`,
      'write out its empty cells, one separator per column',
    );
  }
  return cutFileError(
    file.path,
    `its last line (${row.line}) has no line end and ends in the column ${column}, which is read for the check and may have been cut`,
  );
}

/**
 * First pass over a file before anything is queued: decides how it is read, checks that it parses to the
 * end, counts rows and hashes the content. A broken file is refused whole, instead of half of it being
 * checked. Without a byte-order mark the file is read as UTF-8; where that fails it is Windows-1252
 * (Excel's "CSV" on Windows) if every byte is plausible there, and refused otherwise: the encoding is
 * decided from every byte before any row is stored, so a name is never silently mangled.
 */
export async function inspectCsvFile(path: string, head: Buffer, byteOrderMark: TextEncoding | undefined): Promise<CsvFileInfo> {
  try {
    return await inspectAs(path, head, byteOrderMark ?? 'utf-8');
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    if (byteOrderMark !== undefined)
      throw new InputFileError(`${error.message}, although it starts with a UTF-8 byte-order mark: save it again as CSV UTF-8`);
    const problem = await windows1252ProblemIn(path);
    if (problem !== undefined) {
      throw new InputFileError(`${path} is neither UTF-8 nor Windows-1252 text (${problem}): save it as CSV UTF-8 and run that`);
    }
    return inspectAs(path, head, 'windows-1252');
  }
}

async function inspectAs(path: string, head: Buffer, encoding: TextEncoding): Promise<CsvFileInfo> {
  const layout: CsvLayout = { ...headerLayout(iconv.decode(head, encoding)), encoding };
  const hash = createHash('sha256');
  let header: string[] = [];
  let rowCount = 0;
  let lastRowInDoubt: LastRowInDoubt | undefined;
  let firstRow: CsvRecord | undefined;
  const records = readCsvRecords(
    path,
    layout,
    (h) => (header = h),
    (chunk) => hash.update(chunk),
    (row) => (lastRowInDoubt = row),
  );
  for await (const record of records) {
    firstRow ??= record;
    rowCount += 1;
  }
  return {
    path,
    ...layout,
    encoding,
    header,
    rowCount,
    contentHash: hash.digest('hex'),
    ...(lastRowInDoubt === undefined ? {} : { lastRowInDoubt }),
    ...(firstRow === undefined ? {} : { firstRow }),
  };
}

async function windows1252ProblemIn(path: string): Promise<string | undefined> {
  let offset = 0;
  for await (const chunk of createReadStream(path)) {
    const problem = windows1252Problem(chunk as Buffer, offset);
    if (problem !== undefined) return problem;
    offset += (chunk as Buffer).length;
  }
  return undefined;
}
