// Measures the holder-name matcher on the labelled evaluation set against two baselines: plain normalised
// equality and a generic fuzzy token-set ratio. Run: npx tsc -p tsconfig.json && node dist/bench/name-matching-eval.js

import { compareNames } from '../src/matching/compare-names.js';
import { plainNormalised } from '../src/matching/normalise.js';
import { evaluationPairs } from '../test/matching/evaluation-set.js';
import { evaluate, percent, share, type EvaluationResult, type Verdict } from '../test/matching/evaluation-metrics.js';

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

/** same→M: share of same-person pairs answered MATCH; diff→NO: share of different-person pairs answered NO_MATCH; ... */
function row(name: string, result: EvaluationResult): string {
  const cells = [
    percent(share(result.byLabel.same, 'MATCH')),
    percent(share(result.byLabel.same, 'NO_MATCH')),
    percent(share(result.byLabel.different, 'MATCH')),
    percent(share(result.byLabel.different, 'NO_MATCH')),
    percent(share(result.byLabel.review, 'CLOSE_MATCH')),
  ];
  return `| ${name.padEnd(30)} | ${cells.map((cell) => cell.padStart(8)).join(' | ')} |`;
}

function main(): void {
  const matcher = evaluate(evaluationPairs, (expected, holder) => compareNames(expected, holder).verdict);
  const plain = evaluate(evaluationPairs, plainEquality);
  const fuzzy = evaluate(evaluationPairs, fuzzyVerdict);
  const { same, different, review } = matcher.byLabel;

  console.log(`evaluation set: ${evaluationPairs.length} pairs (same ${same.total}, different ${different.total}, review ${review.total})`);
  console.log('');
  const headers = ['same→M', 'same→NO', 'diff→M', 'diff→NO', 'review→C'];
  console.log(`| ${'method'.padEnd(30)} | ${headers.map((header) => header.padEnd(8)).join(' | ')} |`);
  console.log(`|${'-'.repeat(32)}|${'----------|'.repeat(headers.length)}`);
  console.log(row('compareNames', matcher));
  console.log(row('plain normalised equality', plain));
  console.log(row('token-set ratio (90 / 75)', fuzzy));
  console.log('');
  console.log('targets: same→M >= 90%, same→NO <= 3%, diff→M = 0, diff→NO >= 85%');
  console.log(`matcher on review pairs: MATCH ${review.MATCH}, CLOSE_MATCH ${review.CLOSE_MATCH}, NO_MATCH ${review.NO_MATCH}`);
  console.log('');
  console.log(`wrong MATCHes (label different/review, verdict MATCH): ${matcher.wrongMatches.length}`);
  for (const pair of matcher.wrongMatches) {
    console.log(`  [${pair.label}/${pair.topic}] "${pair.expected}" vs "${pair.holder}": ${compareNames(pair.expected, pair.holder).notes.join('; ')}`);
  }
  console.log(`same-person pairs given NO_MATCH: ${matcher.missedSame.length}`);
  for (const pair of matcher.missedSame) {
    console.log(`  [${pair.topic}] "${pair.expected}" vs "${pair.holder}": ${compareNames(pair.expected, pair.holder).notes.join('; ')}`);
  }
  if (process.argv.includes('--verbose')) {
    console.log('');
    console.log('all pairs not answered as labelled (same→MATCH, different→NO_MATCH, review→CLOSE_MATCH):');
    const wanted = { same: 'MATCH', different: 'NO_MATCH', review: 'CLOSE_MATCH' } as const;
    for (const pair of evaluationPairs) {
      const result = compareNames(pair.expected, pair.holder);
      if (result.verdict !== wanted[pair.label]) {
        console.log(`  [${pair.label}/${pair.topic}] ${result.verdict} ${result.score} "${pair.expected}" vs "${pair.holder}": ${result.notes.join('; ')}`);
      }
    }
  }
}

main();
