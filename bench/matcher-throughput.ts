// Throughput of compareNames against plain normalised equality, measured in the same run over every labelled
// pair (test/matching/evaluation-set.ts), in alternating rounds so that a change in the machine's load hits
// both alike. Run: npx tsc -p tsconfig.json && node dist/bench/matcher-throughput.js [rounds]
// Target (issue 26): at least 20,000 comparisons per second (issues 5 and 13 had 50,000 for the simpler matcher).

import { compareNames, NAME_MATCH_POLICIES } from '../src/matching/compare-names.js';
import { plainNormalised } from '../src/matching/normalise.js';
import { evaluationPairs } from '../test/matching/evaluation-set.js';

const TARGET_PER_SECOND = 20_000;
const ROUNDS = Number(process.argv[2] ?? 7);
const PASSES_PER_ROUND = 3;

function plainEquality(expected: string, holder: string): boolean {
  const a = plainNormalised(expected);
  return a !== '' && a === plainNormalised(holder);
}

/** Comparisons per second of `compare` over every pair, `passes` times; the result is kept so the work is not optimised away. */
function measure(compare: (expected: string, holder: string) => unknown, passes: number): { perSecond: number; sink: number } {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let pass = 0; pass < passes; pass += 1) {
    for (const pair of evaluationPairs) {
      if (compare(pair.expected, pair.holder)) sink += 1;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { perSecond: (passes * evaluationPairs.length) / seconds, sink };
}

const format = (value: number) => Math.round(value).toLocaleString('en-US');
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const spread = (values: number[]) => {
  const s = sorted(values);
  return `min ${format(s[0]!)} / median ${format(s[Math.floor(s.length / 2)]!)} / max ${format(s[s.length - 1]!)}`;
};

function main(): void {
  const methods: Array<[string, (expected: string, holder: string) => unknown]> = [
    ...NAME_MATCH_POLICIES.map(
      (policy) =>
        [`compareNames (${policy})`, (e: string, h: string) => compareNames(e, h, policy)] as [string, (e: string, h: string) => unknown],
    ),
    ['plain normalised equality', plainEquality],
  ];
  for (const [, compare] of methods) measure(compare, PASSES_PER_ROUND); // warm-up: let the JIT settle first
  const results = new Map<string, number[]>(methods.map(([name]) => [name, []]));
  let sink = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, compare] of methods) {
      const { perSecond, sink: kept } = measure(compare, PASSES_PER_ROUND);
      results.get(name)!.push(perSecond);
      sink += kept;
    }
  }
  const baseline = results.get('plain normalised equality')!;
  console.log(
    `${evaluationPairs.length} pairs x ${PASSES_PER_ROUND} passes per round, ${ROUNDS} alternating rounds, Node ${process.version}`,
  );
  for (const [name] of methods) {
    const values = results.get(name)!;
    const ratios = values.map((value, index) => value / baseline[index]!);
    const median = sorted(values)[Math.floor(values.length / 2)]!;
    console.log(`${name.padEnd(28)} comparisons/s: ${spread(values)}`);
    if (values !== baseline) {
      const r = sorted(ratios);
      console.log(
        `${''.padEnd(28)} ratio to plain equality, same round: min ${r[0]!.toFixed(3)} / median ${r[Math.floor(r.length / 2)]!.toFixed(3)} / max ${r[r.length - 1]!.toFixed(3)}; target >= ${format(TARGET_PER_SECOND)}/s: ${median >= TARGET_PER_SECOND ? 'met' : 'NOT met'} (median)`,
      );
    }
  }
  if (sink < 0) console.log('unreachable');
}

main();
