// Shared by bench/name-matching-eval.ts and evaluation.test.ts: runs a verdict function over the labelled
// pairs and counts what it said per label.

import type { PairLabel } from './labelled-pair.js';

/** What evaluate needs of a pair: the project's labelled pairs and the dev set's both have it. */
export interface JudgedPair {
  expected: string;
  holder: string;
  label: PairLabel;
}

export type Verdict = 'MATCH' | 'CLOSE_MATCH' | 'NO_MATCH';

export interface LabelCounts {
  total: number;
  MATCH: number;
  CLOSE_MATCH: number;
  NO_MATCH: number;
}

export interface EvaluationResult<P extends JudgedPair = JudgedPair> {
  byLabel: Record<PairLabel, LabelCounts>;
  /** Pairs labelled different (or review) that got MATCH: the errors that pay the wrong person. */
  wrongMatches: Array<P & { verdict: Verdict }>;
  /** Pairs labelled same that got NO_MATCH. */
  missedSame: Array<P & { verdict: Verdict }>;
}

const emptyCounts = (): LabelCounts => ({ total: 0, MATCH: 0, CLOSE_MATCH: 0, NO_MATCH: 0 });

export function evaluate<P extends JudgedPair>(
  pairs: readonly P[],
  decide: (expected: string, holder: string) => Verdict,
): EvaluationResult<P> {
  const byLabel: Record<PairLabel, LabelCounts> = { same: emptyCounts(), different: emptyCounts(), review: emptyCounts() };
  const wrongMatches: EvaluationResult<P>['wrongMatches'] = [];
  const missedSame: EvaluationResult<P>['missedSame'] = [];
  for (const pair of pairs) {
    const verdict = decide(pair.expected, pair.holder);
    const counts = byLabel[pair.label];
    counts.total += 1;
    counts[verdict] += 1;
    if (verdict === 'MATCH' && pair.label !== 'same') wrongMatches.push({ ...pair, verdict });
    if (verdict === 'NO_MATCH' && pair.label === 'same') missedSame.push({ ...pair, verdict });
  }
  return { byLabel, wrongMatches, missedSame };
}

export const share = (counts: LabelCounts, verdict: Verdict): number => (counts.total === 0 ? 0 : counts[verdict] / counts.total);

export const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;
