// Two read names to MATCH / CLOSE_MATCH / NO_MATCH, a score and the notes for the `reason` column.
//
// MATCH is only given when every distinguishing word on both sides is accounted for by a word that is as good
// as itself (same letters, spelling variant, joined/split, an abbreviation of Muhammad), or, under the standard
// policy, by one of three readings that leave no real doubt (a bank cut whose shown words identify the person, a
// middle initial, a middle name on one side only). Anything weaker (a typo, a missing first or last word,
// another legal form) is CLOSE_MATCH at best, because paying the wrong person costs far more than a person
// looking at a row. A distinguishing word on each side that the other lacks is NO_MATCH. The rules only ever
// lower the verdict, so their order changes the notes, never the verdict.

import { noteIgnoredTitles, Outcome, type NameVerdict } from './notes.js';
import { pairNames } from './pairing.js';
import { dropDegreesNamedBy, type ParsedName } from './parse-name.js';
import type { NameMatchPolicy } from './policy.js';
import {
  oneCommonWordOnly,
  conflictingWords,
  fatherNames,
  initials,
  legalForms,
  missingWords,
  nothingInCommon,
  pairQuality,
  prefixesOnOneSide,
  someWordInFull,
  wordOrder,
} from './rules.js';
import { scoreInBand, similarity } from './scoring.js';
import { judgeBankCut } from './truncation.js';

export type { NameVerdict } from './notes.js';

export interface NameComparison {
  verdict: NameVerdict;
  /** Integer 0-100: MATCH 90-100, CLOSE_MATCH 50-89, NO_MATCH 0-49. */
  score: number;
  /** Short notes for the `reason` column: why not MATCH first, then what was ignored or read generously. */
  notes: string[];
}

const RULES = [
  nothingInCommon,
  conflictingWords,
  fatherNames,
  oneCommonWordOnly,
  missingWords,
  judgeBankCut,
  prefixesOnOneSide,
  pairQuality,
  initials,
  wordOrder,
  someWordInFull,
  legalForms,
];

export function judgeNames(expectedAsRead: ParsedName, holderAsRead: ParsedName, policy: NameMatchPolicy): NameComparison {
  const expected = dropDegreesNamedBy(expectedAsRead, holderAsRead);
  const holder = dropDegreesNamedBy(holderAsRead, expectedAsRead);
  if (expected.words.length === 0 || holder.words.length === 0) {
    const notes: string[] = [];
    if (expected.words.length === 0) notes.push('expected name is empty');
    if (holder.words.length === 0) notes.push('holder name is empty');
    return { verdict: 'NO_MATCH', score: 0, notes };
  }
  const pairing = pairNames(expected, holder);
  const outcome = new Outcome(policy);
  for (const rule of RULES) rule(pairing, outcome);
  noteIgnoredTitles([...expected.ignored, ...holder.ignored], outcome);
  const score = scoreInBand(outcome.verdict, similarity(expected.words, holder.words, pairing.links));
  return { verdict: outcome.verdict, score, notes: outcome.notes() };
}
