import { describe, expect, it } from 'vitest';
import type { DefinitiveOutcome, HistoryEntry } from '../../src/history/account-history.js';
import { decodeHistoryEntry, encodeHistoryEntry, resultCode } from '../../src/history/entry-codec.js';
import { RESULT_VALUES } from '../../src/report/row-result.js';

const verified: DefinitiveOutcome = {
  verdict: 'VERIFIED',
  reason: '',
  holderName: 'DEWI WIBOWO',
  bankName: 'BANK MANDIRI',
  fee: '6500',
  inquiryStatus: 'SUCCESS',
  inquiryId: '9520',
  checkedAt: '2026-11-23T01:36:10.851126Z',
};
const rejected: DefinitiveOutcome = {
  verdict: 'ACCOUNT_INVALID',
  reason: 'provider: Account not found',
  inquiryStatus: 'FAILED',
  inquiryId: '9521',
  checkedAt: '2026-11-23T01:36:10.851127Z',
};
const OPTIONAL = ['holderName', 'bankName', 'fee', 'inquiryStatus', 'inquiryId', 'checkedAt'] as const;

/** What a decoded entry must equal: empty optional values read as absent (every reader takes `?? ''`). */
function expected(entry: HistoryEntry): HistoryEntry {
  const outcome: Record<string, string> = { verdict: entry.outcome.verdict, reason: entry.outcome.reason };
  for (const field of OPTIONAL) if (entry.outcome[field]) outcome[field] = entry.outcome[field]!;
  return { ...entry, outcome: outcome as unknown as DefinitiveOutcome };
}

const roundTrip = (entry: HistoryEntry) => decodeHistoryEntry(encodeHistoryEntry(entry));

/** Every string of up to three characters from the escape's own alphabet (and two that need no escape). */
const tricky = ((alphabet: string[]) => {
  let level = [''];
  const all = [''];
  for (let length = 1; length <= 3; length++)
    all.push(...(level = level.flatMap((prefix) => alphabet.map((character) => prefix + character))));
  return all;
})(['%', '|', '2', '5', '7', 'C', 't', 'é']);

