import { describe, expect, it } from 'vitest';
import { headerKey, mapColumns } from '../../src/csv/columns.js';
import { MissingColumnsError, UsageError } from '../../src/errors.js';

describe('mapColumns', () => {
  it.each([
    [['bank_code', 'account_number', 'account_name'], [0, 1, 2]],
    [['Bank', 'Account No', 'Holder-Name'], [0, 1, 2]],
    [['KODE_BANK', 'no_rekening', 'nama_pemilik'], [0, 1, 2]],
    [['kode bank', 'Nomor Rekening', 'Nama Rekening'], [0, 1, 2]],
    [['id', 'nama', 'rekening', 'bank'], [3, 2, 1]],
    [['Beneficiary Name', 'ACCOUNT', 'bank-code'], [2, 1, 0]],
  ])('finds the columns of %j', (header, [bank, account, name]) => {
    expect(mapColumns(header)).toEqual({ bankCode: bank, accountNumber: account, expectedName: name });
  });

  it('prefers the earlier alias when several match (account_number over account)', () => {
    expect(mapColumns(['account', 'bank', 'account_number']).accountNumber).toBe(2);
  });

  it('maps no name column when there is none', () => {
    expect(mapColumns(['bank_code', 'account_number', 'amount']).expectedName).toBeUndefined();
  });

  it('lets flags override the aliases', () => {
    const mapping = mapColumns(['bank', 'account_number', 'legal name', 'name'], { expectedName: 'Legal_Name', accountNumber: 'account number' });
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
  });
});
