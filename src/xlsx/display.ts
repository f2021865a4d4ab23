/**
 * A workbook cell as text, the way Excel shows it (what a person sees, and what Excel's own CSV export
 * would write): values in, text out, no I/O.
 *
 * What matters is the account number column. A cell that holds text is read exactly. A number is read as
 * Excel displays it in its number format (`0000000000`, `0000000000;-0000000000` and `"00"0` keep its
 * zeros; a format not rendered here is said to be, see numberText), and General shows 12 digits or
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

/**
 * A value's shown text. A number in a format numberText does not render falls back to General here: the
 * sheet reader (sheet-xml.ts) reads numbers through numberText itself and never lets that happen to a cell.
 */
export function cellText(value: CellValue | unknown, numFmt?: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return formattedText(value, numFmt);
  if (typeof value === 'number') return numberText(value, numFmt) ?? generalText(value);
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

/**
 * A number as Excel shows it in `numFmt`, or undefined when the format holds something this reader does not
 * render (see renderNumber). The cell reader (sheet-xml.ts) then yields the cell as one it could not read
 * (unread-cell.ts), which validation refuses in a column the check reads.
 */
export function numberText(value: number, numFmt = 'General'): string | undefined {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) >= EXACT_DIGITS_LIMIT) return scientific(value);
  return renderNumber(value, numFmt);
}

/**
 * General: whole numbers of up to 11 digits as they are, larger ones in scientific notation; a fraction in at
 * most 11 characters, its digits before the point kept whole: `12345678901.000002` (arithmetic's rounding
 * error on an account number) shows `12345678901`, as in Excel, never `12345678900`; 12 digits or more before
 * the point are scientific notation (refused as an account number), as for whole numbers.
 */
export function generalText(value: number): string {
  if (Number.isInteger(value)) return Math.abs(value) < GENERAL_DIGITS_LIMIT ? String(value) : scientific(value);
  const wholeDigits = String(Math.trunc(Math.abs(value))).length;
  // The digits before the point, the point, and as many decimals as the 11 characters leave.
  const rounded = Number(value.toFixed(Math.max(0, Math.min(10, 10 - wholeDigits))));
  return Math.abs(rounded) < GENERAL_DIGITS_LIMIT ? String(rounded) : scientific(value);
}

/*
 * Number formats. What is rendered is what account numbers and bank codes kept as numbers are formatted
 * with, and what amounts commonly are: sections (positive;negative;zero;text), quoted literal text ("00"0),
 * backslash-escaped characters (\-), the characters Excel shows as they are ($ - + / ( ) : space ...),
 * digit placeholders 0 (a digit or a padding zero), # (a digit, no padding) and ? (a digit or a space),
 * literals between digits (000-000-0000), a decimal point, thousands separators and scaling commas, %,
 * colours ([Red]), a currency symbol ([$Rp-421]), _x (a space) and *x (a fill to the column's width,
 * which text has none of: left out; it adds no digit). A format holding anything else (a condition
 * [>100], scientific notation 0.00E+00, fractions # ?/?, letters) is not guessed at: shown any other way
 * the number could read as another account, so the cell is reported as not read instead (a number in a
 * column passed through shows the same note in the report). Dates are read before this (sheet-xml.ts).
 */

/** A piece of a format section: a digit placeholder, a decimal point, or literal text. */
type Token =
  | { kind: 'digit'; char: '0' | '#' | '?' }
  | { kind: 'point' }
  | { kind: 'comma' }
  | { kind: 'percent' }
  | { kind: 'text'; text: string };

/** Characters Excel shows as they are without quotes. */
const PLAIN_LITERALS = new Set([..."$-+/():!^&'~{}<>= "]);

/** A workbook has a few formats and many cells: each format is split once (bounded, for a hostile file). */
const splitFormats = new Map<string, string[]>();
function sectionsOf(format: string): string[] {
  let found = splitFormats.get(format);
  if (found === undefined) {
    if (splitFormats.size >= 1000) splitFormats.clear();
    found = sections(format);
    splitFormats.set(format, found);
  }
  return found;
}

/** Splits a format into its sections at `;` outside quotes, escapes and brackets. */
function sections(format: string): string[] {
  const found: string[] = [];
  let current = '';
  for (let index = 0; index < format.length; index += 1) {
    const char = format[index]!;
    if (char === '"') {
      const close = format.indexOf('"', index + 1);
      const stop = close < 0 ? format.length : close + 1;
      current += format.slice(index, stop);
      index = stop - 1;
    } else if (char === '\\' || char === '_' || char === '*') {
      current += format.slice(index, index + 2);
      index += 1;
    } else if (char === '[') {
      const close = format.indexOf(']', index);
      const stop = close < 0 ? format.length : close + 1;
      current += format.slice(index, stop);
      index = stop - 1;
    } else if (char === ';') {
      found.push(current);
      current = '';
    } else current += char;
  }
  found.push(current);
  return found;
}