describe('history entry encoding', () => {
  it('round-trips every verdict with every reported result (or none) and every answer time', () => {
    for (const outcome of [
      verified,
      rejected,
      { verdict: 'VERIFIED', reason: '' } as const,
      { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account closed' } as const,
    ]) {
      for (const result of [undefined, ...RESULT_VALUES]) {
        for (const answeredAt of [0, 1, 1000, 1_800_000_000_000, Date.UTC(2100, 0, 1), Number.MAX_SAFE_INTEGER]) {
          const entry: HistoryEntry = { outcome, batchId: 'b20261123-013610-a1b2c3', answeredAt, result };
          expect(roundTrip(entry)).toEqual(entry);
        }
      }
    }
  });

  it('round-trips any text in any value: `%` and `|` escaped, whatever follows them', () => {
    expect(tricky).toHaveLength(1 + 8 + 64 + 512);
    for (const text of tricky) {
      const reason = roundTrip({ outcome: { ...rejected, reason: text }, batchId: 'b1', answeredAt: 5 });
      expect(reason?.outcome.reason).toBe(text);
      for (const field of OPTIONAL) {
        const entry: HistoryEntry = { outcome: { ...verified, [field]: text }, batchId: 'b1', answeredAt: 5, result: 'MATCH' };
        expect(roundTrip(entry)).toEqual(expected(entry));
      }
    }
    const odd: HistoryEntry = {
      outcome: { ...verified, holderName: 'A|B %7C %25 \n "quoted" \\ ünï 日本', bankName: '[null]', fee: '0012' },
      batchId: 'b2',
      answeredAt: 7,
    };
    expect(roundTrip(odd)).toEqual(odd);
  });

  it('stores absent and empty values as nothing, and starts with a letter (an earlier entry starts with a digit)', () => {
    expect(
      encodeHistoryEntry({ outcome: verified, batchId: 'b20261123-013610-a1b2c3', answeredAt: 1_800_000_000_000, result: 'CLOSE_MATCH' }),
    ).toBe('VC|mywpiww0|b20261123-013610-a1b2c3||DEWI WIBOWO|BANK MANDIRI|6500|SUCCESS|9520|%thoeyckyuk6');
    expect(encodeHistoryEntry({ outcome: rejected, batchId: 'b9', answeredAt: 35 })).toBe(
      'I|z|b9|provider: Account not found||||FAILED|9521|%thoeyckyuk7',
    );
    const gaps: HistoryEntry = { outcome: { ...verified, bankName: '', fee: undefined }, batchId: 'b9', answeredAt: 35 };
    expect(encodeHistoryEntry(gaps)).toBe('V|z|b9||DEWI WIBOWO|||SUCCESS|9520|%thoeyckyuk6');
    expect(roundTrip(gaps)?.outcome).toStrictEqual(expected(gaps).outcome);
  });

  it("packs a time in the provider's form (12 characters until 2086), and keeps any other text as it is", () => {
    const at = (checkedAt: string) => ({ outcome: { ...verified, checkedAt }, batchId: 'b1', answeredAt: 5 });
    for (const time of [
      '1970-01-01T00:00:00.000000Z',
      '2026-11-23T01:36:10.000001Z',
      '2026-12-31T23:59:59.999999Z',
      '2028-02-29T12:00:00.500000Z',
      '2255-06-01T00:00:00.000000Z',
    ]) {
      const encoded = encodeHistoryEntry(at(time));
      expect(encoded.split('|').at(-1), time).toMatch(/^%t[0-9a-z]{1,11}$/);
      expect(decodeHistoryEntry(encoded), time).toEqual(at(time));
    }
    for (const text of [
      '2026-02-30T00:00:00.000000Z',
      '2026-11-23T24:00:00.000000Z',
      '1969-12-31T23:59:59.999999Z',
      '2300-01-01T00:00:00.000000Z',
      '2026-11-23T01:36:10.851Z',
      '2026-11-23T01:36:10.851126',
      '2026-11-23 01:36:10.851126Z',
      '%thoeyckyuk6',
      '%t',
    ]) {
      const encoded = encodeHistoryEntry(at(text));
      expect(encoded.split('|').at(-1), text).not.toMatch(/^%t/);
      expect(decodeHistoryEntry(encoded), text).toEqual(at(text));
    }
  });

  it('gives every result its own letter', () => {
    expect(new Set(RESULT_VALUES.map(resultCode)).size).toBe(RESULT_VALUES.length);
    for (const result of RESULT_VALUES) expect(resultCode(result)).toMatch(/^[A-Z]$/);
  });

  it('is about a third shorter than the earlier encoding for a typical answer', () => {
    const entry: HistoryEntry = { outcome: verified, batchId: 'b20261123-013610-a1b2c3', answeredAt: 1_800_000_000_000, result: 'MATCH' };
    const earlier = `1800000000000|b20261123-013610-a1b2c3|MATCH|${JSON.stringify(['VERIFIED', '', 'DEWI WIBOWO', 'BANK MANDIRI', '6500', 'SUCCESS', '9520', '2026-11-23T01:36:10.851126Z'])}`;
    expect(decodeHistoryEntry(earlier)).toEqual(entry);
    expect(encodeHistoryEntry(entry).length).toBeLessThan(earlier.length * 0.7);
  });

  it('still reads entries written in the earlier encoding, with or without a result', () => {
    expect(
      decodeHistoryEntry(
        '1800000000000|b-old|CLOSE_MATCH|["VERIFIED","","DEWI W","MANDIRI","6500","SUCCESS","9520","2026-11-23T01:36:10.851126Z"]',
      ),
    ).toEqual({
      outcome: { ...verified, holderName: 'DEWI W', bankName: 'MANDIRI' },
      batchId: 'b-old',
      answeredAt: 1_800_000_000_000,
      result: 'CLOSE_MATCH',
    });
    expect(
      decodeHistoryEntry(
        '1000|b1||["ACCOUNT_INVALID","provider: Account not found",null,null,null,"FAILED","9521","2026-11-23T01:36:10.851127Z"]',
      ),
    ).toEqual({
      outcome: rejected,
      batchId: 'b1',
      answeredAt: 1000,
      result: undefined,
    });
    expect(decodeHistoryEntry('1000|b1||["FAILED","no answer"]')).toBeUndefined();
  });

  it('reads nothing from a value neither encoding wrote', () => {
    const bare = (head: string, at: string, values = 7) => [head, at, 'b1', ...Array<string>(values).fill('')].join('|');
    expect(decodeHistoryEntry(bare('V', 'rs'))).toEqual({
      outcome: { verdict: 'VERIFIED', reason: '' },
      batchId: 'b1',
      answeredAt: 1000,
      result: undefined,
    });
    const good = encodeHistoryEntry({ outcome: verified, batchId: 'b1', answeredAt: 1000, result: 'MATCH' });
    for (const bad of [
      '',
      'V',
      bare('X', 'rs'),
      bare('VMM', 'rs'),
      bare('VX', 'rs'),
      bare('V', 'RS'),
      bare('V', ''),
      bare('V', 'rs', 6),
      bare('V', 'rs', 8),
      `${good}|`,
      good.replace('VM|', 'vm|'),
    ]) {
      expect(decodeHistoryEntry(bad), bad).toBeUndefined();
    }
  });
});
