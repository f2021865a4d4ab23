import { describe, expect, it } from 'vitest';
import { compareNames, NAME_MATCH_POLICIES, type NameMatchPolicy } from '../../src/matching/compare-names.js';
import { evaluate, share } from './evaluation-metrics.js';
import { evaluationPairs, heldOutPairs, tuningPairs, validationPairs } from './evaluation-set.js';
import { handWrittenTuning } from './handwritten-tuning.js';
import type { LabelledPair, PairTopic } from './labelled-pair.js';

const run = (pairs: readonly LabelledPair[], policy: NameMatchPolicy = 'standard') =>
  evaluate(pairs, (expected, holder) => compareNames(expected, holder, policy).verdict);

describe('the labelled set', () => {
  it('has at least 1,000 pairs, a held-out part of every label, and every pattern of issues 5 and 13', () => {
    expect(evaluationPairs.length).toBeGreaterThanOrEqual(1000);
    for (const label of ['same', 'different', 'review'] as const) {
      // 140: issue 26 moved two real names one letter apart from review to different, as the dev set's rules say.
      expect(heldOutPairs.filter((pair) => pair.label === label).length, label).toBeGreaterThanOrEqual(140);
    }
    const topics: PairTopic[] = [
      'basic',
      'titles',
      'truncation',
      'muhammad',
      'initials',
      'old-spelling',
      'variants',
      'typos',
      'word-order',
      'split-join',
      'bin-binti',
      'prefixes',
      'company',
      'legal-form',
      'qq',
      'shared-word',
      'unrelated',
      'partial',
      'single-word',
      'joining',
      'one-letter',
      'middle-name',
      'gender',
      'father-son',
    ];
    for (const topic of topics)
      expect(
        heldOutPairs.some((pair) => pair.topic === topic),
        topic,
      ).toBe(true);
  });

  it('keeps its parts apart: no pair of the held-out part is in another part', () => {
    const key = (pair: LabelledPair) => `${pair.expected.trim().toUpperCase()}|${pair.holder}`;
    const elsewhere = new Set([...tuningPairs, ...validationPairs].map(key));
    expect(heldOutPairs.filter((pair) => elsewhere.has(key(pair)))).toEqual([]);
  });
});

// The acceptance targets of issue 13, on the part no rule was tuned on, under the default policy. The labels follow
// the names dev set's labelling rules since issue 26; the figures that count are the dev set's (dev-set.test.ts).
describe('held-out part, standard policy: the targets of issue 13', () => {
  const { byLabel, wrongMatches, missedSame } = run(heldOutPairs);

  it('says MATCH for at least 95% of same-person pairs and NO_MATCH for at most 1%', () => {
    expect(share(byLabel.same, 'MATCH')).toBeGreaterThanOrEqual(0.95);
    expect(share(byLabel.same, 'NO_MATCH'), JSON.stringify(missedSame)).toBeLessThanOrEqual(0.01);
  });

  // 85%, not issue 13's 95%: since issue 26 two real names one letter apart (Marlina / Marliana) are labelled
  // different, not review; the matcher says NO_MATCH where it knows both names (given-names.json) or their genders
  // differ, and leaves the others to a person (CLOSE_MATCH), as it cannot tell them from a slip.
  it('never says MATCH for a different person, and NO_MATCH for at least 85% of them', () => {
    expect(wrongMatches.filter((pair) => pair.label === 'different')).toEqual([]);
    expect(share(byLabel.different, 'NO_MATCH')).toBeGreaterThanOrEqual(0.85);
  });

  it('never says MATCH where a person must look, and CLOSE_MATCH for at least 80% of those pairs', () => {
    expect(wrongMatches.filter((pair) => pair.label === 'review')).toEqual([]);
    expect(share(byLabel.review, 'CLOSE_MATCH')).toBeGreaterThanOrEqual(0.8);
  });
});

describe('never a wrong MATCH, in any part, under either policy', () => {
  it.each(NAME_MATCH_POLICIES.flatMap((policy) => (['tuning', 'validation', 'held-out'] as const).map((part) => [policy, part] as const)))(
    '%s policy, %s part',
    (policy, part) => {
      const pairs = part === 'tuning' ? tuningPairs : part === 'validation' ? validationPairs : heldOutPairs;
      expect(run(pairs, policy).wrongMatches).toEqual([]);
    },
  );
});

// The targets of issue 5 on its own hand-written list, so that what it promised does not slip back. Issue 26 sends
// more different people to a person instead of NO_MATCH (a word that may be a short form of the other: Fauzi /
// Fauzan, Rahim / Rahman; the labelling rules make nicknames a review, never NO_MATCH) and labels two real names one
// letter apart different (the unlisted ones stay CLOSE_MATCH), so that share is 70%, not 85%.
describe('the issue-5 list, standard policy', () => {
  const { byLabel } = run(handWrittenTuning);

  it('says MATCH for at least 90% of same-person pairs, NO_MATCH for at most 3%, NO_MATCH for at least 70% of different people', () => {
    expect(share(byLabel.same, 'MATCH')).toBeGreaterThanOrEqual(0.9);
    expect(share(byLabel.same, 'NO_MATCH')).toBeLessThanOrEqual(0.03);
    expect(share(byLabel.different, 'NO_MATCH')).toBeGreaterThanOrEqual(0.7);
  });
});
