import { ColumnChoiceError, MissingColumnsError, UsageError } from '../errors.js';
import { maskDigitRuns } from '../logging/logger.js';
import { RESULT_COLUMNS, REPORT_SIGNATURE } from './report-columns.js';

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

/** Never a name of the product's own output columns (RESULT_COLUMNS): `account_holder` is the bank's answer in a report. */
export const ALIASES = {
  // A code before a plain `bank`: a sheet with both (`Bank Tujuan` holding names, `Kode Bank Tujuan` codes) is read by its codes.
  bankCode: ['bank_code', 'kode_bank', 'kode_bank_tujuan', 'bank', 'bank_tujuan'],
  accountNumber: [
    'account_number',
    'account_no',
    'account',
    'no_rekening',
    'nomor_rekening',
    'rekening',
    'no_rek',
    'rekening_tujuan',
    'no_rekening_tujuan',
  ],
  expectedName: [
    'account_name',
    'holder_name',
    'beneficiary_name',
    'name',
    'nama',
    'nama_rekening',
    'nama_pemilik',
    'nama_pemilik_rekening',
    'nama_penerima',
    'penerima',
    'nama_nasabah',
    'atas_nama',
    'a.n.',
    'a/n',
    'pemegang_rekening',
    'nama_pemegang_rekening',
  ],
} as const;

/**
 * Parts of a header name that say a column holds a person's or a payee's name (`Nama Lengkap`, `Payee`,
 * `Recipient Name`), unless it names a bank, a branch or a sender (`Nama Bank`, `Nama Pengirim`). A file whose
 * expected name is in such a column, under a name not among the aliases, would be checked without names,
 * every row VERIFIED: it is refused instead (see mapColumns).
 */
const NAME_LIKE = /nama|name|^nm|penerima|pemilik|pemegang|holder|beneficiar|payee|recipient|nasabah|karyawan|pegawai|employee/;
const NOT_A_PAYEE =
  /bank|cabang|branch|pengirim|sender|file|produk|product|user|operator|petugas|admin|ibu|kandung|mother|email|kota|city|alamat|address|telp|phone|merchant/;

/**
 * `--name-column none`: the names of a file whose only name-like column is no payee's (`Nama Ibu Kandung` is
 * excluded, `Nama Admin` too, but others may come) are not to be compared: every row VERIFIED. A file with
 * an expected-name column the aliases find is refused with it, so that a setting for every file of a
 * watched folder or a schedule never leaves real names unread.
 */
export const NO_NAME_COLUMN = 'none';

/** What each role is called in messages and in the summary. */
export const ROLE_NAMES: Record<keyof ColumnMapping, string> = {
  bankCode: 'bank code',
  accountNumber: 'account number',
  expectedName: 'expected name',
};

/** Names shown in a message: a file without a header row has a data row there, so digit runs are masked and the list is cut. */
const SHOWN_COLUMNS = 20;
const SHOWN_NAME_CHARACTERS = 60;
function describeHeader(header: readonly string[]): string {
  const names = header
    .slice(0, SHOWN_COLUMNS)
    .map((name) =>
      JSON.stringify(maskDigitRuns(name.length > SHOWN_NAME_CHARACTERS ? `${name.slice(0, SHOWN_NAME_CHARACTERS)}...` : name)),
    );
  const more = header.length > SHOWN_COLUMNS ? `, and ${header.length - SHOWN_COLUMNS} more` : '';
  return names.length > 0 ? `${names.join(', ')}${more}` : '(nothing)';
}

/** Header names compare case-insensitively, ignoring spaces, `_`, `-` and `.` (`No. Rekening`; and a stray BOM). */
export const headerKey = (name: string): string =>
  name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_.-]+/g, '');

const OUTPUT_KEYS = new Set(RESULT_COLUMNS.map(headerKey));

/** The input's columns as a batch reads and repeats them. */
export interface InputColumns {
  /** The columns the report repeats, in the file's order: every column but those of an earlier report. */
  header: string[];
  /** Where each of them sits in the file's rows. */
  positions: number[];
  /** Columns of an earlier report of this product that the input carried: not read, not passed through (this report's own replace them). */
  replaced: string[];
  /** The roles, as indexes into `header`. */
  mapping: ColumnMapping;
}

