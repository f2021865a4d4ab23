import { describe, expect, it } from 'vitest';
import { compareNames } from '../../src/matching/compare-names.js';
import { evaluationPairs, type PairTopic } from './evaluation-set.js';
import { evaluate, share } from './evaluation-metrics.js';

// The acceptance targets of issue 5, on the labelled set.
describe('evaluation set', () => {
  const result = evaluate(evaluationPairs, (expected, holder) => compareNames(expected, holder).verdict);
  const { same, different } = result.byLabel;

  it('is large and covers every case', () => {
    expect(evaluationPairs.length).toBeGreaterThanOrEqual(300);
    const topics: PairTopic[] = [
      'basic', 'titles', 'truncation', 'muhammad', 'initials', 'old-spelling', 'variants', 'typos', 'word-order',
      'split-join', 'bin-binti', 'prefixes', 'company', 'qq', 'shared-word', 'unrelated', 'partial',
    ];
    for (const topic of topics) expect(evaluationPairs.some((pair) => pair.topic === topic), topic).toBe(true);
    for (const label of ['same', 'different', 'review'] as const) expect(result.byLabel[label].total, label).toBeGreaterThan(0);
  });

  it('never says MATCH for a different person', () => {
    expect(result.wrongMatches.filter((pair) => pair.label === 'different')).toEqual([]);
    expect(share(different, 'MATCH')).toBe(0);
  });

  it('says NO_MATCH for at least 85% of different people', () => {
    expect(share(different, 'NO_MATCH')).toBeGreaterThanOrEqual(0.85);
  });

  it('says MATCH for at least 90% of same-person pairs, NO_MATCH for at most 3%', () => {
    expect(share(same, 'MATCH')).toBeGreaterThanOrEqual(0.9);
    expect(share(same, 'NO_MATCH')).toBeLessThanOrEqual(0.03);
  });

  it('never says MATCH where a person has to look', () => {
    expect(result.byLabel.review.MATCH).toBe(0);
  });
});