/** A section's tokens, or undefined when it holds something not rendered here. `text` allows `@`. */
function tokens(section: string, text = false): Token[] | undefined {
  const found: Token[] = [];
  let slash = false;
  for (let index = 0; index < section.length; index += 1) {
    const char = section[index]!;
    if (char === '"') {
      const close = section.indexOf('"', index + 1);
      if (close < 0) return undefined;
      found.push({ kind: 'text', text: section.slice(index + 1, close) });
      index = close;
    } else if (char === '\\') {
      if (index + 1 >= section.length) return undefined;
      found.push({ kind: 'text', text: section[index + 1]! });
      index += 1;
    } else if (char === '_') {
      found.push({ kind: 'text', text: ' ' });
      index += 1;
    } else if (char === '*') index += 1;
    else if (char === '[') {
      const close = section.indexOf(']', index);
      if (close < 0) return undefined;
      const inside = section.slice(index + 1, close);
      index = close;
      // A currency or locale: [$Rp-421] shows Rp, [$-409] nothing.
      if (inside.startsWith('$')) found.push({ kind: 'text', text: inside.slice(1).replace(/-[0-9A-Fa-f]+$/, '') });
      else if (!/^(?:black|blue|cyan|green|magenta|red|white|yellow|color\s*\d{1,2})$/i.test(inside)) return undefined;
    } else if (text) found.push({ kind: 'text', text: char === '@' ? '\u0000' : char });
    else if (char === '0' || char === '#' || char === '?') found.push({ kind: 'digit', char });
    else if (char === '.') found.push({ kind: 'point' });
    else if (char === ',') found.push({ kind: 'comma' });
    else if (char === '%') found.push({ kind: 'percent' });
    else if (PLAIN_LITERALS.has(char)) {
      // A slash before a digit placeholder is a fraction (# ?/?), not rendered here.
      if (char === '/') slash = true;
      found.push({ kind: 'text', text: char });
    } else return undefined;
    if (slash && found.at(-1)?.kind === 'digit') return undefined;
  }
  return found;
}

/** Tokens that are all literal text, joined; undefined when there are others (or none could be read). */
function literalText(parsed: Token[] | undefined): string | undefined {
  if (parsed === undefined) return undefined;
  let text = '';
  for (const token of parsed) {
    if (token.kind !== 'text') return undefined;
    text += token.text;
  }
  return text;
}

/** A number in a format (see above), or undefined when the format is not rendered here. */
function renderNumber(value: number, numFmt: string): string | undefined {
  const format = numFmt.trim();
  if (format === '' || /^general$/i.test(format)) return generalText(value);
  const parts = sectionsOf(format);
  if (parts.length > 4) return undefined;
  // Which section: positive, negative (shown without its sign: the section writes one if it wants it), zero.
  let section = parts[0]!;
  let sign = '';
  if (value < 0 && parts.length >= 2) section = parts[1]!;
  else if (value < 0) sign = '-';
  else if (value === 0 && parts.length >= 3) section = parts[2]!;
  const magnitude = Math.abs(value);
  // `General` inside a section ("Rp "General), and a text format (@) on a number, show it as General.
  if (/^general$/i.test(section.trim()) || section.trim() === '@') return sign + generalText(magnitude);
  // `General` inside literal text ("Rp "General): the number as General, the text around it as written.
  const general = /general/i.exec(section);
  if (general !== null) {
    const before = literalText(tokens(section.slice(0, general.index)));
    const after = literalText(tokens(section.slice(general.index + general[0].length)));
    return before === undefined || after === undefined ? undefined : sign + before + generalText(magnitude) + after;
  }
  const parsed = tokens(section);
  if (parsed === undefined) return undefined;
  if (!parsed.some((token) => token.kind === 'digit')) {
    // Literal text only ("-", "none"): Excel shows the text, not the number.
    const literal = literalText(parsed);
    return literal === undefined ? undefined : sign + literal;
  }
  return sign + placeDigits(magnitude, parsed);
}

