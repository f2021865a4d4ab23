// Bank-side truncation: core-banking systems keep the first 20-40 characters of a name, often mid-word
// ("MUHAMMAD RIZKY PRATAMA SAPUT"); the provider does not say which width. What is cut off is unknown, so a cut
// name is judged on what the bank shows:
// - it is the same person as far as anyone can tell when the cut falls at a plausible width (20-40 characters;
//   19 when it falls between two words, the bank dropping the space), every shown word agrees with the expected
//   name in full and in order, and at least two of those words are not everyday names: two words like that,
//   in that order, name one person ("SITI NURHALIZA KARTIKASARI PUT");
// - with fewer such words it is still read as a cut inside the last word when enough of that word shows
//   (4 letters and 60%), nothing after it is hidden and two other words match in full;
// - otherwise a person must look: "SITI NURHALIZA RAHMA" fits Rahmawati and Rahmadani, and thousands of Siti
//   Nurhalizas.
// Under the strict policy a cut name is never MATCH (see policy.ts).

import { quote, quoteWords, type Outcome } from './notes.js';
import { isPrefix, wordsOf, type NamePairing } from './pairing.js';
import { distinctiveLinks, MIN_DISTINCTIVE_WORDS } from './rules.js';
import { FULL_WORD_KINDS } from './word-match.js';

/** Field widths of core-banking systems, in characters. */
export const MIN_BANK_WIDTH = 20;
export const MAX_BANK_WIDTH = 40;
/** Of the word the bank cut, at least this many letters and this share must be visible when the rest identifies less. */
export const MIN_CUT_VISIBLE_LETTERS = 4;
export const MIN_CUT_VISIBLE_SHARE = 0.6;
const MIN_FULL_WORDS_BESIDE_CUT = 2;

export function judgeBankCut(pairing: NamePairing, outcome: Outcome): void {
  const { cut, expected, holder } = pairing;
  if (pairing.strayPartial !== null) {
    const link = pairing.strayPartial;
    outcome.limit('CLOSE_MATCH', `${quote(lettersAt(holder.words, link.holder))} is only the start of ${quote(lettersAt(expected.words, link.expected))}`);
  }
  if (cut === null) return;

  const shown = `${cut.shownLength} characters`;
  const hiddenContent = cut.hidden.filter((word) => !isPrefix(word));
  const unseen = hiddenContent.length > 0 ? `${quoteWords(hiddenContent)} not shown` : '';
  const full = cut.partial === null ? null : expected.words[cut.partial.expected[0]!]!;
  const visible = cut.partial === null ? null : holder.words[cut.partial.holder[0]!]!;
  const readAs = full !== null && visible !== null ? `${quote(visible.letters)} read as ${quote(full.letters)}` : '';

  const fullPairs = pairing.contentLinks.filter((link) => link !== cut.partial && FULL_WORD_KINDS.has(link.kind));
  const everyShownWordAgrees = pairing.links.every((link) => link === cut.partial || FULL_WORD_KINDS.has(link.kind));
  const widest = cut.partial === null ? cut.shownLength + 1 : cut.shownLength;
  const plausibleWidth = widest >= MIN_BANK_WIDTH && cut.shownLength <= MAX_BANK_WIDTH;
  if (plausibleWidth && everyShownWordAgrees && distinctiveLinks(pairing, fullPairs) >= MIN_DISTINCTIVE_WORDS) {
    outcome.acceptUnlessStrict(`holder name looks truncated by the bank (${shown}): ${[readAs, unseen].filter(Boolean).join(', ')}`);
    return;
  }

  if (full === null || visible === null) {
    if (hiddenContent.length > 0) outcome.limit('CLOSE_MATCH', `holder name may be truncated by the bank (${shown}): ${unseen}`);
    return;
  }
  const oneDistinctive = fullPairs.some((link) => wordsOf(link.expected, expected.words).some((word) => !word.common && !isPrefix(word)));
  const enoughShown =
    visible.letters.length >= MIN_CUT_VISIBLE_LETTERS && visible.letters.length / full.letters.length >= MIN_CUT_VISIBLE_SHARE;
  if (hiddenContent.length === 0 && enoughShown && fullPairs.length >= MIN_FULL_WORDS_BESIDE_CUT && oneDistinctive) {
    outcome.acceptUnlessStrict(`holder name looks truncated by the bank (${shown}): ${readAs}`);
  } else {
    outcome.limit('CLOSE_MATCH', `holder name looks truncated by the bank (${shown}): ${quote(visible.letters)} may not be ${quote(full.letters)}${unseen === '' ? '' : ` and ${unseen.replace(/ not shown$/, ' is not shown')}`}`);
  }
}

function lettersAt(words: readonly { letters: string }[], indices: readonly number[]): string {
  return indices.map((index) => words[index]!.letters).join(' ');
}
