// The rules, in the order judgeNames applies them. Each looks at the pairing and may lower the verdict
// (with a reason) or add a note; none can raise it.

import { isRotatedOrder, type WordLink } from './align.js';
import { plural, quote, quoteWords, type Outcome } from './notes.js';
import { isDistinguishing, isPrefix, lettersOf, pairedContentWords, wordsOf, type NamePairing } from './pairing.js';
import type { NameWord } from './parse-name.js';
import { FULL_WORD_KINDS, isSlipInLongWord, typoSize } from './word-match.js';

/** With a word missing on one side, at least this share of the longer name's words must match for CLOSE_MATCH. */
export const MIN_PARTIAL_COVERAGE = 0.5;
/** Paired words that are not everyday names needed before a generous reading (a middle name, a bank cut) is MATCH. */
export const MIN_DISTINCTIVE_WORDS = 2;
/** A middle initial is taken for the word only when this many other words match in full. */
const MIN_FULL_WORDS_BESIDE_INITIAL = 2;

/** Nothing but prefix words (or nothing at all) in common. */
export function nothingInCommon(p: NamePairing, outcome: Outcome): void {
  if (p.contentLinks.length === 0 && !p.conflict) outcome.limit('NO_MATCH', 'no word in common');
}

/** A distinguishing word on each side that the other side lacks: Rizky vs Fauzi, Wayan vs Made, I vs Ni. */
export function conflictingWords(p: NamePairing, outcome: Outcome): void {
  if (!p.conflict) return;
  let ours = p.missing.filter(isDistinguishing);
  let theirs = p.extra.filter(isDistinguishing);
  if (ours.length === 0 || theirs.length === 0) {
    ours = p.missing.filter((word) => word.prefix === 'particle');
    theirs = p.extra.filter((word) => word.prefix === 'particle');
  }
  for (let k = 0; k < Math.min(2, ours.length, theirs.length); k += 1) {
    outcome.limit('NO_MATCH', `word ${quote(theirs[k]!.letters)} does not match ${quote(ours[k]!.letters)}`);
  }
}

/** "Ahmad bin Abdullah" shares only his father's name with "Abdullah"; father and son swapped are two people. */
export function fatherNames(p: NamePairing, outcome: Outcome): void {
  const { expected, holder, contentLinks } = p;
  const onlyFather = (side: 'expected' | 'holder') =>
    contentLinks.length > 0 &&
    contentLinks.every((link) =>
      (side === 'expected' ? wordsOf(link.expected, expected.words) : wordsOf(link.holder, holder.words)).every((word) => word.role === 'father'),
    );
  if ((expected.hasFatherName && onlyFather('expected')) || (holder.hasFatherName && onlyFather('holder'))) {
    const father = contentLinks.map((link) => lettersOf(link.expected, expected.words)).join(' ');
    outcome.limit('NO_MATCH', `only the father's name ${quote(father)} matches`);
  }
  if (expected.hasFatherName && holder.hasFatherName) {
    const swapped = p.links.some((link) => expected.words[link.expected[0]!]!.role !== holder.words[link.holder[0]!]!.role);
    if (swapped) outcome.limit('NO_MATCH', "given name and father's name are swapped");
  } else if ((expected.hasFatherName || holder.hasFatherName) && !p.inOrder) {
    outcome.limit('CLOSE_MATCH', "word order differs around 'bin'/'binti': check who is the father");
  }
}

/**
 * Sharing only Muhammad, Siti or Jaya proves nothing when anything else is unaccounted for. Two shared words in
 * their order ("Ratna Dewi" in "RATNA SARI DEWI") are a missing word, left to the next rule; so is a holder
 * name that is just one of the expected words ("SITI" for "Siti binti Hasan": banks drop the rest).
 */
export function oneCommonWordOnly(p: NamePairing, outcome: Outcome): void {
  const { expected, holder, contentLinks, cut } = p;
  if (p.conflict || contentLinks.length !== 1 || p.holderOneWord !== null) return;
  const unaccounted =
    p.missing.some(isDistinguishing) ||
    p.extra.some(isDistinguishing) ||
    (cut !== null && (cut.partial !== null || cut.hidden.some((word) => !isPrefix(word)))) ||
    p.strayPartial !== null;
  if (!unaccounted) return;
  const allCommon = contentLinks.every(
    (link) =>
      link.kind !== 'cut' &&
      [...wordsOf(link.expected, expected.words), ...wordsOf(link.holder, holder.words)].every((word) => word.common || isPrefix(word)),
  );
  if (!allCommon) return;
  const shared = contentLinks.map((link) => lettersOf(link.expected, expected.words)).join(' ');
  outcome.limit('NO_MATCH', `only the common word ${quote(shared)} matches`);
}

/**
 * A word on one side only: CLOSE_MATCH if at least half of the longer name's words match, NO_MATCH otherwise;
 * a holder name that is one word of the expected name is always CLOSE_MATCH (the bank may keep one name, and
 * thousands of others carry that word too). A middle name on one side only, between names that identify the
 * person, is read as the same person (unless the policy is strict).
 */
