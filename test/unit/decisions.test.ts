import { describe, expect, it } from 'vitest';
import { parseFailOn } from '../../src/cli/commands.js';
import { isoInZone, localTime } from '../../src/clock/local-time.js';
import { loadConfig } from '../../src/config/index.js';
import { noPersonReason, personOf } from '../../src/console/identity.js';
import { chosenColumns } from '../../src/console/uploads.js';
import {
  countReviewState,
  decidableFacts,
  judgeRow,
  parseDecisionValue,
  zeroReviewCounts,
  type Decision,
  type DecisionFacts,
} from '../../src/review/decision.js';

const FACTS: DecisionFacts = {
  environment: 'sandbox',
  bankCode: '008',
  accountNumber: '0060009876543',
  expectedName: 'Ratna Dewi',
  holderName: 'RATNA SARI DEWI',
};
const AT = Date.UTC(2026, 10, 21, 2, 15, 7, 123);
const decision = (facts: Partial<DecisionFacts>, value: Decision['decision'] = 'APPROVED', decidedAt = AT): Decision => ({
  facts: { ...FACTS, ...facts },
  decision: value,
  decidedBy: 'ratna',
  decidedAt,
  note: '',
});
const show = (at: number) => localTime(at, 'Asia/Jakarta');

describe('a decision on facts', () => {
  it('reads APPROVED / REJECTED as people write them, and nothing else', () => {
    for (const written of ['APPROVED', 'approved', ' Approve ', 'APPROVE']) expect(parseDecisionValue(written), written).toBe('APPROVED');
    for (const written of ['REJECTED', 'reject', 'Rejected']) expect(parseDecisionValue(written), written).toBe('REJECTED');
    for (const written of ['', 'yes', 'OK', 'APPROVED!', 'pay', 'Y']) expect(parseDecisionValue(written), written).toBeUndefined();
  });

  it('stands while the account, the expected name (as normalised) and the holder name are the same', () => {
    expect(judgeRow(FACTS, [decision({})], show)).toMatchObject({ kind: 'stands', decision: { decision: 'APPROVED', decidedBy: 'ratna' } });
    // The same name typed again with other case, spacing and punctuation is the same expected name.
    expect(judgeRow({ ...FACTS, expectedName: '  ratna   DEWI.' }, [decision({})], show).kind).toBe('stands');
  });

  it('is void when the bank renames the holder, and says which decision no longer applies', () => {
    const state = judgeRow({ ...FACTS, holderName: 'RATNA S DEWI' }, [decision({})], show);
    expect(state).toMatchObject({ kind: 'void' });
    expect(state.kind === 'void' && state.note).toBe(
      'the decision APPROVED by ratna (2026-11-21 09:15:07 WIB) no longer applies: it was made for the holder name "RATNA SARI DEWI"',
    );
  });

  it('is void when the payer edits the expected name, naming the latest decision on the account', () => {
    const earlier = decision({}, 'REJECTED', AT - 86_400_000);
    const later = decision({ expectedName: 'Ratna Sari' }, 'APPROVED', AT);
    const state = judgeRow({ ...FACTS, expectedName: 'Ratna D.' }, [earlier, later], show);
    expect(state.kind === 'void' && state.note).toBe(
      'the decision APPROVED by ratna (2026-11-21 09:15:07 WIB) no longer applies: it was made for the expected name "Ratna Sari"',
    );
    // Each expected name on the account keeps its own decision.
    expect(judgeRow(FACTS, [earlier, later], show)).toMatchObject({ kind: 'stands', decision: { decision: 'REJECTED' } });
  });

  it('is none when nobody decided anything on the account', () => {
    expect(judgeRow(FACTS, [], show)).toEqual({ kind: 'none' });
  });

  it('is only about CLOSE_MATCH and NO_MATCH rows with an answer', () => {
    const row = { accountKey: '008:0060009876543', expectedName: ' Ratna Dewi ', holderName: 'RATNA SARI DEWI' };
    expect(decidableFacts('sandbox', { ...row, result: 'CLOSE_MATCH' })).toEqual(FACTS);
    expect(decidableFacts('production', { ...row, result: 'NO_MATCH' })).toEqual({ ...FACTS, environment: 'production' });
    for (const result of ['MATCH', 'VERIFIED', 'ACCOUNT_INVALID', 'INPUT_INVALID', 'FAILED'] as const)
      expect(decidableFacts('sandbox', { ...row, result }), result).toBeUndefined();
    expect(decidableFacts('sandbox', { ...row, result: 'CLOSE_MATCH', accountKey: null })).toBeUndefined();
  });

  it('counts what a person still has to do and what was decided', () => {
    const counts = zeroReviewCounts();
    countReviewState(counts, { kind: 'none' });
    countReviewState(counts, { kind: 'void', earlier: decision({}), note: '' });
    countReviewState(counts, { kind: 'stands', decision: decision({}) });
    countReviewState(counts, { kind: 'stands', decision: decision({}, 'REJECTED') });
    countReviewState(counts, { kind: 'stands', decision: decision({}, 'REJECTED') });
    expect(counts).toEqual({ needsReview: 2, approved: 1, rejected: 2 });
  });
});

