/**
 * A workbook cell as text, the way Excel shows it (what a person sees, and what Excel's own CSV export
 * would write): values in, text out, no I/O.
 *
 * What matters is the account number column. A cell that holds text is read exactly. A number is read as
 * Excel displays it: a zero-padded format (`0000000000`) keeps its zeros, and General shows 12 digits or
 * more in scientific notation (`1.23457E+11`), which validation then refuses, as it refuses the same text
 * in a CSV: the column must be text. A number of 16 digits or more has already lost digits in Excel (it
 * keeps 15), whatever its format: it is always read in scientific notation, never as digits that would name
 * another account.
 */
export type CellValue =
  | null
  | undefined
  | string
  | number
  | boolean
  | Date
  | { richText: Array<{ text: string }> }
  | { text: unknown; hyperlink: string }
  | { formula?: string; sharedFormula?: string; result?: unknown }
  | { error: string }
  | { sharedString: number };

/** Excel keeps 15 significant digits: a larger whole number is not the one that was typed. */
const EXACT_DIGITS_LIMIT = 1e15;
/** General format shows whole numbers of up to 11 digits as they are, larger ones in scientific notation. */
const GENERAL_DIGITS_LIMIT = 1e11;

export function cellText(value: CellValue | unknown, numFmt?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value, numFmt);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if (typeof value !== 'object') return String(value);
  if ('richText' in value && Array.isArray(value.richText))
    return value.richText.map((run: { text?: unknown }) => String(run.text ?? '')).join('');
  if ('hyperlink' in value && 'text' in value) return cellText(value.text, numFmt);
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as { result?: unknown }).result, numFmt);
  if ('error' in value) return String(value.error);
  return '';
}

export function numberText(value: number, numFmt = 'General'): string {
  if (!Number.isFinite(value)) return String(value);
  const whole = Number.isInteger(value);
  if (whole && Math.abs(value) >= EXACT_DIGITS_LIMIT) return scientific(value);
  const format = numFmt.trim();
  // A zero-padded format: what ops use to show account numbers kept as numbers.
  if (whole && /^0+$/.test(format))
    return String(Math.abs(value))
      .padStart(format.length, '0')
      .replace(/^/, value < 0 ? '-' : '');
  if (whole && (format === '0' || format === '#0' || format === '#')) return String(value);
  if (whole) return Math.abs(value) < GENERAL_DIGITS_LIMIT ? String(value) : scientific(value);
  // Fractions: General shows at most 11 characters; ten significant digits keeps amounts and scores as written.
  return String(Number(value.toPrecision(10)));
}

/** `123456789012` -> `1.23457E+11`, as Excel's General format writes it. */
function scientific(value: number): string {
  const [mantissa, exponent] = value.toExponential(5).split('e') as [string, string];
  const trimmed = mantissa.replace(/\.?0+$/, '');
  const sign = exponent.startsWith('-') ? '-' : '+';
  return `${trimmed}E${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
}

/** A date cell: `2026-11-21`, or with its time when it has one (UTC: the workbook's dates carry no zone). */
function dateText(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z')
    ? iso.slice(0, 10)
    : iso
        .replace('T', ' ')
        .replace(/\.000Z$/, '')
        .replace(/Z$/, '');
}
