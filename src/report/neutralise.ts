/** A line a spreadsheet would evaluate: starts with =, +, -, @, tab or carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Plain signed numbers (-5000, +6281234567, -12.5) are data, not formulas, and are left alone. */
const PLAIN_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;
const LINE_BREAK = /(\r\n|\r|\n)/;

const neutraliseLine = (line: string): string => (FORMULA_START.test(line) && !PLAIN_NUMBER.test(line) ? `'${line}` : line);

/**
 * Neutralises formula-like text by prefixing an apostrophe, which spreadsheets show as text and never
 * evaluate. Applied to every cell of a CSV report: input columns and provider answers alike may carry
 * `=HYPERLINK(...)` from someone who wants it run. Every line of a cell is treated so: a reader that splits
 * rows on a bare line break (many do, quotes or not) would otherwise start a row with the formula.
 */
export function neutraliseCell(value: string): string {
  if (!/[=+\-@\t\r]/.test(value)) return value;
  const parts = value.split(LINE_BREAK);
  const lines = parts.map((part, index) => (index % 2 === 1 ? part : neutraliseLine(part))).join('');
  // A cell that starts with a carriage return is formula-like itself (the split left its first line empty).
  return lines.startsWith('\r') ? `'${lines}` : lines;
}

/**
 * The cell as it was before neutraliseCell, for a reader of a CSV report (`review`): the apostrophe before each
 * formula-like line taken off again. A holder name the bank gave as `-RATNA SARI DEWI` is written
 * `'-RATNA SARI DEWI` and must read back as the bank gave it, or no decision on it could ever be recorded.
 */
export function restoreCell(written: string): string {
  if (!written.includes("'")) return written;
  // A cell that started with a carriage return got its apostrophe before it (see neutraliseCell).
  const value = written.startsWith("'\r") ? written.slice(1) : written;
  const parts = value.split(LINE_BREAK);
  return parts
    .map((part, index) => (index % 2 === 0 && part.startsWith("'") && neutraliseLine(part.slice(1)) === part ? part.slice(1) : part))
    .join('');
}
