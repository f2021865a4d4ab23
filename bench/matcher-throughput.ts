// Throughput of compareNames against plain normalised equality, measured in the same run over the
// evaluation pairs repeated. Run: npx tsc -p tsconfig.json && node dist/bench/matcher-throughput.js
// Target (issue 5): at least 50,000 comparisons per second.

import { compareNames } from '../src/matching/compare-names.js';
import { plainNormalised } from '../src/matching/normalise.js';
import { evaluationPairs } from '../test/matching/evaluation-set.js';

const TARGET_PER_SECOND = 50_000;
const ROUNDS = 200;
const WARM_UP_ROUNDS = 20;

function plainEquality(expected: string, holder: string): boolean {
  const a = plainNormalised(expected);
  return a !== '' && a === plainNormalised(holder);
}

/** Comparisons per second of `compare` over every pair, `rounds` times; the result is kept so the work is not optimised away. */
function measure(compare: (expected: string, holder: string) => unknown, rounds: number): { perSecond: number; sink: number } {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let round = 0; round < rounds; round += 1) {
    for (const pair of evaluationPairs) {
      if (compare(pair.expected, pair.holder)) sink += 1;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { perSecond: (rounds * evaluationPairs.length) / seconds, sink };
}

function main(): void {
  measure(compareNames, WARM_UP_ROUNDS);
  measure(plainEquality, WARM_UP_ROUNDS);

  const matcher = measure(compareNames, ROUNDS);
  const baseline = measure(plainEquality, ROUNDS);
  const comparisons = ROUNDS * evaluationPairs.length;
  const format = (value: number) => Math.round(value).toLocaleString('en-US');

  console.log(`${comparisons.toLocaleString('en-US')} comparisons each (${evaluationPairs.length} pairs x ${ROUNDS}), Node ${process.version}`);
  console.log(`compareNames:               ${format(matcher.perSecond).padStart(10)} comparisons/s`);
  console.log(`plain normalised equality:  ${format(baseline.perSecond).padStart(10)} comparisons/s`);
  console.log(`ratio: compareNames runs at ${(matcher.perSecond / baseline.perSecond).toFixed(3)}x the baseline (${(baseline.perSecond / matcher.perSecond).toFixed(1)}x slower)`);
  console.log(`target >= ${format(TARGET_PER_SECOND)}/s: ${matcher.perSecond >= TARGET_PER_SECOND ? 'met' : 'NOT met'}`);
  if (matcher.sink < 0 || baseline.sink < 0) console.log('unreachable');
}

main();