export function missingWords(p: NamePairing, outcome: Outcome): void {
  if (p.conflict) return;
  const missing = p.missing.filter((word) => !isPrefix(word));
  const extra = p.extra.filter((word) => !isPrefix(word));
  if (missing.length === 0 && extra.length === 0) return;

  if (p.holderOneWord !== null) {
    outcome.limit('CLOSE_MATCH', `holder name is only ${quote(lettersOf(p.holderOneWord.holder, p.holder.words))}, one word of the expected name`);
    return;
  }
  const longer = missing.length > 0 ? 'expected' : 'holder';
  const words = longer === 'expected' ? p.expected.words : p.holder.words;
  const total = words.filter((word) => !isPrefix(word)).length;
  const paired = pairedContentWords(p, longer);
  if (paired / total < MIN_PARTIAL_COVERAGE) outcome.limit('NO_MATCH', `only ${paired} of ${total} words match`);

  const middle = middleNameOnly(p, [...missing, ...extra]);
  if (middle !== null) {
    outcome.acceptUnlessStrict(`middle name ${quote(middle.letters)} only in ${missing.length > 0 ? 'expected' : 'holder'} name`);
    return;
  }
  if (missing.length > 0) {
    const father = missing.every((word) => word.role === 'father') ? "father's name " : '';
    outcome.limit('CLOSE_MATCH', `${father}${quoteWords(missing)} missing from holder name`);
  }
  if (extra.length > 0) {
    const what = extra.every((word) => word.role === 'father') ? "the father's name" : `extra ${plural(extra.length, 'word')}`;
    outcome.limit('CLOSE_MATCH', `holder name has ${what} ${quoteWords(extra)}`);
  }
}

/**
 * The single word on one side only when it sits inside that name (a first or last word may be a family or
 * father's name of another family member), every other word is paired in full and in order, and at least two
 * of the paired words are not everyday names: "Agung Wibisono" / "AGUNG TRI WIBISONO".
 */
function middleNameOnly(p: NamePairing, leftovers: readonly NameWord[]): NameWord | null {
  if (leftovers.length !== 1 || p.cut !== null || !p.inOrder) return null;
  const word = leftovers[0]!;
  if (word.role === 'father') return null;
  const side = p.missing.includes(word) ? p.expected.words : p.holder.words;
  const content = side.filter((other) => !isPrefix(other));
  if (word === content[0] || word === content[content.length - 1]) return null;
  if (!p.contentLinks.every((link) => FULL_WORD_KINDS.has(link.kind))) return null;
  return distinctiveLinks(p, p.contentLinks) >= MIN_DISTINCTIVE_WORDS ? word : null;
}

/** Links whose expected words include one that is neither an everyday name nor a prefix word. */
export function distinctiveLinks(p: NamePairing, links: readonly WordLink[]): number {
  return links.filter((link) => wordsOf(link.expected, p.expected.words).some((word) => !word.common && !isPrefix(word))).length;
}

/**
 * Prefix words on one side only (the bank dropped "I", "Raden", "Made"): ignored, except a birth-order name
 * when only one other word is left to tell people apart ("I Made Sudarsana" vs "SUDARSANA").
 */
export function prefixesOnOneSide(p: NamePairing, outcome: Outcome): void {
  const omitted = [...p.missing, ...p.extra].filter(isPrefix);
  if (omitted.length === 0 || outcome.verdict === 'NO_MATCH') return;
  const birthOrder = omitted.filter((word) => word.prefix === 'birth-order');
  const paired = Math.min(pairedContentWords(p, 'expected'), pairedContentWords(p, 'holder'));
  if (birthOrder.length > 0 && paired < 2) {
    outcome.limit('CLOSE_MATCH', `birth-order name ${quoteWords(birthOrder)} on one side only, and only one other word to go by`);
  } else {
    outcome.note(`prefix ${quoteWords(omitted)} on one side only, ignored`);
  }
}

/**
 * Typos, one letter off in a short word and an Arabic name with and without its article lower to CLOSE_MATCH;
 * spelling variants, Muhammad abbreviations and joined words are only noted. Two words each a letter off are
 * another person with a similar name ("Wahyudi Putra" / "WAHYUNI PUTRI": his sister), not two slips.
 */
