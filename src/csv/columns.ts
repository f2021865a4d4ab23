import { MissingColumnsError, UsageError } from '../errors.js';
import { maskDigitRuns } from '../logging/logger.js';

/** Where the three columns the check needs sit in the header; every other column passes through. */
export interface ColumnMapping {
  bankCode: number;
  accountNumber: number;
  /** Absent when the file has no expected-name column: rows are then VERIFIED, not compared. */
  expectedName: number | undefined;
}

export interface ColumnOverrides {
  bankCode?: string | undefined;
  accountNumber?: string | undefined;
  expectedName?: string | undefined;
}

const ALIASES = {
  bankCode: ['bank_code', 'bank', 'kode_bank'],
  accountNumber: ['account_number', 'account_no', 'account', 'no_rekening', 'nomor_rekening', 'rekening'],
  expectedName: ['account_name', 'account_holder', 'holder_name', 'beneficiary_name', 'name', 'nama', 'nama_rekening', 'nama_pemilik'],
} as const;

/** Names shown in a message: a file without a header row has a data row there, so digit runs are masked and the list is cut. */
const SHOWN_COLUMNS = 20;
const SHOWN_NAME_CHARACTERS = 60;
function describeHeader(header: readonly string[]): string {
  const names = header.slice(0, SHOWN_COLUMNS).map((name) => JSON.stringify(maskDigitRuns(name.length > SHOWN_NAME_CHARACTERS ? `${name.slice(0, SHOWN_NAME_CHARACTERS)}...` : name)));
  const more = header.length > SHOWN_COLUMNS ? `, and ${header.length - SHOWN_COLUMNS} more` : '';
  return names.length > 0 ? `${names.join(', ')}${more}` : '(nothing)';
}

/** Header names compare case-insensitively, ignoring spaces, `_` and `-` (and a stray BOM). */
export const headerKey = (name: string): string => name.replace(/^\uFEFF/, '').toLowerCase().replace(/[\s_-]+/g, '');

/**
 * Finds the bank code, account number and expected name columns. An override names a column exactly
 * (same loose comparison); aliases are tried in the order PRODUCT.md lists them, so `account_number`
 * wins over a plain `account` column when both exist.
 */
export function mapColumns(header: readonly string[], overrides: ColumnOverrides = {}): ColumnMapping {
  const keys = header.map(headerKey);
  const find = (field: keyof typeof ALIASES): number | undefined => {
    const override = overrides[field];
    if (override !== undefined) {
      const index = keys.indexOf(headerKey(override));
      if (index < 0) {
        throw new UsageError(
          `column ${JSON.stringify(override)} given for ${field} is not in the header; the header has: ${describeHeader(header)}`,
        );
      }
      return index;
    }
    for (const alias of ALIASES[field]) {
      const index = keys.indexOf(headerKey(alias));
      if (index >= 0) return index;
    }
    return undefined;
  };
  const bankCode = find('bankCode');
  const accountNumber = find('accountNumber');
  const missing = [
    ...(bankCode === undefined ? [`bank code (${ALIASES.bankCode.join(', ')})`] : []),
    ...(accountNumber === undefined ? [`account number (${ALIASES.accountNumber.join(', ')})`] : []),
  ];
  if (bankCode === undefined || accountNumber === undefined) throw new MissingColumnsError(missing, describeHeader(header));
  const expectedName = find('expectedName');
  if (new Set([bankCode, accountNumber, expectedName].filter((i) => i !== undefined)).size < (expectedName === undefined ? 2 : 3)) {
    throw new UsageError('the bank code, account number and name columns must be three different columns');
  }
  return { bankCode, accountNumber, expectedName };
}

/** The first column the mapping does not use: usually the payer's own id for the row (what people call it by). */
export function referenceColumn(header: readonly string[], mapping: ColumnMapping): number | undefined {
  const column = header.findIndex((_, index) => index !== mapping.bankCode && index !== mapping.accountNumber && index !== mapping.expectedName);
  return column < 0 ? undefined : column;
}
