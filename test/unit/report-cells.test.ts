import { describe, expect, it } from 'vitest';
import { neutraliseCell, restoreCell } from '../../src/report/neutralise.js';
import { BUILT_IN_KNOWLEDGE } from '../../src/matching/knowledge.js';
import {
  bankTranslationNote,
  capReason,
  decideRowResult,
  MAX_REASON_CHARACTERS,
  resultCells,
  RESULT_COLUMNS,
} from '../../src/report/row-result.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';

const STANDARD = { policy: 'standard', knowledge: BUILT_IN_KNOWLEDGE } as const;
const STRICT = { policy: 'strict', knowledge: BUILT_IN_KNOWLEDGE } as const;

describe('neutraliseCell', () => {
  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+SUM(A1)', `'+SUM(A1)`],
    ['-2+3', `'-2+3`],
    ['@cmd', `'@cmd`],
    ['\tinjected', `'\tinjected`],
    ['\rinjected', `'\rinjected`],
    // A formula after a line break inside a cell: a reader that splits rows on it would start a row with it.
    ["x\n=cmd|' /C calc'!A0", `x\n'=cmd|' /C calc'!A0`],
    ['x\r\n@SUM(1)', `x\r\n'@SUM(1)`],
    ['x\r+1+1', `x\r'+1+1`],
    ['\n-1+2', `\n'-1+2`],
    ['=a\n=b', `'=a\n'=b`],
    ['\r=a', `'\r'=a`],
    ['a\n\tb', `a\n'\tb`],
  ])('neutralises %j, and restoreCell reads it back', (cell, expected) => {
    expect(neutraliseCell(cell)).toBe(expected);
    expect(restoreCell(expected)).toBe(cell);
  });

  it.each(['-5000', '+6281234567', '-12.5', '1,5', 'BUDI', '', "O'NEIL", 'a=b', 'line one\n-5000', 'a\nb\r\nc', 'a-b\nc+d'])(
    'leaves %j alone, both ways',
    (cell) => {
      expect(neutraliseCell(cell)).toBe(cell);
      expect(restoreCell(cell)).toBe(cell);
    },
  );
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
    expect(decideRowResult('bank code is empty', verified, 'Budi Santoso', STANDARD)).toMatchObject({
      result: 'INPUT_INVALID',
      reason: 'bank code is empty',
    });
  });

  it('compares names only for a VERIFIED account', () => {
    expect(decideRowResult(null, verified, 'budi  santoso', STANDARD)).toMatchObject({ result: 'MATCH', nameScore: 100 });
    expect(decideRowResult(null, verified, 'Agus Santoso', STANDARD).result).toBe('NO_MATCH');
  });

  it('is VERIFIED without an expected name', () => {
    expect(decideRowResult(null, verified, undefined, STANDARD)).toMatchObject({ result: 'VERIFIED', nameScore: undefined });
    expect(decideRowResult(null, verified, '  ', STANDARD).result).toBe('VERIFIED');
  });

  it('never turns a rejected or failed account into a match', () => {
    const rejected: InquiryOutcome = { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account not found' };
    const failed: InquiryOutcome = { ...verified, verdict: 'FAILED', reason: 'provider status PENDING is not SUCCESS' };
    expect(decideRowResult(null, rejected, 'Budi Santoso', STANDARD)).toMatchObject({
      result: 'ACCOUNT_INVALID',
      reason: 'provider: Account not found',
    });
    expect(decideRowResult(null, failed, 'Budi Santoso', STANDARD)).toMatchObject({ result: 'FAILED', nameScore: undefined });
  });

  it('compares under the configured NAME_MATCH_POLICY', () => {
    const cut: InquiryOutcome = { ...verified, holderName: 'SITI NURHALIZA KARTIKASARI PUT' };
    const expected = 'Siti Nurhaliza Kartikasari Putri Handayani';
    expect(decideRowResult(null, cut, expected, STANDARD).result).toBe('MATCH');
    const strict = decideRowResult(null, cut, expected, STRICT);
    expect(strict.result).toBe('CLOSE_MATCH');
    expect(strict.reason).toContain('strict policy: a person confirms');
  });

  it('is FAILED when no outcome was recorded', () => {
    expect(decideRowResult(null, undefined, 'Budi', STANDARD).result).toBe('FAILED');
  });

  it('fills the result columns in order', () => {
    expect(resultCells(decideRowResult(null, verified, 'Budi Santoso', STANDARD))).toEqual([
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
      '',
      '',
      '',
      '',
    ]);
    const cells = resultCells({
      ...decideRowResult(null, verified, 'Budi Santoso', STANDARD),
      change: 'UNCHANGED',
      accountNumberChecked: '0012345678',
    });
    expect(cells.slice(-5)).toEqual(['UNCHANGED', '0012345678', '', '', '']);
    expect(RESULT_COLUMNS.slice(-6)).toEqual(['reason', 'change', 'account_number_checked', 'decision', 'decided_by', 'decided_at']);
    const decided = resultCells({
      ...decideRowResult(null, verified, 'Budi Santoso', STANDARD),
      decision: { decision: 'APPROVED', decidedBy: 'ratna', decidedAt: '2026-11-21T13:52:03.120+07:00' },
    });
    expect(decided.slice(-3)).toEqual(['APPROVED', 'ratna', '2026-11-21T13:52:03.120+07:00']);
  });

  it('caps a reason cell, saying it was cut', () => {
    const long = `provider: ${'x'.repeat(50_000)}`;
    const reason = resultCells({ ...decideRowResult(null, { verdict: 'ACCOUNT_INVALID', reason: long }, undefined, STANDARD) })[8]!;
    expect(reason.length).toBe(MAX_REASON_CHARACTERS);
    expect(reason).toMatch(/^provider: x+ \.\.\. \(cut: 50,010 characters in all\)$/);
    expect(capReason('short')).toBe('short');
  });

  it('names a bank code BANK_CODE_MAP translated, and nothing otherwise', () => {
    expect(bankTranslationNote(' Bank Central Asia ', 'BCA')).toBe('bank "Bank Central Asia" sent as code "BCA" (BANK_CODE_MAP)');
    expect(bankTranslationNote(' bca ', 'bca')).toBeUndefined();
    expect(bankTranslationNote('014', undefined)).toBeUndefined();
  });
});