export function pairQuality(p: NamePairing, outcome: Outcome): void {
  const E = p.expected.words;
  const H = p.holder.words;
  const offByLetters = p.links.filter((link) => link.kind === 'typo' || link.kind === 'near');
  if (offByLetters.length >= 2) {
    const pairs = offByLetters.map((link) => `${quote(lettersOf(link.holder, H))}/${quote(lettersOf(link.expected, E))}`).join(', ');
    outcome.limit('NO_MATCH', `${offByLetters.length} words differ by a letter (${pairs}): a similar name of another person`);
  }
  for (const link of p.links) {
    const e = lettersOf(link.expected, E);
    const h = lettersOf(link.holder, H);
    if (link.kind === 'typo') {
      const [expectedWord, holderWord] = [E[link.expected[0]!]!, H[link.holder[0]!]!];
      const restInFull = p.contentLinks.some((other) => other !== link && FULL_WORD_KINDS.has(other.kind));
      if (offByLetters.length === 1 && restInFull && isSlipInLongWord(expectedWord, holderWord)) {
        outcome.acceptUnlessStrict(`one-letter slip in a long word: ${quote(h)} read as ${quote(e)}`);
      } else {
        const size = typoSize(expectedWord, holderWord);
        outcome.limit('CLOSE_MATCH', `${size === 1 ? 'one-letter' : 'two-letter'} difference: ${quote(h)} vs ${quote(e)}`);
      }
    } else if (link.kind === 'near') {
      outcome.limit('CLOSE_MATCH', `one letter differs in a short word: ${quote(h)} vs ${quote(e)}, which may be another name`);
    } else if (link.kind === 'joining') {
      outcome.limit('CLOSE_MATCH', `${quote(h)} vs ${quote(e)}: one Arabic name with and without the article, or two names`);
    } else if (link.kind === 'variant') {
      outcome.note(`spelling variant ${quote(h)} = ${quote(e)}`);
    } else if (link.kind === 'abbreviation') {
      const [short, long] = e.length < h.length ? [e, h] : [h, e];
      outcome.note(`${quote(short)} read as ${quote(long)}`);
    } else if (link.kind === 'joined') {
      outcome.note(`${quote(e)} written as ${quote(h)}`);
    }
  }
}

/**
 * An initial stands for the word only in the middle of a name whose other words are strong: "Rizky A Pratama"
 * for "RIZKY ADI PRATAMA". A first or last initial ("B. Santoso", "Budi S."), two initials, or a rest made of
 * common words leaves too many other people possible.
 */
export function initials(p: NamePairing, outcome: Outcome): void {
  const E = p.expected.words;
  const H = p.holder.words;
  const found = p.links.filter((link) => link.kind === 'initial');
  if (found.length === 0) return;
  const shortAndLong = (link: (typeof found)[number]) => {
    const a = E[link.expected[0]!]!;
    const b = H[link.holder[0]!]!;
    return a.letters.length < b.letters.length ? { short: a, long: b, side: E } : { short: b, long: a, side: H };
  };
  const { short, long, side } = shortAndLong(found[0]!);
  const content = side.filter((word) => !isPrefix(word));
  const middle = short !== content[0] && short !== content[content.length - 1];
  const strong = p.contentLinks.filter((link) => FULL_WORD_KINDS.has(link.kind));
  const distinctive = strong.some((link) => wordsOf(link.expected, E).some((word) => !word.common));
  if (found.length === 1 && middle && strong.length >= MIN_FULL_WORDS_BESIDE_INITIAL && distinctive) {
    outcome.acceptUnlessStrict(`initial ${quote(short.letters)} taken as ${quote(long.letters)}`);
    return;
  }
  for (const link of found) {
    const pair = shortAndLong(link);
    outcome.limit('CLOSE_MATCH', `initial ${quote(pair.short.letters)} may or may not stand for ${quote(pair.long.letters)}`);
  }
}

/** A surname moved to the front or back is the same name; any other reshuffle is not. */
export function wordOrder(p: NamePairing, outcome: Outcome): void {
  if (p.inOrder || p.cut !== null || p.expected.hasFatherName !== p.holder.hasFatherName) return;
  if (isRotatedOrder(p.contentLinks)) outcome.note('word order differs');
  else outcome.limit('CLOSE_MATCH', 'words are in a different order');
}

/** "M" against "MUHAMMAD" alone, or initials against initials, is not a name compared. */
export function someWordInFull(p: NamePairing, outcome: Outcome): void {
  const full = p.contentLinks.some(
    (link) =>
      FULL_WORD_KINDS.has(link.kind) &&
      link.kind !== 'abbreviation' &&
      [...wordsOf(link.expected, p.expected.words), ...wordsOf(link.holder, p.holder.words)].every((word) => word.letters.length >= 2),
  );
  if (!full) outcome.limit('CLOSE_MATCH', 'no word matches in full');
}

/** The same legal form on both sides is noise; another or a missing one may be another legal entity. */
export function legalForms(p: NamePairing, outcome: Outcome): void {
  const ours = p.expected.legalForms;
  const theirs = p.holder.legalForms;
  const forms = (list: readonly string[]) => list.map(quote).join(', ');
  if (ours.length === 0 && theirs.length === 0) return;
  if (ours.length === 0) {
    outcome.limit('CLOSE_MATCH', `legal form ${forms(theirs)} only in holder name`);
  } else if (theirs.length === 0) {
    outcome.limit('CLOSE_MATCH', `legal form ${forms(ours)} missing from holder name`);
  } else if (!ours.some((form) => theirs.includes(form))) {
    outcome.limit('CLOSE_MATCH', `legal form differs: expected ${forms(ours)}, holder ${forms(theirs)}`);
  } else {
    const written = new Set([...p.expected.legalFormsWritten, ...p.holder.legalFormsWritten].map((text) => text.replace(/\.$/, '').toUpperCase()));
    outcome.note(`legal form ${forms([...written])} ignored (same on both sides)`);
  }
}
