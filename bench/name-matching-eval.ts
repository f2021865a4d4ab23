// Measures the holder-name matcher on the labelled pairs (test/matching/evaluation-set.ts) against two
// baselines: plain normalised equality and a generic fuzzy token-set ratio. The held-out part is the one no
// rule was tuned on (issue 13's targets are asserted on it); validation and tuning follow for comparison.
// Run: npx tsc -p tsconfig.json && node dist/bench/name-matching-eval.js [--verbose]

import { compareNames, NAME_MATCH_POLICIES } from '../src/matching/compare-names.js';
import { plainNormalised } from '../src/matching/normalise.js';
import { heldOutPairs, tuningPairs, validationPairs } from '../test/matching/evaluation-set.js';
import { evaluate, percent, share, type EvaluationResult, type Verdict } from '../test/matching/evaluation-metrics.js';
import type { LabelledPair } from '../test/matching/labelled-pair.js';

/** Baseline (a): the names are equal once case, accents and punctuation are gone. */
export function plainEquality(expected: string, holder: string): Verdict {
  const a = plainNormalised(expected);
  return a !== '' && a === plainNormalised(holder) ? 'MATCH' : 'NO_MATCH';
}

function longestCommonSubsequence(a: string, b: string): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** Indel similarity 0-100, as in fuzzywuzzy/rapidfuzz `ratio`. */
function ratio(a: string, b: string): number {
  if (a.length + b.length === 0) return 0;
  return (200 * longestCommonSubsequence(a, b)) / (a.length + b.length);
}

/** fuzzywuzzy's token_set_ratio: compares the shared words plus each side's remaining words. */
export function tokenSetRatio(expected: string, holder: string): number {
  const a = new Set(plainNormalised(expected).split(' ').filter(Boolean));
  const b = new Set(plainNormalised(holder).split(' ').filter(Boolean));
  if (a.size === 0 || b.size === 0) return 0;
  const common = [...a].filter((word) => b.has(word)).sort().join(' ');
  const onlyA = [...a].filter((word) => !b.has(word)).sort().join(' ');
  const onlyB = [...b].filter((word) => !a.has(word)).sort().join(' ');
  const withA = `${common} ${onlyA}`.trim();
  const withB = `${common} ${onlyB}`.trim();
  return Math.max(ratio(common, withA), ratio(common, withB), ratio(withA, withB));
}

/** Baseline (b): token-set ratio >= 90 MATCH, >= 75 CLOSE_MATCH. */
export function fuzzyVerdict(expected: string, holder: string): Verdict {
  const value = tokenSetRatio(expected, holder);
  return value >= 90 ? 'MATCH' : value >= 75 ? 'CLOSE_MATCH' : 'NO_MATCH';
}

const METHODS: ReadonlyArray<readonly [string, (expected: string, holder: string) => Verdict]> = [
  ...NAME_MATCH_POLICIES.map((policy) => [`compareNames (${policy})`, (e: string, h: string) => compareNames(e, h, policy).verdict] as const),
  ['plain normalised equality', plainEquality],
  ['token-set ratio (90 / 75)', fuzzyVerdict],
];

const HEADERS = ['same→M', 'same→NO', 'diff→M', 'diff→NO', 'review→C', 'review→M'];

function row(name: string, result: EvaluationResult): string {
  const { same, different, review } = result.byLabel;
  const cells = [share(same, 'MATCH'), share(same, 'NO_MATCH'), share(different, 'MATCH'), share(different, 'NO_MATCH'), share(review, 'CLOSE_MATCH'), share(review, 'MATCH')];
  return `| ${name.padEnd(28)} | ${cells.map((cell) => percent(cell).padStart(8)).join(' | ')} |`;
}

function table(title: string, pairs: readonly LabelledPair[]): EvaluationResult {
  const count = (label: string) => pairs.filter((pair) => pair.label === label).length;
  console.log(`${title}: ${pairs.length} pairs (same ${count('same')}, different ${count('different')}, review ${count('review')})`);
  console.log(`| ${'method'.padEnd(28)} | ${HEADERS.map((header) => header.padEnd(8)).join(' | ')} |`);
  console.log(`|${'-'.repeat(30)}|${'----------|'.repeat(HEADERS.length)}`);
  let first: EvaluationResult | undefined;
  for (const [name, decide] of METHODS) {
    const result = evaluate(pairs, decide);
    first ??= result;
    console.log(row(name, result));
  }
  console.log('');
  return first!;
}

function main(): void {
  const heldOut = table('held-out part (not tuned on; the targets of issue 13)', heldOutPairs);
  table('validation part (the first held-out list, studied after one measurement)', validationPairs);
  table('tuning part', tuningPairs);
  console.log('targets (held-out, standard policy): same→M >= 95%, same→NO <= 1%, diff→M = 0, diff→NO >= 95%, review→M = 0, review→C >= 80%');
  console.log('');
  const explain = (pair: LabelledPair) => `  [${pair.label}/${pair.topic}] "${pair.expected}" vs "${pair.holder}": ${compareNames(pair.expected, pair.holder).notes.join('; ')}`;
  console.log(`held-out, standard: wrong MATCHes (label different/review, verdict MATCH): ${heldOut.wrongMatches.length}`);
  heldOut.wrongMatches.forEach((pair) => console.log(explain(pair)));
  console.log(`held-out, standard: same-person pairs given NO_MATCH: ${heldOut.missedSame.length}`);
  heldOut.missedSame.forEach((pair) => console.log(explain(pair)));
  if (process.argv.includes('--verbose')) {
    console.log('');
    console.log('held-out pairs not answered as labelled (same→MATCH, different→NO_MATCH, review→CLOSE_MATCH), standard policy:');
    const wanted = { same: 'MATCH', different: 'NO_MATCH', review: 'CLOSE_MATCH' } as const;
    for (const pair of heldOutPairs) {
      const result = compareNames(pair.expected, pair.holder);
      if (result.verdict !== wanted[pair.label]) console.log(`  ${result.verdict} ${result.score}${explain(pair).slice(1)}`);
    }
  }
}

main();
