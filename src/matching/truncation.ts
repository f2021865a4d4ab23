// Bank-side truncation: core-banking systems keep the first 20-40 characters of a name, often mid-word
// ("MUHAMMAD RIZKY PRATAMA SAPUT"). What is cut off is unknown, and "RAHMA..." may be Rahmawati as well as
// Rahmadani, so a cut name is only a MATCH when the cut falls inside the last word, enough of that word shows
// to leave little doubt, and two other words (one of them not a common one) match in full.

import { quote, quoteWords, type Outcome } from './notes.js';
import { isPrefix, wordsOf, type NamePairing } from './pairing.js';
import { FULL_WORD_KINDS } from './word-match.js';

/** Of the word the bank cut, at least this many letters and this share must be visible for a MATCH. */
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
  if (cut.partial === null) {
    if (hiddenContent.length > 0) outcome.limit('CLOSE_MATCH', `holder name may be truncated by the bank (${shown}): ${quoteWords(hiddenContent)} not shown`);
    return;
  }

  const full = expected.words[cut.partial.expected[0]!]!;
  const visible = holder.words[cut.partial.holder[0]!]!;
  const fullPairs = pairing.contentLinks.filter((link) => link !== cut.partial && FULL_WORD_KINDS.has(link.kind));
  const oneDistinctive = fullPairs.some((link) => wordsOf(link.expected, expected.words).some((word) => !word.common && !isPrefix(word)));
  const enoughShown =
    visible.letters.length >= MIN_CUT_VISIBLE_LETTERS && visible.letters.length / full.letters.length >= MIN_CUT_VISIBLE_SHARE;

  if (hiddenContent.length === 0 && enoughShown && fullPairs.length >= MIN_FULL_WORDS_BESIDE_CUT && oneDistinctive) {
    outcome.note(`holder name looks truncated by the bank (${shown}): ${quote(visible.letters)} read as ${quote(full.letters)}`);
  } else {
    const unseen = hiddenContent.length > 0 ? ` and ${quoteWords(hiddenContent)} is not shown` : '';
    outcome.limit('CLOSE_MATCH', `holder name looks truncated by the bank (${shown}): ${quote(visible.letters)} may not be ${quote(full.letters)}${unseen}`);
  }
}

function lettersAt(words: readonly { letters: string }[], indices: readonly number[]): string {
  return indices.map((index) => words[index]!.letters).join(' ');
}
