import { describe, expect, it } from 'vitest';
import { accountKey, parseAccountKey, validateRow } from '../../src/csv/validation.js';
import { detectDelimiter } from '../../src/csv/delimiter.js';

const mapping = { bankCode: 0, accountNumber: 1, expectedName: 2 };

describe('validateRow', () => {
  it('keeps leading zeros and trims', () => {
    expect(validateRow([' 014 ', ' 0012345678 ', ' Budi '], mapping)).toEqual({
      valid: true,
      account: { bankCode: '014', accountNumber: '0012345678' },
      expectedName: 'Budi',
    });
  });

  it('removes separators people type inside account numbers', () => {
    const result = validateRow(['bca', '0012-345.678 9', 'X'], mapping);
    expect(result).toMatchObject({ valid: true, account: { bankCode: 'BCA', accountNumber: '00123456789' } });
  });

  it.each([
    [['', '0012345678', 'A'], 'bank code is empty'],
    [['  ', '0012345678', 'A'], 'bank code is empty'],
    [['01 4', '0012345678', 'A'], 'is not a bank code'],
    [['014', '', 'A'], 'account number is empty'],
    [['014', '1.23457E+11', 'A'], 'scientific notation'],
    [['014', '1,23457E+11', 'A'], 'scientific notation'],
    [['014', '9.87E10', 'A'], 'scientific notation'],
    [['014', '12345ABC', 'A'], 'characters other than digits'],
    [['014', '1234O678', 'A'], 'characters other than digits'],
    [['014', '1234', 'A'], 'has 4 digits'],
    [['014', '123456789012345678901', 'A'], 'has 21 digits'],
    [['014', '0000000', 'A'], 'all zeros'],
  ])('refuses %j: %s', (fields, reason) => {
    const result = validateRow(fields, mapping);
    expect(result.valid).toBe(false);
    expect(!result.valid && result.reason).toContain(reason);
  });

  it('treats a blank expected name as no name', () => {
    expect(validateRow(['014', '0012345678', '  '], mapping)).toMatchObject({ valid: true, expectedName: undefined });
    expect(validateRow(['014', '0012345678'], { ...mapping, expectedName: undefined })).toMatchObject({ valid: true, expectedName: undefined });
  });

  it('builds and parses account keys', () => {
    const key = accountKey({ bankCode: '014', accountNumber: '0012345678' });
    expect(key).toBe('014:0012345678');
    expect(parseAccountKey(key)).toEqual({ bankCode: '014', accountNumber: '0012345678' });
  });
});

describe('detectDelimiter', () => {
  it.each([
    ['bank_code,account_number,name', ','],
    ['bank_code;account_number;name', ';'],
    ['"a;b",c,d', ','],
    ['"a,b";c;d', ';'],
    ['single', ','],
  ])('%s -> %s', (line, delimiter) => expect(detectDelimiter(line)).toBe(delimiter));
});
