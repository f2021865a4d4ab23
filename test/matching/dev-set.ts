// The public names development set (test/matching/dev-set/, README there), split into the part rules may be
// tuned on and the fifth set aside before any tuning (set-aside.csv); and the pairs outside attacks wrote by its
// rules (test/matching/outside-pairs/, README there).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import type { PairLabel } from './labelled-pair.js';

export interface DevPair {
  expected: string;
  holder: string;
  label: PairLabel;
  /** The main thing the pair tests, as the set's README tags it: truncation, company, balinese... */
  pattern: string;
}

// Compiled into dist/test/matching, the CSVs stay beside the sources.
const read = (file: string): Record<string, string>[] => {
  let path = fileURLToPath(new URL(file, import.meta.url));
  if (path.includes('/dist/test/')) path = path.replace('/dist/test/', '/test/');
  return parse(readFileSync(path), { columns: true, bom: true }) as Record<string, string>[];
};

const key = (expected: string, holder: string) => `${expected}\t${holder}`;

const pairsIn = (file: string): DevPair[] =>
  read(file).map((row) => ({ expected: row.expected!, holder: row.holder!, label: row.label as PairLabel, pattern: row.pattern! }));

export const devPairs: readonly DevPair[] = pairsIn('./dev-set/names-dev.csv');

/** The pairs outside attacks wrote by the dev set's rules, a set per attack (outside-pairs/README.md). */
export const outsidePairSets: ReadonlyArray<{ file: string; pairs: readonly DevPair[] }> = ['2026-11-30.csv', '2026-11-30-b.csv'].map(
  (file) => ({ file, pairs: pairsIn(`./outside-pairs/${file}`) }),
);
export const outsidePairs: readonly DevPair[] = outsidePairSets.flatMap((set) => set.pairs);

const setAsideKeys = new Set(read('./dev-set/set-aside.csv').map((row) => key(row.expected!, row.holder!)));

export const setAsidePairs: readonly DevPair[] = devPairs.filter((pair) => setAsideKeys.has(key(pair.expected, pair.holder)));
export const tunedPairs: readonly DevPair[] = devPairs.filter((pair) => !setAsideKeys.has(key(pair.expected, pair.holder)));
