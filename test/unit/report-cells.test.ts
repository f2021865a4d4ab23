import { describe, expect, it } from 'vitest';
import { neutraliseCell } from '../../src/report/neutralise.js';
import { decideRowResult, resultCells, RESULT_COLUMNS } from '../../src/report/row-result.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';

describe('neutraliseCell', () => {
  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+SUM(A1)', `'+SUM(A1)`],
    ['-2+3', `'-2+3`],
    ['@cmd', `'@cmd`],
    ['\tinjected', `'\tinjected`],
    ['\rinjected', `'\rinjected`],
  ])('neutralises %j', (cell, expected) => expect(neutraliseCell(cell)).toBe(expected));

  it.each(['-5000', '+6281234567', '-12.5', '1,5', 'BUDI', '', "O'NEIL", 'a=b'])('leaves %j alone', (cell) => expect(neutraliseCell(cell)).toBe(cell));
});

const verified: InquiryOutcome = {
  verdict: 'VERIFIED',
  reason: '',
  holderName: 'BUDI SANTOSO',
  bankName: 'BCA',
  fee: '6500',
  inquiryStatus: 'SUCCESS',
  inquiryId: '1',
  checkedAt: '2026-11-21T06:52:03.123456Z',
};

describe('decideRowResult', () => {
  it('is INPUT_INVALID with the reason for an invalid row, whatever else', () => {
    expect(decideRowResult('bank code is empty', verified, 'Budi Santoso', 'standard')).toMatchObject({ result: 'INPUT_INVALID', reason: 'bank code is empty' });
  });

  it('compares names only for a VERIFIED account', () => {
    expect(decideRowResult(null, verified, 'budi  santoso', 'standard')).toMatchObject({ result: 'MATCH', nameScore: 100 });
    expect(decideRowResult(null, verified, 'Agus Santoso', 'standard').result).toBe('NO_MATCH');
  });

  it('is VERIFIED without an expected name', () => {
    expect(decideRowResult(null, verified, undefined, 'standard')).toMatchObject({ result: 'VERIFIED', nameScore: undefined });
    expect(decideRowResult(null, verified, '  ', 'standard').result).toBe('VERIFIED');
  });

  it('never turns a rejected or failed account into a match', () => {
    const rejected: InquiryOutcome = { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account not found' };
    const failed: InquiryOutcome = { ...verified, verdict: 'FAILED', reason: 'provider status PENDING is not SUCCESS' };
    expect(decideRowResult(null, rejected, 'Budi Santoso', 'standard')).toMatchObject({ result: 'ACCOUNT_INVALID', reason: 'provider: Account not found' });
    expect(decideRowResult(null, failed, 'Budi Santoso', 'standard')).toMatchObject({ result: 'FAILED', nameScore: undefined });
  });

  it('compares under the configured NAME_MATCH_POLICY', () => {
    const cut: InquiryOutcome = { ...verified, holderName: 'SITI NURHALIZA KARTIKASARI PUT' };
    const expected = 'Siti Nurhaliza Kartikasari Putri Handayani';
    expect(decideRowResult(null, cut, expected, 'standard').result).toBe('MATCH');
    const strict = decideRowResult(null, cut, expected, 'strict');
    expect(strict.result).toBe('CLOSE_MATCH');
    expect(strict.reason).toContain('strict policy: a person confirms');
  });

  it('is FAILED when no outcome was recorded', () => {
    expect(decideRowResult(null, undefined, 'Budi', 'standard').result).toBe('FAILED');
  });

  it('fills the result columns in order', () => {
    expect(resultCells(decideRowResult(null, verified, 'Budi Santoso', 'standard'))).toEqual([
      'MATCH',
      '100',
      'BUDI SANTOSO',
      'BCA',
      '6500',
      'SUCCESS',
      '1',
      '2026-11-21T06:52:03.123456Z',
      '',
      '',
    ]);
    expect(resultCells({ ...decideRowResult(null, verified, 'Budi Santoso', 'standard'), change: 'UNCHANGED' }).at(-1)).toBe('UNCHANGED');
    expect(RESULT_COLUMNS.slice(-2)).toEqual(['reason', 'change']);
  });
});
