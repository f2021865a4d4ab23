// name_score: the share of both names' letters that the pairing accounts for, each pair weighted by how much it
// proves (exact 1, spelling variant 0.97, initial 0.5...), then placed inside the band of the verdict so that the
// number never contradicts the verdict: MATCH 90-100, CLOSE_MATCH 50-89, NO_MATCH 0-49. Words a bank cut hid are
// left out: they were never shown.

import type { WordLink } from './align.js';
import type { NameVerdict } from './notes.js';
import type { NameWord } from './parse-name.js';

const wordWeight = (word: NameWord) => Math.max(1, word.keys[0]?.length ?? word.letters.length);

const weightOf = (indices: readonly number[], words: readonly NameWord[]) =>
  indices.reduce((sum, index) => sum + wordWeight(words[index]!), 0);

/** 0-100 before banding. */
export function similarity(
  expected: readonly NameWord[],
  holder: readonly NameWord[],
  links: readonly WordLink[],
  hidden: readonly number[],
): number {
  const shownExpected = expected.reduce((sum, word, index) => sum + (hidden.includes(index) ? 0 : wordWeight(word)), 0);
  const total = shownExpected + holder.reduce((sum, word) => sum + wordWeight(word), 0);
  if (total === 0) return 0;
  const matched = links.reduce((sum, link) => sum + link.quality * (weightOf(link.expected, expected) + weightOf(link.holder, holder)), 0);
  return Math.min(100, (100 * matched) / total);
}

export function scoreInBand(verdict: NameVerdict, similarityPercent: number): number {
  const rounded = Math.round(similarityPercent);
  if (verdict === 'MATCH') return Math.min(100, Math.max(90, rounded));
  if (verdict === 'CLOSE_MATCH') return Math.min(89, Math.max(50, rounded));
  // Scaled rather than clipped, so that "one word in common" still ranks above "nothing in common".
  return Math.min(49, Math.max(0, Math.round(similarityPercent * 0.49)));
}
