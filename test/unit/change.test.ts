import { describe, expect, it } from 'vitest';
import type { HistoryEntry, PreviousAnswer } from '../../src/history/account-history.js';
import { CHANGE_VALUES, classifyChange, isNotableChange, withChangeNote, type ChangeValue } from '../../src/history/change.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';
import { RESULT_VALUES, type ResultValue } from '../../src/report/row-result.js';

const AT = Date.UTC(2026, 10, 20, 2, 0, 0);
const valid = (holderName: string): InquiryOutcome => ({ verdict: 'VERIFIED', reason: '', holderName, inquiryStatus: 'SUCCESS' });
const rejected = (reason = 'provider: Account not found'): InquiryOutcome => ({ verdict: 'ACCOUNT_INVALID', reason });
const entry = (outcome: InquiryOutcome, result?: ResultValue): HistoryEntry => ({
  outcome: outcome as HistoryEntry['outcome'],
  batchId: 'b20261120-020000-aaaaaa',
  answeredAt: AT,
  result,
});
const answeredBefore = (history: HistoryEntry | null, reused = false): PreviousAnswer => ({ entry: history, reused });
const row = (result: ResultValue, outcome?: InquiryOutcome) => ({ result, outcome });
const SOURCE = '(batch b20261120-020000-aaaaaa, 2026-11-20T02:00:00.000Z)';