describe('times as people read them', () => {
  it('names Indonesian zones as Indonesians do', () => {
    expect(localTime(AT, 'Asia/Jakarta')).toBe('2026-11-21 09:15:07 WIB');
    expect(localTime(AT, 'Asia/Makassar')).toBe('2026-11-21 10:15:07 WITA');
    expect(localTime(AT, 'Asia/Jayapura')).toBe('2026-11-21 11:15:07 WIT');
    expect(localTime(new Date(AT).toISOString(), 'UTC')).toBe('2026-11-21 02:15:07 UTC');
    expect(localTime(AT, 'Europe/Berlin')).toMatch(/^2026-11-21 03:15:07 (GMT\+1|CET)$/);
    expect(localTime('not a time', 'Asia/Jakarta')).toBe('');
  });

  it('writes decided_at with the zone offset, to the millisecond, and reads back the same instant', () => {
    expect(isoInZone(AT, 'Asia/Jakarta')).toBe('2026-11-21T09:15:07.123+07:00');
    expect(isoInZone(AT, 'UTC')).toBe('2026-11-21T02:15:07.123+00:00');
    expect(isoInZone(AT, 'America/St_Johns')).toBe('2026-11-20T22:45:07.123-03:30');
    const summer = Date.UTC(2026, 6, 1, 12, 0, 0, 5);
    expect(isoInZone(summer, 'Europe/Berlin')).toBe('2026-07-01T14:00:00.005+02:00');
    for (const zone of ['Asia/Jakarta', 'America/St_Johns', 'Europe/Berlin', 'Pacific/Chatham'])
      expect(Date.parse(isoInZone(AT, zone)), zone).toBe(AT);
  });

  it('takes DISPLAY_TZ (default Asia/Jakarta) and refuses a zone Intl does not know', () => {
    expect(loadConfig({}, {}).displayTimeZone).toBe('Asia/Jakarta');
    expect(loadConfig({}, { DISPLAY_TZ: 'Asia/Makassar' }).displayTimeZone).toBe('Asia/Makassar');
    expect(() => loadConfig({}, { DISPLAY_TZ: 'Jakarta' })).toThrow('DISPLAY_TZ must be an IANA time zone');
  });
});

describe('settings and flags of decisions', () => {
  it('keeps decisions for ever unless DECISION_RETENTION says otherwise', () => {
    expect(loadConfig({}, {}).decisions.keepMs).toBe(0);
    expect(loadConfig({}, { DECISION_RETENTION: '365d' }).decisions.keepMs).toBe(365 * 86_400_000);
    expect(() => loadConfig({}, { DECISION_RETENTION: '-1' })).toThrow('DECISION_RETENTION');
  });

  it('takes NEEDS_REVIEW in --fail-on beside the result values', () => {
    expect(parseFailOn('needs_review,NO_MATCH')).toEqual(['NEEDS_REVIEW', 'NO_MATCH']);
    expect(() => parseFailOn('NEEDS_A_LOOK')).toThrow('NEEDS_REVIEW');
  });
});

describe('who decides in the console', () => {
  it('trusts the proxy header only when CONSOLE_USER_HEADER names it', () => {
    const headers = { 'x-forwarded-user': ' ratna ', 'x-other': 'budi' };
    expect(personOf(headers, 'x-forwarded-user')).toBe('ratna');
    expect(personOf(headers, undefined)).toBeUndefined();
    expect(personOf({}, 'x-forwarded-user')).toBeUndefined();
    expect(personOf({ 'x-forwarded-user': '   ' }, 'x-forwarded-user')).toBeUndefined();
    expect(personOf({ 'x-forwarded-user': 'ratna\u0007' }, 'x-forwarded-user')).toBeUndefined();
    // Given twice, the header names nobody (a client's own beside the proxy's).
    expect(personOf({ 'x-forwarded-user': ['alice', 'mallory'] }, 'x-forwarded-user')).toBeUndefined();
    expect(personOf({ 'x-forwarded-user': ['alice'] }, 'x-forwarded-user')).toBe('alice');
    expect(noPersonReason(undefined)).toContain('CONSOLE_USER_HEADER');
    expect(loadConfig({}, { CONSOLE_USER_HEADER: 'X-Forwarded-User' }).console.userHeader).toBe('x-forwarded-user');
    expect(() => loadConfig({}, { CONSOLE_USER_HEADER: 'X Forwarded User' })).toThrow('CONSOLE_USER_HEADER');
  });

  it('reads the columns chosen on upload as positions', () => {
    const field = (value: string) => ({ value });
    expect(chosenColumns({})).toBeUndefined();
    expect(chosenColumns({ bankColumn: field('2'), accountColumn: field('0'), nameColumn: field('') })).toEqual({
      bankCode: 2,
      accountNumber: 0,
      expectedName: undefined,
    });
    expect(() => chosenColumns({ bankColumn: field('2') })).toThrow('choose the bank code column and the account number column');
    expect(() => chosenColumns({ bankColumn: field('x'), accountColumn: field('1') })).toThrow('column position');
  });
});
