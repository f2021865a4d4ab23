import { describe, expect, it } from 'vitest';
import { ALIASES, headerKey, mapColumns, readInputColumns, referenceColumn, refuseSecondHeaderRow } from '../../src/csv/columns.js';
import { DECISION_COLUMNS, RESULT_COLUMNS } from '../../src/csv/report-columns.js';
import { ColumnChoiceError, MissingColumnsError, UsageError } from '../../src/errors.js';

describe('mapColumns', () => {
  it.each([
    [
      ['bank_code', 'account_number', 'account_name'],
      [0, 1, 2],
    ],
    [
      ['Bank', 'Account No', 'Holder-Name'],
      [0, 1, 2],
    ],
    [
      ['KODE_BANK', 'no_rekening', 'nama_pemilik'],
      [0, 1, 2],
    ],
    [
      ['kode bank', 'Nomor Rekening', 'Nama Rekening'],
      [0, 1, 2],
    ],
    [
      ['id', 'nama', 'rekening', 'bank'],
      [3, 2, 1],
    ],
    [
      ['Beneficiary Name', 'ACCOUNT', 'bank-code'],
      [2, 1, 0],
    ],
  ])('finds the columns of %j', (header, [bank, account, name]) => {
    expect(mapColumns(header)).toEqual({ bankCode: bank, accountNumber: account, expectedName: name });
  });

  // Found by an outside attack: the first alias won, and the wrong account was checked (a MATCH on it).
  it.each([
    [
      'a transfer sheet: the own account beside the destination',
      ['No', 'Kode Bank', 'No Rekening', 'Kode Bank Tujuan', 'No Rekening Tujuan', 'Nama Penerima'],
      'bank code',
      '--bank-column',
    ],
    [
      'an old hidden account column beside the visible one',
      ['kode_bank', 'account', 'Nomor Rekening', 'nama'],
      'account number',
      '--account-column',
    ],
    ["the clerk's name beside the payee's", ['bank', 'no_rekening', 'nama', 'nama_penerima'], 'expected name', '--name-column'],
    [
      'a bank name of the source beside the code of the destination',
      ['Bank', 'Kode Bank Tujuan', 'No Rekening Tujuan', 'Nama'],
      'bank code',
      '--bank-column',
    ],
  ])('refuses two columns that could hold one role (%s), naming them and the flag', (_case, header, role, flag) => {
    expect(() => mapColumns(header)).toThrow(ColumnChoiceError);
    expect(() => mapColumns(header)).toThrow(new RegExp(`several columns could hold .*the ${role} in .*\\(${flag}\\)`));
  });

  it('says a header of one cell may be a title above the real header', () => {
    expect(() => mapColumns(['DAFTAR PENERIMA PEMBAYARAN NOVEMBER 2026'])).toThrow(
      /if it is a title above the header, remove the rows above the header/,
    );
    expect(() => mapColumns(['id', 'nama'])).not.toThrow(/a title above the header/);
  });

  it('names every role that has several columns at once', () => {
    const header = ['No', 'Kode Bank', 'No Rekening', 'Kode Bank Tujuan', 'No Rekening Tujuan', 'Nama Penerima'];
    expect(() => mapColumns(header)).toThrow(
      'the bank code in "Kode Bank", "Kode Bank Tujuan" (--bank-column); the account number in "No Rekening", "No Rekening Tujuan" (--account-column)',
    );
  });

  // An outside attack: the payee's columns are often no alias, and the payer's own account was read without a word.
  it.each([
    [['Kode Bank', 'Nomor Rekening', 'Kode Bank Tujuan', 'Nomor Rekening Tujuan', 'Nama Penerima'], 'account number'],
    [['Bank', 'No. Rek.', 'Bank Penerima', 'No. Rek. Penerima', 'Nama Penerima'], 'account number'],
    [['Bank Code', 'Account', 'Beneficiary Bank Code', 'Beneficiary Account', 'Beneficiary Name'], 'account number'],
    [['Kode Bank Tujuan', 'No Rek', 'No Rek Tujuan', 'Nama Penerima'], 'account number'],
  ])('refuses a transfer sheet whose payee columns are no alias: %j', (header, role) => {
    expect(() => mapColumns(header)).toThrow(new RegExp(`the ${role} in `));
    // naming the bank alone still leaves the account to choose
    expect(() =>
      mapColumns(header, { bankCode: header.find((name) => /tujuan|penerima|beneficiary/i.test(name) && /bank/i.test(name)) }),
    ).toThrow(/the account number in /);
  });

  it("reads a sheet whose payer's side says so (Pengirim), or whose name column says account", () => {
    expect(mapColumns(['Kode Bank Pengirim', 'No Rekening Pengirim', 'Kode Bank', 'No Rekening', 'Nama Penerima'])).toEqual({
      bankCode: 2,
      accountNumber: 3,
      expectedName: 4,
    });
    expect(
      mapColumns(['bank_code', 'account_number', 'Beneficiary Account Name'], { expectedName: 'Beneficiary Account Name' }).accountNumber,
    ).toBe(1);
  });

  it('reads the columns a flag names where the aliases find several', () => {
    const header = ['No', 'Kode Bank', 'No Rekening', 'Kode Bank Tujuan', 'No Rekening Tujuan', 'Nama Penerima'];
    expect(mapColumns(header, { bankCode: 'Kode Bank Tujuan', accountNumber: 'No Rekening Tujuan' })).toEqual({
      bankCode: 3,
      accountNumber: 4,
      expectedName: 5,
    });
  });

  it("reads a bank's code beside its name on the same side by the code", () => {
    expect(mapColumns(['Bank Tujuan', 'Kode Bank Tujuan', 'No Rekening Tujuan', 'Nama']).bankCode).toBe(1);
    expect(mapColumns(['bank', 'bank_code', 'account_number']).bankCode).toBe(1);
  });

  it('maps no name column when there is none', () => {
    expect(mapColumns(['bank_code', 'account_number', 'amount']).expectedName).toBeUndefined();
  });

  it('lets flags override the aliases', () => {
    const mapping = mapColumns(['bank', 'account_number', 'legal name', 'name'], {
      expectedName: 'Legal_Name',
      accountNumber: 'account number',
    });
    expect(mapping).toEqual({ bankCode: 0, accountNumber: 1, expectedName: 2 });
  });

  it('names the columns it found when a required one is missing', () => {
    const error = (() => {
      try {
        mapColumns(['id', 'rekening', 'nama']);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(MissingColumnsError);
    expect((error as Error).message).toContain('bank code');
    expect((error as Error).message).toContain('"id", "rekening", "nama"');
    expect((error as MissingColumnsError).exitCode).toBe(2);
  });

  it('masks account-like values when a file without a header shows its first data row as the header', () => {
    const message = (() => {
      try {
        mapColumns(['014', '0012345678', 'Budi Santoso']);
      } catch (caught) {
        return (caught as Error).message;
      }
    })();
    expect(message).toContain('"014", "******5678", "Budi Santoso"');
    expect(message).not.toContain('0012345678');
    expect(() => mapColumns(['014', '0012345678'], { bankCode: 'bank' })).toThrow(/"\*{6}5678"/);
  });

  it('cuts a header of many or long columns in its message', () => {
    const header = Array.from({ length: 30 }, (_, index) => `column ${index} ${'x'.repeat(100)}`);
    const message = (() => {
      try {
        mapColumns(header);
      } catch (caught) {
        return (caught as Error).message;
      }
    })()!;
    expect(message).toContain('and 10 more');
    expect(message.length).toBeLessThan(2_000);
  });

  it('refuses an override that is not in the header', () => {
    expect(() => mapColumns(['bank', 'account'], { expectedName: 'holder' })).toThrow(UsageError);
  });

  it('compares header names loosely', () => {
    expect(headerKey('\uFEFFAccount_No ')).toBe('accountno');
    expect(headerKey('No-Rekening')).toBe('norekening');
    expect(headerKey('No. Rekening')).toBe('norekening');
  });

  it('reads the names Indonesian transfer sheets give the payee and the account', () => {
    expect(mapColumns(['Kode Bank', 'No. Rekening', 'Nama Penerima', 'Nominal'])).toEqual({
      bankCode: 0,
      accountNumber: 1,
      expectedName: 2,
    });
    expect(mapColumns(['Bank Tujuan', 'No Rek', 'Atas Nama'])).toEqual({ bankCode: 0, accountNumber: 1, expectedName: 2 });
    expect(mapColumns(['bank', 'rekening', 'penerima']).expectedName).toBe(2);
    expect(mapColumns(['Kode Bank', 'No. Rek.', 'a.n.']).expectedName).toBe(2);
    expect(mapColumns(['Kode Bank', 'No Rekening', 'A/N']).expectedName).toBe(2);
    expect(mapColumns(['Kode Bank', 'No Rek', 'Pemegang Rekening']).expectedName).toBe(2);
  });

  it('reads a code column before a plain bank column (a sheet with bank names and codes)', () => {
    expect(mapColumns(['No', 'Bank Tujuan', 'Kode Bank Tujuan', 'No. Rekening Tujuan', 'Nama Penerima']).bankCode).toBe(2);
    expect(mapColumns(['bank', 'kode_bank', 'account_number']).bankCode).toBe(1);
  });

  it('refuses a file whose payee names sit in a column it does not know, rather than check it without names', () => {
    for (const header of [
      ['bank_code', 'account_number', 'Nama Lengkap'],
      ['bank_code', 'account_number', 'Payee'],
      ['bank_code', 'account_number', 'Recipient Name', 'amount'],
      ['bank_code', 'account_number', 'Nasabah'],
      ['bank_code', 'account_number', 'Karyawan', 'Gaji'],
      ['bank_code', 'account_number', 'Nm Rekening'],
    ]) {
      expect(() => mapColumns(header), header.join()).toThrow(
        /no expected-name column was found .* looks like one: name it with --name-column/,
      );
    }
    // Named, or waived, it is read as said.
    expect(mapColumns(['bank_code', 'account_number', 'Nama Lengkap'], { expectedName: 'nama lengkap' }).expectedName).toBe(2);
    expect(mapColumns(['bank_code', 'account_number', 'Nama Lengkap'], { expectedName: 'none' }).expectedName).toBeUndefined();
    // A bank's, a branch's, a sender's or a mother's name is no payee's.
    expect(
      mapColumns([
        'bank_code',
        'account_number',
        'Nama Bank',
        'Nama Cabang',
        'Nama Pengirim',
        'user name',
        'Nama Ibu Kandung',
        'Email Penerima',
      ]).expectedName,
    ).toBeUndefined();
    // `none` never leaves a known name column unread (a setting for every file of a watched folder).
    expect(() => mapColumns(['bank_code', 'account_number', 'nama'], { expectedName: 'none' })).toThrow(
      '--name-column none was given, but the file has the expected-name column "nama"',
    );
  });
});

describe('refuseSecondHeaderRow', () => {
  const read = [1, 2, 3];
  it('refuses a first data row whose read cells are column names (a group heading above the real header)', () => {
    expect(() => refuseSecondHeaderRow({ fields: ['', 'Kode Bank', 'Nomor Rekening', 'Nama Pemilik', 'Nominal'], line: 2 }, read)).toThrow(
      'the row at line 2 looks like a second header row ("Kode Bank", "Nomor Rekening", "Nama Pemilik" are column names)',
    );
  });

  it('reads a first data row with at most one read value that is also a column name, whatever the columns passed through hold', () => {
    expect(() => refuseSecondHeaderRow({ fields: ['1', '014', '0012345678', 'Budi Santoso'], line: 2 }, read)).not.toThrow();
    expect(() => refuseSecondHeaderRow({ fields: ['1', 'bank', '0012345678', 'Nama'], line: 2 }, read)).toThrow(UsageError);
    expect(() => refuseSecondHeaderRow({ fields: ['BANK', 'BANK', '0012345678', 'Budi', 'BANK'], line: 2 }, read)).not.toThrow();
    expect(() => refuseSecondHeaderRow({ fields: ['Penerima', '014', '0012345678', 'Name'], line: 2 }, read)).not.toThrow();
    expect(() => refuseSecondHeaderRow(undefined, read)).not.toThrow();
  });
});

describe("readInputColumns: the product's own output columns are never input", () => {
  it('no alias of any role is the name of an output column', () => {
    const outputs = new Set(RESULT_COLUMNS.map(headerKey));
    expect(
      Object.values(ALIASES)
        .flat()
        .filter((alias) => outputs.has(headerKey(alias))),
    ).toEqual([]);
  });

  it('a report fed back: its original columns are read, the output columns set aside wherever they stand', () => {
    const results = RESULT_COLUMNS.slice(0, -DECISION_COLUMNS.length);
    const header = ['id', 'bank_code', 'account_number', 'beneficiary_name', ...results, 'decision', 'Decided By', 'decided_at', 'note'];
    const columns = readInputColumns(header);
    expect(columns.header).toEqual(['id', 'bank_code', 'account_number', 'beneficiary_name', 'note']);
    expect(columns.positions).toEqual([0, 1, 2, 3, header.length - 1]);
    expect(columns.replaced).toEqual([...results, 'decision', 'Decided By', 'decided_at']);
    expect(columns.mapping).toEqual({ bankCode: 1, accountNumber: 2, expectedName: 3 });
  });

  it('a report of a file without a name column has none: account_holder is never taken for one', () => {
    expect(readInputColumns(['bank_code', 'account_number', ...RESULT_COLUMNS]).mapping.expectedName).toBeUndefined();
  });

  it('a report written by the earlier bug (the output columns twice) is read once', () => {
    const columns = readInputColumns(['bank_code', 'account_number', 'nama', ...RESULT_COLUMNS, ...RESULT_COLUMNS]);
    expect(columns.header).toEqual(['bank_code', 'account_number', 'nama']);
  });

  it.each([
    [['bank_code', 'account_number', 'account_holder'], '"account_holder"'],
    [['bank_code', 'account_number', 'name', 'Reason', 'fee'], '"Reason", "fee"'],
    [['bank_code', 'account_number', 'result'], '"result"'],
  ])('refuses a file that is not a report but uses an output name: %j', (header, named) => {
    expect(() => readInputColumns(header)).toThrow(UsageError);
    expect(() => readInputColumns(header)).toThrow(`the column(s) ${named} have the name of a column this product writes`);
  });

  it('refuses a flag that names an output column', () => {
    expect(() => readInputColumns(['bank_code', 'account_number', 'name', ...RESULT_COLUMNS], { expectedName: 'Account Holder' })).toThrow(
      'column "Account Holder" given for the expected name is a column this product writes into its report',
    );
  });

  it('refuses two columns of one name (loosely compared), naming both, instead of reading the first', () => {
    expect(() => readInputColumns(['id', 'bank_code', 'account_number', 'Account-Number'])).toThrow(
      'the header names two columns alike, "account_number", "Account-Number" (columns 3 and 4)',
    );
    expect(() => readInputColumns(['bank_code', 'account_number', 'note', 'note'])).toThrow(UsageError);
  });

  it('lets any number of unnamed columns through', () => {
    expect(readInputColumns(['bank_code', '', 'account_number', ' ', '']).header).toEqual(['bank_code', '', 'account_number', ' ', '']);
  });
});

describe('referenceColumn: what people call a row by', () => {
  it('is the first column the check does not read', () => {
    const header = ['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name'];
    expect(referenceColumn(header, mapColumns(header))).toBe(0);
    expect(referenceColumn(['bank_code', 'account_number', 'name', 'notes'], { bankCode: 0, accountNumber: 1, expectedName: 2 })).toBe(3);
    expect(referenceColumn(['bank_code', 'account_number'], { bankCode: 0, accountNumber: 1, expectedName: undefined })).toBeUndefined();
  });

  it("passes over a transfer sheet's own bank and account columns, which every row shares, for its id", () => {
    const header = ['Kode Bank', 'No Rekening', 'No Transaksi', 'Kode Bank Tujuan', 'No Rekening Tujuan', 'Nama Penerima'];
    expect(referenceColumn(header, { bankCode: 3, accountNumber: 4, expectedName: 5 })).toBe(2);
    // With nothing else beside them, no column names the row (it goes by its number): an account number is no label.
    expect(
      referenceColumn(
        header.filter((_, index) => index !== 2),
        { bankCode: 2, accountNumber: 3, expectedName: 4 },
      ),
    ).toBeUndefined();
  });
});
