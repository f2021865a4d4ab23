import { parseUnreadCell, unreadCellReason } from '../xlsx/unread-cell.js';
import type { ColumnMapping } from './columns.js';

/** What a row asks the provider, once it passed local validation. */
export interface AccountQuery {
  bankCode: string;
  accountNumber: string;
}

export type RowValidation =
  | { valid: true; account: AccountQuery; expectedName: string | undefined }
  | { valid: false; reason: string; expectedName: string | undefined };

// Bank account numbers in Indonesia run from 5 to about 20 digits; anything outside is a typo or a mangled cell.
const MIN_ACCOUNT_DIGITS = 5;
const MAX_ACCOUNT_DIGITS = 20;
const MAX_BANK_CODE_LENGTH = 40;

/**
 * Providers' bank codes are opaque and case-sensitive (`bca`, `bank_jatim`, `BCA`, `ID_BCA`, `014` are all
 * real): letters, digits, `_`, `-` and `.`, sent exactly as written.
 */
const BANK_CODE = /^[A-Za-z0-9_.-]+$/;

export const isBankCode = (code: string): boolean => BANK_CODE.test(code) && code.length <= MAX_BANK_CODE_LENGTH;

/** Aliases (a bank's name as an export writes it) to provider codes: BANK_CODE_MAP, keyed by `bankAliasKey`. */
export type BankCodeMap = ReadonlyMap<string, string>;

/** An alias compares case-insensitively, ignoring spaces: `Bank Central Asia` = `BANK CENTRAL  ASIA`. */
export const bankAliasKey = (alias: string): string => alias.toLowerCase().replace(/\s+/g, '');

/** Spaces a spreadsheet writes as thousands separators (no-break, narrow, figure space) count as spaces. */
const WIDE_SPACES = /[\u00A0\u2007\u202F]/g;
/** Digit groups with one kind of separator typed between them: `0012-3456-78`, `0012 3456 78`, `0012.3456.78`. */
const SEPARATED_DIGITS = /^\d+(?:([ .-])\d+(?:\1\d+)*)?$/;

/**
 * Validates one row before any call is made. Values are kept as strings so leading zeros survive. The bank
 * code is sent as written (trimmed), or as BANK_CODE_MAP translates it. An account number loses only the
 * separators typed between its digit groups; anything that could change which account is meant (a decimal
 * part such as a trailing `.0`, a sign, scientific notation, other digits than 0-9) makes the row
 * INPUT_INVALID with the reason: asking the provider about another account is worse than asking nothing.
 */
export function validateRow(fields: readonly string[], mapping: ColumnMapping, bankCodes: BankCodeMap = new Map()): RowValidation {
  const writtenBank = (fields[mapping.bankCode] ?? '').trim();
  const rawAccount = (fields[mapping.accountNumber] ?? '').trim().replace(WIDE_SPACES, ' ');
  const expectedName = mapping.expectedName === undefined ? undefined : (fields[mapping.expectedName] ?? '').trim() || undefined;
  const invalid = (reason: string): RowValidation => ({ valid: false, reason, expectedName });

  const unusable =
    cellProblem(writtenBank, 'bank code') ??
    cellProblem(rawAccount, 'account number') ??
    (expectedName === undefined ? undefined : (cellProblem(expectedName, 'expected name') ?? nameProblem(expectedName)));
  if (unusable !== undefined) return invalid(unusable);
  if (writtenBank === '') return invalid('bank code is empty');
  const bankCode = bankCodes.get(bankAliasKey(writtenBank)) ?? writtenBank;
  if (!isBankCode(bankCode)) {
    return invalid(
      `bank code ${JSON.stringify(writtenBank)} is not a bank code (letters, digits, '_', '-' and '.' only, at most ${MAX_BANK_CODE_LENGTH}); a bank's name can be translated with BANK_CODE_MAP`,
    );
  }
  const accountNumber = cleanAccountNumber(rawAccount);
  if (typeof accountNumber !== 'string') return invalid(accountNumber.reason);
  return { valid: true, account: { bankCode, accountNumber }, expectedName };
}

/**
 * Excel's error values: a formula that failed (a lookup that found nothing, a reference to a deleted cell).
 * In a CSV saved by Excel they are written as this text; in a workbook they are error cells.
 */
const EXCEL_ERRORS = new Set([
  '#N/A',
  '#REF!',
  '#VALUE!',
  '#DIV/0!',
  '#NAME?',
  '#NULL!',
  '#NUM!',
  '#SPILL!',
  '#CALC!',
  '#FIELD!',
  '#BLOCKED!',
  '#CONNECT!',
  '#BUSY!',
  '#UNKNOWN!',
  '#GETTING_DATA',
]);

/**
 * Why a cell the check reads (bank code, account number, expected name) holds no value to check: a
 * workbook cell the reader could not read as Excel shows it (its marker, see src/xlsx/unread-cell.ts: a
 * formula never computed, an error cell, a number format not rendered), or Excel's error value written as
 * text (a CSV saved by Excel). Checked before anything else: `#N/A` as a name went to the name comparison
 * (NO_MATCH, with a reason about joint accounts), as an account number it read as "characters other
 * than digits", and neither says what is wrong.
 */