/**
 * Reads a file's header for a batch. The product's own output columns are never input: in a report fed back
 * (its header has REPORT_SIGNATURE) they are set aside, so that its original columns are read and the new
 * report holds each of its columns once, with this check's answers; a file that is not a report but has a
 * column of such a name is refused, since the report would hold two columns of that name (and
 * `account_holder` would not be read as the expected name it may hold). Two columns of one name are refused:
 * which one holds the account would be a guess (the first silently won before), and the report would
 * repeat the name. Unnamed columns are not names: any number of them pass through.
 */
export function readInputColumns(fileHeader: readonly string[], overrides: ColumnOverrides = {}): InputColumns {
  const keys = fileHeader.map(headerKey);
  const outputs = fileHeader.filter((_, index) => OUTPUT_KEYS.has(keys[index]!));
  if (outputs.length > 0 && !REPORT_SIGNATURE.every((name) => keys.includes(headerKey(name)))) {
    throw new UsageError(
      `the column(s) ${describeHeader(outputs)} have the name of a column this product writes into its report (${RESULT_COLUMNS.join(', ')}): they are never read as input, and the report would hold two columns of that name. ` +
        `Rename them (a name on file is read from ${ALIASES.expectedName.join(', ')})`,
    );
  }
  const positions = keys.flatMap((key, index) => (OUTPUT_KEYS.has(key) ? [] : [index]));
  const header = positions.map((index) => fileHeader[index]!);
  const seen = new Map<string, number>();
  for (const index of positions) {
    const key = keys[index]!;
    if (key === '') continue;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new UsageError(
        `the header names two columns alike, ${describeHeader([fileHeader[first]!, fileHeader[index]!])} (columns ${first + 1} and ${index + 1}): which one to read would be a guess, and the report would repeat the name. Rename or remove one`,
      );
    }
    seen.set(key, index);
  }
  for (const field of Object.keys(overrides) as Array<keyof ColumnOverrides>) {
    const override = overrides[field];
    if (override !== undefined && OUTPUT_KEYS.has(headerKey(override))) {
      throw new UsageError(
        `column ${JSON.stringify(override)} given for the ${ROLE_NAMES[field]} is a column this product writes into its report: it is never read as input`,
      );
    }
  }
  return { header, positions, replaced: outputs, mapping: mapColumns(header, overrides) };
}

/** The input column read for each role, by name; `expectedName` null when the file has none (rows are VERIFIED). */
export interface RoleColumns {
  bankCode: string;
  accountNumber: string;
  expectedName: string | null;
}

export const roleColumns = (header: readonly string[], mapping: ColumnMapping): RoleColumns => ({
  bankCode: header[mapping.bankCode] ?? '',
  accountNumber: header[mapping.accountNumber] ?? '',
  expectedName: mapping.expectedName === undefined ? null : (header[mapping.expectedName] ?? ''),
});

/** `bank code "bank_code", account number "no_rekening", expected name "nama"` (or `none`), for people. */
export const describeRoles = (roles: RoleColumns): string =>
  (Object.keys(ROLE_NAMES) as Array<keyof RoleColumns>)
    .map((role) => `${ROLE_NAMES[role]} ${roles[role] === null ? 'none' : JSON.stringify(roles[role])}`)
    .join(', ');

/** The flag that names each role's column. */
const ROLE_FLAGS: Record<keyof ColumnMapping, string> = {
  bankCode: '--bank-column',
  accountNumber: '--account-column',
  expectedName: '--name-column',
};

/**
 * Finds the bank code, account number and expected name columns. An override names a column exactly (same
 * loose comparison). Otherwise a role's column is the one its aliases find; where they find several, which
 * one is the payee's would be a guess (a transfer sheet's own account beside the destination's, `No Rekening`
 * and `No Rekening Tujuan`; a hidden old `account` column beside `Nomor Rekening`; the clerk's `Nama` beside
 * `Nama Penerima`: the first alias used to win, and the wrong account was checked, MATCH), so the file is
 * refused, naming them and the flag that chooses (ColumnChoiceError). One exception keeps its reading: a
 * bank's code beside its name, both of the source or both of the destination (`Kode Bank Tujuan` beside `Bank
 * Tujuan`), is read by the code.
 */
