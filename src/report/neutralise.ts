/** A cell a spreadsheet would evaluate: starts with =, +, -, @, tab or carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Plain signed numbers (-5000, +6281234567, -12.5) are data, not formulas, and are left alone. */
const PLAIN_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

/**
 * Neutralises formula-like cells by prefixing an apostrophe, which spreadsheets show as text and
 * never evaluate. Applied to every cell of the report: input columns and provider answers alike
 * may carry `=HYPERLINK(...)` from someone who wants it run.
 */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}