function cellProblem(written: string, role: string): string | undefined {
  const unread = parseUnreadCell(written);
  if (unread !== undefined) return unreadCellReason(unread, role);
  const error = written.toUpperCase();
  if (EXCEL_ERRORS.has(error))
    return `the ${role} is Excel's error value ${error}: a formula in the spreadsheet failed; correct it there and export the file again`;
  return undefined;
}

/**
 * An expected name that is no name: a spreadsheet's boolean (`TRUE`, `FALSE`: a workbook's boolean cell
 * reads so, and so does Excel's CSV), or text with no letter at all (a date, `2026-11-21`, as a workbook's
 * date cell reads; a number; `-`). Compared, it is NO_MATCH with a reason about the holder's name, when
 * what is wrong is the file's column: INPUT_INVALID says so, as the provider's holder name of no letter is
 * not taken as a name either.
 */
function nameProblem(name: string): string | undefined {
  if (/^(?:TRUE|FALSE)$/i.test(name))
    return `the expected name ${JSON.stringify(name)} is a spreadsheet's TRUE/FALSE value, not a name: check the name column`;
  if (!/\p{L}/u.test(name))
    return `the expected name ${JSON.stringify(name)} has no letter (a date, a number?), so it is not a name: check the name column`;
  return undefined;
}

/**
 * `2023-03-15`, as a workbook's date cell reads (display.ts): its dashes would otherwise be taken for
 * separators between digit groups and `20230315` asked. No account number is written as a year, a month
 * and a day.
 */
function isDate(written: string): boolean {
  const [, month, day] = /^\d{4}-(\d{2})-(\d{2})$/.exec(written) ?? [];
  return month !== undefined && day !== undefined && Number(month) >= 1 && Number(month) <= 12 && Number(day) >= 1 && Number(day) <= 31;
}

/**
 * What in a written account number is no digit, the end of its reason: a character nobody sees (a zero-width space, a
 * non-breaking space pasted with the number) by its code point, and the two spreadsheet idioms a person types to
 * keep leading zeros (`'0012...`, `="0012..."`) by what they are.
 */
function strayCharacters(written: string): string {
  if (/^'\d/.test(written)) return ': a leading apostrophe (the mark a spreadsheet takes for text, saved with the digits): remove it';
  if (/^="\d[\d .-]*"$/.test(written)) return ': a spreadsheet formula written out (="..."): write the digits alone';
  const stray = [...new Set([...written].filter((char) => !/[0-9 .-]/.test(char)))].slice(0, 3);
  const named = stray.map((char) =>
    /[\p{Cc}\p{Cf}\p{Z}]/u.test(char)
      ? `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} (not visible)`
      : JSON.stringify(char),
  );
  return `${named.length === 0 ? '' : `: ${named.join(', ')}`} (only one space, '.' or '-' between digit groups is removed)`;
}

/** The digits to ask about, or why the written value cannot safely be read as one account number. */
function cleanAccountNumber(written: string): string | { reason: string } {
  const quoted = JSON.stringify(written);
  if (written === '') return { reason: 'account number is empty' };
  if (/\p{Nd}/u.test(written.replace(/[0-9]/g, ''))) {
    return { reason: `account number ${quoted} has digits other than 0-9; write it with 0-9` };
  }
  if (/^[+-]?\d+(?:[.,]\d+)?E[+-]?\d+$/i.test(written)) {
    return { reason: `account number ${quoted} is in scientific notation: a spreadsheet rounded it; export the column as text` };
  }
  if (/^[+-]/.test(written))
    return { reason: `account number ${quoted} starts with a sign: a spreadsheet may have read it as a number; write the digits only` };
  if (/[.,]0+$/.test(written) || /^\d+[.,]\d{1,2}$/.test(written) || written.includes(',')) {
    return {
      reason: `account number ${quoted} looks like a decimal number (a spreadsheet wrote it as a number): export the column as text`,
    };
  }
  if (isDate(written)) {
    return {
      reason: `account number ${quoted} reads as a date (a workbook's date cell reads so; a spreadsheet may have taken the value for a date): export the column as text`,
    };
  }
  if (!SEPARATED_DIGITS.test(written)) {
    return {
      reason: `account number ${quoted} contains characters other than digits${strayCharacters(written)}`,
    };
  }
  const digits = written.replace(/[ .-]/g, '');
  if (digits.length < MIN_ACCOUNT_DIGITS || digits.length > MAX_ACCOUNT_DIGITS) {
    return { reason: `account number has ${digits.length} digits; expected ${MIN_ACCOUNT_DIGITS} to ${MAX_ACCOUNT_DIGITS}` };
  }
  if (/^0+$/.test(digits)) return { reason: 'account number is all zeros' };
  return digits;
}

/** One key per bank account: the unit the provider is asked about, once per batch. */
export const accountKey = (account: AccountQuery): string => `${account.bankCode}:${account.accountNumber}`;

export function parseAccountKey(key: string): AccountQuery {
  const separator = key.indexOf(':');
  return { bankCode: key.slice(0, separator), accountNumber: key.slice(separator + 1) };
}