export function mapColumns(header: readonly string[], overrides: ColumnOverrides = {}): ColumnMapping {
  const keys = header.map(headerKey);
  /** Every column an alias of `field` names, in the aliases' order. */
  const candidates = (field: keyof typeof ALIASES): number[] =>
    ALIASES[field].flatMap((alias) => {
      const index = keys.indexOf(headerKey(alias));
      return index >= 0 ? [index] : [];
    });
  // Every role whose aliases find several columns, said at once: a transfer sheet has two of bank and account.
  const ambiguous: string[] = [];
  const byAlias = (field: keyof typeof ALIASES): number | undefined => {
    const found = candidates(field);
    const sides = field === 'expectedName' ? [] : bothSides(keys, PAYEE_ROLE_LIKE[field]);
    const code = field === 'bankCode' && found.length > 1 ? bankCodeBesideItsName(found.map((index) => keys[index]!)) : undefined;
    if (sides.length === 0 && code !== undefined) return found[code];
    const choices = sides.length > 0 ? sides : found.length > 1 ? found : [];
    if (choices.length > 0)
      ambiguous.push(`the ${ROLE_NAMES[field]} in ${describeHeader(choices.map((index) => header[index]!))} (${ROLE_FLAGS[field]})`);
    return found[0];
  };
  const find = (field: keyof typeof ALIASES): number | undefined => {
    const override = overrides[field];
    if (field === 'expectedName' && override !== undefined && headerKey(override) === NO_NAME_COLUMN) {
      const found = candidates('expectedName')[0];
      if (found === undefined) return undefined;
      throw new UsageError(
        `--name-column ${NO_NAME_COLUMN} was given, but the file has the expected-name column ${describeHeader([header[found]!])}: its names would be left uncompared (every row VERIFIED). Leave the option out to compare them`,
      );
    }
    if (override !== undefined) {
      const index = keys.indexOf(headerKey(override));
      if (index < 0) {
        throw new UsageError(
          `column ${JSON.stringify(override)} given for ${field} is not in the header; the header has: ${describeHeader(header)}`,
        );
      }
      return index;
    }
    return byAlias(field);
  };
  const bankCode = find('bankCode');
  const accountNumber = find('accountNumber');
  const expectedName = find('expectedName');
  if (ambiguous.length > 0) {
    throw new ColumnChoiceError(
      `several columns could hold what the check reads, and which one is meant would be a guess (a transfer sheet's own account beside the payee's, an old column beside a new one): ${ambiguous.join('; ')}. Name each with its flag`,
      `several columns could hold ${ambiguous.join('; ')}`,
    );
  }
  const missing = [
    ...(bankCode === undefined ? [`bank code (${ALIASES.bankCode.join(', ')})`] : []),
    ...(accountNumber === undefined ? [`account number (${ALIASES.accountNumber.join(', ')})`] : []),
  ];
  if (bankCode === undefined || accountNumber === undefined) {
    // A sheet with a title above its header ("DAFTAR PENERIMA PEMBAYARAN NOVEMBER 2026") has it read as the header.
    const title = header.filter((name) => name.trim() !== '').length <= 1;
    throw new MissingColumnsError(
      missing,
      describeHeader(header),
      title ? ' The first row holds one cell only: if it is a title above the header, remove the rows above the header.' : '',
    );
  }
  if (expectedName === undefined && overrides.expectedName === undefined) refuseUnreadNames(header, [bankCode, accountNumber]);
  if (new Set([bankCode, accountNumber, expectedName].filter((i) => i !== undefined)).size < (expectedName === undefined ? 2 : 3)) {
    throw new UsageError('the bank code, account number and name columns must be three different columns');
  }
  return { bankCode, accountNumber, expectedName };
}

/** Header keys (headerKey) that look like a bank's or an account number's column, an alias or not (`No. Rek. Penerima`). */
const PAYEE_ROLE_LIKE = {
  bankCode: /bank/,
  accountNumber: /rekening|norek|^rek|account|acct|accno/,
} as const;
/** A column of the payee's side of a transfer sheet (`Tujuan`, `Penerima`, `Beneficiary`...). */
const PAYEE_SIDE = /tujuan|penerima|beneficiar|benef|payee|recipient|destination|kredit|credit/;
/** A column of the payer's side, said so (`Rekening Pengirim`, `Sender Account`). */
const NOT_A_PAYEE_SIDE = /pengirim|sender|asal|sumber|debit|source|payer/;

/**
 * A transfer sheet's columns of one role on both sides: the payee's (`Nomor Rekening Tujuan`, `No. Rek.
 * Penerima`, `Beneficiary Account`: many are no alias) beside one that names no side (`Nomor Rekening`, the
 * payer's own). Read by alias alone, the payer's account was asked and MATCHed (an outside attack), also after
 * the user named the payee's bank column as a refusal asked. Every such column, or none when the role's columns
 * are all of one side (a payer's side named `Pengirim` is no payee's).
 */
