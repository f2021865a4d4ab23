/**
 * What an input file is, from its first bytes: values in, a verdict out (no file access here). A file's
 * name says little (Excel workbooks, zipped or gzipped exports and UTF-16 text all arrive named `.csv`), so
 * the content decides how it is read, or why it is refused.
 */

/** How a text file's bytes become characters. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export type ContentKind =
  /** A zip: an XLSX workbook (or another zip, which the workbook reader refuses). */
  | { kind: 'zip' }
  /** A legacy binary Excel workbook (OLE compound file). */
  | { kind: 'xls' }
  | { kind: 'gzip' }
  /** A web page or an XML spreadsheet that a program named `.xls` ("export to Excel"): markup, not rows. */
  | { kind: 'markup'; what: string }
  /** Text with a byte-order mark, or without one (then UTF-8 or, failing that, Windows-1252: see `plausibleWindows1252`). */
  | { kind: 'text'; encoding: TextEncoding | undefined }
  /** Not text: a NUL byte outside UTF-16, or another file type. */
  | { kind: 'binary'; what: string };

const startsWith = (head: Uint8Array, bytes: number[]): boolean => bytes.every((byte, index) => head[index] === byte);

/** Reads the first bytes (a few KiB are plenty). */
export function sniffContent(head: Uint8Array): ContentKind {
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { kind: 'zip' };
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { kind: 'xls' };
  if (startsWith(head, [0x1f, 0x8b])) return { kind: 'gzip' };
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return markupIn(head) ?? { kind: 'text', encoding: 'utf-8' };
  if (startsWith(head, [0xff, 0xfe])) return { kind: 'text', encoding: 'utf-16le' };
  if (startsWith(head, [0xfe, 0xff])) return { kind: 'text', encoding: 'utf-16be' };
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46])) return { kind: 'binary', what: 'a PDF document' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47])) return { kind: 'binary', what: 'a PNG image' };
  const nul = head.indexOf(0);
  if (nul >= 0) {
    // UTF-16 without a byte-order mark shows as every other byte NUL: name it, it is a common export.
    const alternating = head.length >= 4 && ((head[1] === 0 && head[3] === 0) || (head[0] === 0 && head[2] === 0));
    return { kind: 'binary', what: alternating ? 'UTF-16 text without a byte-order mark' : `binary data (a NUL byte at offset ${nul})` };
  }
  return markupIn(head) ?? { kind: 'text', encoding: undefined };
}

/**
 * Text that opens with markup (after a UTF-8 byte-order mark and blanks): no CSV header starts with `<`. Web
 * applications' "Excel" exports are HTML tables, older ones Excel 2003's XML spreadsheet, both named `.xls`;
 * read as CSV they failed on a quote somewhere in the markup, a message that named neither.
 */
function markupIn(head: Uint8Array): ContentKind | undefined {
  const start = Buffer.from(head.subarray(0, 4096))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (!start.startsWith('<')) return undefined;
  if (start.includes('urn:schemas-microsoft-com:office:spreadsheet')) return { kind: 'markup', what: 'an Excel 2003 XML spreadsheet' };
  if (/^<(!doctype html|html|table|meta|head|body)\b/.test(start) || start.includes('<html'))
    return { kind: 'markup', what: 'an HTML page' };
  return { kind: 'markup', what: 'an XML or HTML document' };
}

/** Bytes Windows-1252 leaves undefined: a file holding them is not 1252 text. */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/** Length of the valid UTF-8 multi-byte sequence starting at `index`, or 0. */
function utf8SequenceAt(bytes: Uint8Array, index: number): number {
  const lead = bytes[index]!;
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0 || index + length > bytes.length) return 0;
  for (let next = index + 1; next < index + length; next += 1) if ((bytes[next]! & 0xc0) !== 0x80) return 0;
  return length;
}

/**
 * Whether bytes that are not valid UTF-8 read as Windows-1252 text (Excel's "CSV" on Windows): no NUL, no
 * byte 1252 leaves undefined, no control character but tab, CR and LF, and no valid UTF-8 character either
 * (a file mixing UTF-8 with other bytes would have its UTF-8 names mangled whichever way it is read).
 * Returns what disqualifies it, or undefined.
 */
export function windows1252Problem(bytes: Uint8Array, offset = 0): string | undefined {
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (UNDEFINED_IN_1252.has(byte) || (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d)) {
      return `byte 0x${byte.toString(16).padStart(2, '0')} at offset ${offset + index}`;
    }
    if (byte >= 0x80 && utf8SequenceAt(bytes, index) > 0)
      return `UTF-8 text mixed with other bytes: a UTF-8 character at offset ${offset + index}`;
  }
  return undefined;
}

/** How a refused kind is named to the user, with what to do. */
export function describeUnreadable(content: Exclude<ContentKind, { kind: 'text' } | { kind: 'zip' }>): string {
  switch (content.kind) {
    case 'xls':
      // The same container holds a workbook protected by a password (an .xlsx encrypted inside).
      return 'is a legacy Excel workbook (.xls) or a workbook protected by a password: save it as .xlsx without a password, or as CSV (UTF-8), and run that';
    case 'gzip':
      return 'is gzip-compressed: unpack it (gunzip) and run the CSV inside';
    case 'markup':
      return `is ${content.what}, not a CSV file or a workbook (a web application's "export to Excel" often is): open it in a spreadsheet, save it as .xlsx or CSV (UTF-8), and run that`;
    case 'binary':
      return `is not a text CSV file (${content.what}): export the sheet as CSV (UTF-8) and run that`;
  }
}
