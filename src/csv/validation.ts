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
const MAX_BANK_CODE_LENGTH = 12;

/**
 * Validates one row before any call is made. Values are kept as strings so leading zeros survive;
 * separators people type inside account numbers (spaces, dots, dashes) are removed, anything else
 * that is not a digit makes the row INPUT_INVALID with the reason.
 */
export function validateRow(fields: readonly string[], mapping: ColumnMapping): RowValidation {
  const rawBank = (fields[mapping.bankCode] ?? '').trim();
  const rawAccount = (fields[mapping.accountNumber] ?? '').trim();
  const expectedName = mapping.expectedName === undefined ? undefined : (fields[mapping.expectedName] ?? '').trim() || undefined;
  const invalid = (reason: string): RowValidation => ({ valid: false, reason, expectedName });

  if (rawBank === '') return invalid('bank code is empty');
  if (!/^[A-Za-z0-9]+$/.test(rawBank) || rawBank.length > MAX_BANK_CODE_LENGTH) {
    return invalid(`bank code ${JSON.stringify(rawBank)} is not a bank code (letters and digits only, at most ${MAX_BANK_CODE_LENGTH})`);
  }
  if (rawAccount === '') return invalid('account number is empty');
  if (/^[0-9]+(?:[.,][0-9]+)?E\+?[0-9]+$/i.test(rawAccount)) {
    return invalid(`account number ${JSON.stringify(rawAccount)} is in scientific notation: a spreadsheet rounded it; export the column as text`);
  }
  const accountNumber = rawAccount.replace(/[\s.-]+/g, '');
  if (/[^0-9]/.test(accountNumber)) {
    return invalid(`account number ${JSON.stringify(rawAccount)} contains characters other than digits`);
  }
  if (accountNumber.length < MIN_ACCOUNT_DIGITS || accountNumber.length > MAX_ACCOUNT_DIGITS) {
    return invalid(`account number has ${accountNumber.length} digits; expected ${MIN_ACCOUNT_DIGITS} to ${MAX_ACCOUNT_DIGITS}`);
  }
  if (/^0+$/.test(accountNumber)) return invalid('account number is all zeros');
  return { valid: true, account: { bankCode: rawBank.toUpperCase(), accountNumber }, expectedName };
}

/** One key per bank account: the unit the provider is asked about, once per batch. */
export const accountKey = (account: AccountQuery): string => `${account.bankCode}:${account.accountNumber}`;

export function parseAccountKey(key: string): AccountQuery {
  const separator = key.indexOf(':');
  return { bankCode: key.slice(0, separator), accountNumber: key.slice(separator + 1) };
}