function bothSides(keys: readonly string[], like: RegExp): number[] {
  // Not a branch, nor a name (`Beneficiary Account Name` is the payee's name, not an account).
  const columns = keys.flatMap((key, index) => (like.test(key) && !/cabang|branch|nama|name|holder|pemilik/.test(key) ? [index] : []));
  const payee = columns.filter((index) => PAYEE_SIDE.test(keys[index]!));
  const unsaid = columns.filter((index) => !PAYEE_SIDE.test(keys[index]!) && !NOT_A_PAYEE_SIDE.test(keys[index]!));
  return payee.length > 0 && unsaid.length > 0 ? [...unsaid, ...payee] : [];
}

/**
 * Of the bank-code columns the aliases found (their header keys), the one to read when they are a bank's code
 * and its name on the same side of a transfer (`kode_bank` beside `bank`, `kode_bank_tujuan` beside
 * `bank_tujuan`): the code. Undefined when they are anything else (two codes; the source's beside the
 * destination's), which is for a person to choose.
 */
function bankCodeBesideItsName(keys: readonly string[]): number | undefined {
  if (keys.length !== 2 || new Set(keys.map((key) => key.includes('tujuan'))).size !== 1) return undefined;
  const codes = keys.flatMap((key, index) => (/kode|code/.test(key) ? [index] : []));
  return codes.length === 1 ? codes[0] : undefined;
}

/**
 * No expected-name column was found: a column that looks like one (NAME_LIKE) but is not among the aliases
 * is refused (exit 2) rather than left unread, which would turn every row VERIFIED, the names on file never
 * compared (a payout to the wrong person passing as green). `--name-column` names it, or `none` checks the
 * accounts alone.
 */
function refuseUnreadNames(header: readonly string[], mapped: readonly number[]): void {
  const looksLikeNames = header.filter((name, index) => {
    const key = headerKey(name);
    return !mapped.includes(index) && NAME_LIKE.test(key) && !NOT_A_PAYEE.test(key);
  });
  if (looksLikeNames.length === 0) return;
  const shown = describeHeader(looksLikeNames);
  throw new ColumnChoiceError(
    `no expected-name column was found (${ALIASES.expectedName.join(', ')}), but ${shown} looks like one: ` +
      `name it with --name-column, or give --name-column ${NO_NAME_COLUMN} to check the accounts without comparing names (every row VERIFIED)`,
    `no expected-name column was found, but ${shown} looks like one`,
  );
}

/** Every alias of every role, compared as header names are (headerKey): what the delimiter's detection counts too. */
export const ALIAS_KEYS = new Set(Object.values(ALIASES).flatMap((aliases) => aliases.map(headerKey)));

/**
 * A first data row whose bank code and account number (or either and the expected name) are column names
 * (`Kode Bank`, `Nomor Rekening`: aliases) is a second header row: a sheet with a group heading above its real
 * header (`Penerima` over `Nama Pemilik`). The columns were then found on the wrong row, and what they mean
 * is a guess: refused (exit 2). Only the columns read count: a pass-through `BANK` or `Penerima` is a value.
 * `readPositions`: the file's columns of the bank code, account number and expected name.
 */
export function refuseSecondHeaderRow(
  firstRow: { fields: readonly string[]; line: number } | undefined,
  readPositions: readonly number[],
): void {
  if (firstRow === undefined) return;
  const names = readPositions.map((position) => firstRow.fields[position] ?? '').filter((value) => ALIAS_KEYS.has(headerKey(value)));
  if (names.length < 2) return;
  throw new UsageError(
    `the row at line ${firstRow.line} looks like a second header row (${describeHeader(names)} are column names): the header must be the file's first row; remove the row(s) above the real header`,
  );
}

/**
 * The column people call a row by: the first the mapping does not use that is no bank's or account's column (a
 * transfer sheet's own `Kode Bank` or `No Rekening`, the payer's, names no row: its rows all share it, and an
 * account number is no label to show); none when there is no other, and the row goes by its number.
 */
export function referenceColumn(header: readonly string[], mapping: ColumnMapping): number | undefined {
  const index = header.findIndex(
    (name, column) =>
      column !== mapping.bankCode &&
      column !== mapping.accountNumber &&
      column !== mapping.expectedName &&
      !Object.values(PAYEE_ROLE_LIKE).some((like) => like.test(headerKey(name))),
  );
  return index < 0 ? undefined : index;
}