describe('classifyChange', () => {
  it('leaves rows without a definitive answer unclassified, whatever the history', () => {
    for (const history of [undefined, answeredBefore(null), answeredBefore(entry(valid('BUDI'), 'MATCH'))]) {
      expect(classifyChange(row('INPUT_INVALID'), history)).toEqual({ change: undefined, note: undefined });
      expect(classifyChange(row('FAILED'), history)).toEqual({ change: undefined, note: undefined });
    }
  });

  it('leaves an answer stored without a snapshot (before history was kept) unclassified', () => {
    expect(classifyChange(row('MATCH', valid('BUDI')), undefined)).toEqual({ change: undefined, note: undefined });
  });

  it.each(['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'VERIFIED', 'ACCOUNT_INVALID'] as const)(
    'is NEW for %s without an earlier answer',
    (result) => {
      expect(classifyChange(row(result, result === 'ACCOUNT_INVALID' ? rejected() : valid('BUDI')), answeredBefore(null))).toEqual({
        change: 'NEW',
        note: undefined,
      });
    },
  );

  it.each(['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'VERIFIED'] as const)(
    'is NOW_INVALID when an account valid before (%s) is rejected now, naming the holder it had',
    (previous) => {
      expect(
        classifyChange(
          row('ACCOUNT_INVALID', rejected('provider: Account closed')),
          answeredBefore(entry(valid('SITI NURHALIZA'), previous)),
        ),
      ).toEqual({
        change: 'NOW_INVALID',
        note: `previously valid, holder "SITI NURHALIZA" ${SOURCE}`,
      });
    },
  );

  it.each(['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'VERIFIED'] as const)(
    'is NOW_VALID when a rejected account is valid now (%s), with the old rejection',
    (current) => {
      expect(classifyChange(row(current, valid('RINA')), answeredBefore(entry(rejected(), 'ACCOUNT_INVALID')))).toEqual({
        change: 'NOW_VALID',
        note: `previously rejected: provider: Account not found ${SOURCE}`,
      });
      expect(classifyChange(row(current, valid('RINA')), answeredBefore(entry(rejected(''))))).toMatchObject({
        note: `previously rejected: no reason given ${SOURCE}`,
      });
    },
  );

  it('is UNCHANGED for an account rejected both times, whatever the wording', () => {
    expect(
      classifyChange(
        row('ACCOUNT_INVALID', rejected('provider: Account closed')),
        answeredBefore(entry(rejected('provider: Account not found'))),
      ),
    ).toEqual({
      change: 'UNCHANGED',
      note: undefined,
    });
  });

  it('is HOLDER_CHANGED when the bank returns somebody else, with the previous holder', () => {
    expect(classifyChange(row('NO_MATCH', valid('AGUS WIJAYA')), answeredBefore(entry(valid('MUHAMMAD RIZKY PRATAMA'), 'MATCH')))).toEqual({
      change: 'HOLDER_CHANGED',
      note: `previous holder "MUHAMMAD RIZKY PRATAMA" ${SOURCE}`,
    });
  });

  it('outranks a changed verdict with a changed holder', () => {
    expect(classifyChange(row('MATCH', valid('AGUS WIJAYA')), answeredBefore(entry(valid('BUDI SANTOSO'), 'NO_MATCH'))).change).toBe(
      'HOLDER_CHANGED',
    );
  });

  it.each([
    ['BUDI SANTOSO', 'Budi Santoso'],
    ['BUDI  SANTOSO ', 'BUDI SANTOSO'],
    ['SITI NURHALIZA', 'Sití Nurhalizá'],
    ["MA'RUF AMIN", 'MARUF AMIN'],
    ['PT. SUMBER REJEKI', 'PT SUMBER REJEKI'],
    ['ANDI-WIJAYA', 'ANDI WIJAYA'],
  ])('compares holder names normalised: %j and %j are the same holder', (then, now) => {
    expect(classifyChange(row('MATCH', valid(now)), answeredBefore(entry(valid(then), 'MATCH'))).change).toBe('UNCHANGED');
  });

  it.each([
    ['BUDI SANTOSO', 'BUDI SANTOSA'],
    ['BUDI SANTOSO', 'BUDI'],
    ['BPK BUDI SANTOSO', 'BUDI SANTOSO'],
    ['PT SUMBER REJEKI', 'CV SUMBER REJEKI'],
  ])('a holder name that differs in letters is a change: %j then %j', (then, now) => {
    expect(classifyChange(row('MATCH', valid(now)), answeredBefore(entry(valid(then), 'MATCH'))).change).toBe('HOLDER_CHANGED');
  });

  it('is RESULT_CHANGED when the same holder now gets another verdict (the expected name changed), with the old verdict', () => {
    expect(
      classifyChange(row('NO_MATCH', valid('PT SUMBER REJEKI ABADI')), answeredBefore(entry(valid('PT SUMBER REJEKI ABADI'), 'MATCH'))),
    ).toEqual({
      change: 'RESULT_CHANGED',
      note: `previous result MATCH ${SOURCE}`,
    });
  });

  it('compares every pair of valid verdicts', () => {
    const validResults = ['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'VERIFIED'] as const;
    for (const then of validResults) {
      for (const now of validResults) {
        expect(classifyChange(row(now, valid('BUDI')), answeredBefore(entry(valid('BUDI'), then))).change).toBe(
          then === now ? 'UNCHANGED' : 'RESULT_CHANGED',
        );
      }
    }
  });

  it('is UNCHANGED for the same holder when the earlier verdict is not known (its report was not written when this answer came)', () => {
    expect(classifyChange(row('NO_MATCH', valid('BUDI')), answeredBefore(entry(valid('BUDI'))))).toEqual({
      change: 'UNCHANGED',
      note: undefined,
    });
  });

  it('says whose answer a reused one is; the bank side is unchanged, a changed expected name still shows', () => {
    const reused = answeredBefore(entry(valid('BUDI SANTOSO'), 'MATCH'), true);
    const whose = 'answer reused from batch b20261120-020000-aaaaaa checked at 2026-11-20T02:00:00.000Z';
    expect(classifyChange(row('MATCH', valid('BUDI SANTOSO')), reused)).toEqual({ change: 'UNCHANGED', note: whose });
    expect(classifyChange(row('NO_MATCH', valid('BUDI SANTOSO')), reused)).toEqual({
      change: 'RESULT_CHANGED',
      note: `${whose}; previous result MATCH ${SOURCE}`,
    });
    expect(classifyChange(row('ACCOUNT_INVALID', rejected()), answeredBefore(entry(rejected()), true))).toEqual({
      change: 'UNCHANGED',
      note: 'answer reused from batch b20261120-020000-aaaaaa checked at 2026-11-20T02:00:00.000Z',
    });
  });

  it('gives every value of the column for some input, and only those', () => {
    const seen = new Set<ChangeValue | undefined>();
    const histories = [
      undefined,
      answeredBefore(null),
      ...RESULT_VALUES.map((result) => answeredBefore(entry(result === 'ACCOUNT_INVALID' ? rejected() : valid('BUDI'), result))),
    ];
    for (const result of RESULT_VALUES) {
      for (const holder of ['BUDI', 'AGUS']) {
        for (const history of histories)
          seen.add(classifyChange(row(result, result === 'ACCOUNT_INVALID' ? rejected() : valid(holder)), history).change);
      }
    }
    expect([...seen].sort()).toEqual([...CHANGE_VALUES, undefined].sort());
  });
});

describe('isNotableChange and withChangeNote', () => {
  it('puts every change but NEW and UNCHANGED (and no change) into the changes file', () => {
    expect(CHANGE_VALUES.filter(isNotableChange)).toEqual(['HOLDER_CHANGED', 'NOW_INVALID', 'NOW_VALID', 'RESULT_CHANGED']);
    expect(isNotableChange(undefined)).toBe(false);
  });

  it('appends the note to the reason', () => {
    expect(withChangeNote('', undefined)).toBe('');
    expect(withChangeNote('initials', undefined)).toBe('initials');
    expect(withChangeNote('', 'previous result MATCH')).toBe('previous result MATCH');
    expect(withChangeNote('provider: Account closed', 'previously valid')).toBe('provider: Account closed; previously valid');
  });
});
