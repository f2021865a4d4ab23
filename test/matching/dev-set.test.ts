import { describe, expect, it } from 'vitest';
import { compareNames, NAME_MATCH_POLICIES } from '../../src/matching/compare-names.js';
import { devPairs, outsidePairSets, outsidePairs, setAsidePairs, tunedPairs } from './dev-set.js';
import { evaluate, share } from './evaluation-metrics.js';

// Issue 26's targets on the public names dev set (test/matching/dev-set/), in process: fast, and run without Redis.
// test/name-matching/dev-set-run.test.ts measures the same end to end, through `run` against the emulator. The
// set-aside fifth was chosen by hash before any tuning; no rule was tuned on it.

describe('the names dev set', () => {
  it('has its 407 pairs, a set-aside fifth of them, and every label in both parts', () => {
    expect(devPairs).toHaveLength(407);
    expect(setAsidePairs).toHaveLength(81);
    expect(tunedPairs.length + setAsidePairs.length).toBe(devPairs.length);
    for (const part of [tunedPairs, setAsidePairs]) {
      expect(new Set(part.map((pair) => pair.label))).toEqual(new Set(['same', 'different', 'review']));
    }
  });

  // The safety targets: never MATCH for a different person or a pair a person must look at, in any part, under
  // either policy.
  it.each(NAME_MATCH_POLICIES)('%s: no different or review pair is MATCH', (policy) => {
    const wrong = [...devPairs, ...outsidePairs]
      .filter((pair) => pair.label !== 'same')
      .map((pair) => ({ pair, result: compareNames(pair.expected, pair.holder, policy) }))
      .filter(({ result }) => result.verdict === 'MATCH')
      .map(({ pair, result }) => `${pair.label} ${pair.pattern}: ${pair.expected} / ${pair.holder}: ${result.notes.join('; ')}`);
    expect(wrong).toEqual([]);
  });

  it.each([
    ['whole set', devPairs],
    ['set-aside part', setAsidePairs],
  ] as const)('standard policy, %s: same→MATCH >= 93%, same→NO_MATCH <= 1%, review→CLOSE_MATCH >= 80%', (name, pairs) => {
    const { byLabel } = evaluate(pairs, (expected, holder) => compareNames(expected, holder).verdict);
    expect(share(byLabel.same, 'MATCH'), name).toBeGreaterThanOrEqual(0.93);
    expect(share(byLabel.same, 'NO_MATCH'), name).toBeLessThanOrEqual(0.01);
    expect(share(byLabel.review, 'CLOSE_MATCH'), name).toBeGreaterThanOrEqual(0.8);
  });

  it.each(outsidePairSets.map((set) => [set.file, set.pairs] as const))(
    'the pairs an outside attack wrote (%s): the same targets, and no same pair NO_MATCH',
    (_file, pairs) => {
      expect(pairs.length).toBeGreaterThan(300);
      const { byLabel } = evaluate(pairs, (expected, holder) => compareNames(expected, holder).verdict);
      expect(share(byLabel.same, 'MATCH')).toBeGreaterThanOrEqual(0.93);
      expect(share(byLabel.same, 'NO_MATCH')).toBe(0);
      expect(share(byLabel.review, 'CLOSE_MATCH')).toBeGreaterThanOrEqual(0.8);
    },
  );
});