/** Digits, grouping, scaling and literals of one numeric section, for a number of no sign. */
function placeDigits(magnitude: number, parsed: Token[]): string | undefined {
  const point = parsed.findIndex((token) => token.kind === 'point');
  if (parsed.filter((token) => token.kind === 'point').length > 1) return undefined;
  const integerTokens = point < 0 ? parsed : parsed.slice(0, point);
  const fractionTokens = point < 0 ? [] : parsed.slice(point + 1);
  if (fractionTokens.some((token) => token.kind === 'comma')) return undefined;
  // A comma between digit placeholders groups thousands; commas after the last one scale by 1,000 each.
  const lastDigit = integerTokens.findLastIndex((token) => token.kind === 'digit');
  const firstDigit = integerTokens.findIndex((token) => token.kind === 'digit');
  let grouping = false;
  let scale = 0;
  for (const [index, token] of integerTokens.entries()) {
    if (token.kind !== 'comma') continue;
    if (index > firstDigit && index < lastDigit && firstDigit >= 0) grouping = true;
    else if (index > lastDigit && (lastDigit >= 0 || point >= 0)) scale += 1;
    else return undefined;
  }
  const percents = parsed.filter((token) => token.kind === 'percent').length;
  const decimals = fractionTokens.filter((token) => token.kind === 'digit').length;
  const [wholeDigits, fractionDigits] = roundedDigits((magnitude * 100 ** percents) / 1000 ** scale, decimals);

  // The integer part, right to left: each placeholder takes the next digit; with none left, 0 pads with
  // a zero, ? with a space, # with nothing. Digits beyond the placeholders go where the leftmost one is.
  const integerDigits = wholeDigits === '0' ? '' : wholeDigits;
  let out = '';
  let next = integerDigits.length - 1;
  let placed = 0;
  // One more character of the integer part, after a thousands comma when it starts a new group.
  const place = (character: string) => {
    if (grouping && placed > 0 && placed % 3 === 0) out = `,${out}`;
    out = character + out;
    placed += 1;
  };
  const digitPlaceholders = integerTokens.filter((token) => token.kind === 'digit').length;
  let seen = 0;
  for (let index = integerTokens.length - 1; index >= 0; index -= 1) {
    const token = integerTokens[index]!;
    if (token.kind === 'text') out = token.text + out;
    else if (token.kind === 'percent') out = `%${out}`;
    else if (token.kind === 'digit') {
      seen += 1;
      const take = seen === digitPlaceholders ? next + 1 : Math.min(1, next + 1);
      for (let taken = 0; taken < take; taken += 1) {
        place(integerDigits[next]!);
        next -= 1;
      }
      if (take === 0 && token.char !== '#') place(token.char === '0' ? '0' : ' ');
    }
  }
  if (point < 0) return out;
  // The fraction, left to right; trailing zeros a # stands for are left out, ? shows them as spaces.
  let fraction = '';
  let digitIndex = 0;
  const placeholders = fractionTokens.filter((token) => token.kind === 'digit') as Array<{ kind: 'digit'; char: '0' | '#' | '?' }>;
  const lastShown = (() => {
    let last = -1;
    for (const [index, placeholder] of placeholders.entries()) if (placeholder.char === '0' || fractionDigits[index] !== '0') last = index;
    return last;
  })();
  for (const token of fractionTokens) {
    if (token.kind === 'text') fraction += token.text;
    else if (token.kind === 'percent') fraction += '%';
    else if (token.kind === 'digit') {
      const digit = fractionDigits[digitIndex]!;
      fraction += digitIndex <= lastShown ? digit : token.char === '?' ? ' ' : '';
      digitIndex += 1;
    }
  }
  return `${out}.${fraction}`;
}

/**
 * A number rounded to `decimals` places as Excel rounds what it shows: on its 15 significant digits, half
 * away from zero (1.005 shows as 1.01, where toFixed gives 1.00). Returns the whole and fraction digits.
 */
function roundedDigits(magnitude: number, decimals: number): [string, string] {
  const [mantissa, exponentText] = magnitude.toExponential(14).split('e') as [string, string];
  const exponent = Number(exponentText);
  let digits = mantissa.replace('.', '');
  // The place of the decimal point in `digits`.
  let pointAt = exponent + 1;
  if (pointAt < 0) {
    digits = '0'.repeat(-pointAt) + digits;
    pointAt = 0;
  }
  const keep = pointAt + decimals;
  let kept = digits.slice(0, Math.max(keep, 0)).padEnd(Math.max(keep, 0), '0');
  if (keep >= 0 && Number(digits[keep] ?? '0') >= 5) kept = increment(kept === '' ? '0' : kept);
  else if (kept === '') kept = '0';
  const wholeLength = kept.length - decimals;
  const whole = (wholeLength > 0 ? kept.slice(0, wholeLength) : '').replace(/^0+(?=\d)/, '') || '0';
  const fraction = wholeLength >= 0 ? kept.slice(wholeLength) : kept.padStart(decimals, '0');
  return [whole, fraction];
}

/** A string of decimal digits plus one: `0999` -> `1000`. */
function increment(digits: string): string {
  const chars = [...digits];
  for (let index = chars.length - 1; index >= 0; index -= 1) {
    if (chars[index] !== '9') {
      chars[index] = String(Number(chars[index]) + 1);
      return chars.join('');
    }
    chars[index] = '0';
  }
  return `1${chars.join('')}`;
}

/**
 * A text cell as Excel shows it in `numFmt`: its text section (the fourth, or a single section with `@`)
 * around it (`"ID-"@` shows 123 as ID-123); as it is when the format has no text section, or hides it.
 */
export function formattedText(text: string, numFmt: string | undefined): string {
  if (numFmt === undefined) return text;
  const parts = sectionsOf(numFmt.trim());
  const section =
    parts.length === 4 ? parts[3]! : parts.length === 1 && /@/.test(parts[0]!.replace(/"[^"]*"|\\./g, '')) ? parts[0]! : undefined;
  if (section === undefined) return text;
  const literal = literalText(tokens(section, true));
  // A format that hides the text (`;;;`) shows nothing, but the cell holds it: read as nothing, a name hidden so
  // made its row VERIFIED ("no expected name to compare"), its name never compared.
  if (literal === undefined || (literal === '' && text !== '')) return text;
  return literal.replaceAll('\u0000', text);
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
