// The rules that turn two read names and their word pairing into MATCH / CLOSE_MATCH / NO_MATCH, a score
// and the notes for the `reason` column.
//
// MATCH is only given when every distinguishing word on both sides is accounted for by a word that is as good
// as itself (same letters, spelling variant, joined/split, an abbreviation of Muhammad). Everything weaker
// (an initial, a typo, a missing word, another legal form) is CLOSE_MATCH at best, because paying the wrong
// person costs far more than a person looking at a row. Any distinguishing word on one side that conflicts with
// an unaccounted word on the other side is NO_MATCH.

import { alignWords, keepsWordOrder, type WordLink } from './align.js';
import type { NameWord, ParsedName } from './parse-name.js';
import type { IgnoredPart } from './titles.js';
import { FULL_WORD_KINDS, typoSize } from './word-match.js';

export type NameVerdict = 'MATCH' | 'CLOSE_MATCH' | 'NO_MATCH';

export interface NameComparison {
  verdict: NameVerdict;
  /** Integer 0-100: MATCH 90-100, CLOSE_MATCH 50-89, NO_MATCH 0-49. */
  score: number;
  notes: string[];
}

/** A holder name shorter than this was not cut by the bank: core-banking name fields hold 20 to 40 characters. */
export const MIN_CUT_LENGTH = 18;
/** Of the word the bank cut, at least this many letters and this share must be visible for a MATCH. */
export const MIN_CUT_VISIBLE_LETTERS = 4;
export const MIN_CUT_VISIBLE_SHARE = 0.6;
/** With a word missing on one side, at least this share of the longer name's words must match for CLOSE_MATCH. */
export const MIN_PARTIAL_COVERAGE = 0.5;

const RANK: Record<NameVerdict, number> = { NO_MATCH: 0, CLOSE_MATCH: 1, MATCH: 2 };

const quote = (text: string) => `'${text}'`;
const list = (words: readonly NameWord[]) => words.map((word) => quote(word.letters)).join(', ');
const wordsOf = (indices: readonly number[], words: readonly NameWord[]) => indices.map((index) => words[index]!);
const lettersOf = (indices: readonly number[], words: readonly NameWord[]) =>
  wordsOf(indices, words).map((word) => word.letters).join(' ');

class Outcome {
  verdict: NameVerdict = 'MATCH';
  readonly reasons: string[] = [];
  readonly details: string[] = [];

  limit(verdict: NameVerdict, reason: string): void {
    if (RANK[verdict] < RANK[this.verdict]) this.verdict = verdict;
    if (!this.reasons.includes(reason)) this.reasons.push(reason);
  }

  note(detail: string): void {
    if (!this.details.includes(detail)) this.details.push(detail);
  }
}

function scoreFor(verdict: NameVerdict, raw: number): number {
  const rounded = Math.round(raw);
  if (verdict === 'MATCH') return Math.min(100, Math.max(90, rounded));
  if (verdict === 'CLOSE_MATCH') return Math.min(89, Math.max(50, rounded));
  return Math.min(49, Math.max(0, Math.round(raw * 0.49)));
}

const wordWeight = (word: NameWord) => (word.prefix === null ? 1 : 0.3) * Math.max(1, word.key.length);

/** Share (0-100) of both names' letters accounted for, each pairing weighted by how much it proves. */
function rawScore(expected: readonly NameWord[], holder: readonly NameWord[], links: readonly WordLink[]): number {
  const total = expected.reduce((sum, word) => sum + wordWeight(word), 0) + holder.reduce((sum, word) => sum + wordWeight(word), 0);
  if (total === 0) return 0;
  const matched = links.reduce(
    (sum, link) =>
      sum +
      link.quality *
        (wordsOf(link.expected, expected).reduce((s, word) => s + wordWeight(word), 0) +
          wordsOf(link.holder, holder).reduce((s, word) => s + wordWeight(word), 0)),
    0,
  );
  return (100 * matched) / total;
}

function describeIgnored(ignored: readonly IgnoredPart[], outcome: Outcome): void {
  for (const kind of ['title', 'degree'] as const) {
    const seen = new Set<string>();
    const written: string[] = [];
    for (const part of ignored) {
      const letters = part.display.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
      if (part.kind !== kind || seen.has(letters)) continue;
      seen.add(letters);
      written.push(quote(part.display));
    }
    if (written.length > 0) outcome.note(`${kind}${written.length > 1 ? 's' : ''} ${written.join(', ')} ignored`);
  }
}

function compareLegalForms(expected: ParsedName, holder: ParsedName, outcome: Outcome): void {
  const expectedForms = expected.legalForms;
  const holderForms = holder.legalForms;
  if (expectedForms.length === 0 && holderForms.length === 0) return;
  if (expectedForms.length === 0) {
    outcome.limit('CLOSE_MATCH', `holder is a company (${holderForms.join(', ')}), expected name is not`);
  } else if (holderForms.length === 0) {
    outcome.limit('CLOSE_MATCH', `legal form ${expectedForms.map(quote).join(', ')} missing from holder name`);
  } else if (!expectedForms.some((form) => holderForms.includes(form))) {
    outcome.limit('CLOSE_MATCH', `legal form differs: expected ${expectedForms.map(quote).join(', ')}, holder ${holderForms.map(quote).join(', ')}`);
  } else {
    const written = [...new Set([...expected.legalFormsWritten, ...holder.legalFormsWritten].map((text) => text.replace(/\.$/, '').toUpperCase()))];
    outcome.note(`legal form ${written.map(quote).join(', ')} compared apart from the name`);
  }
}

export function judgeNames(expected: ParsedName, holder: ParsedName): NameComparison {
  const E = expected.words;
  const H = holder.words;
  if (E.length === 0 || H.length === 0) {
    const notes: string[] = [];
    if (E.length === 0) notes.push('expected name is empty');
    if (H.length === 0) notes.push('holder name is empty');
    return { verdict: 'NO_MATCH', score: 0, notes };
  }

  const outcome = new Outcome();
  const mayBeCut = holder.visibleLength >= MIN_CUT_LENGTH;
  const links = alignWords(E, H, mayBeCut);
  const linkOfExpected = new Map<number, WordLink>();
  const linkOfHolder = new Map<number, WordLink>();
  for (const link of links) {
    link.expected.forEach((index) => linkOfExpected.set(index, link));
    link.holder.forEach((index) => linkOfHolder.set(index, link));
  }
  const inOrder = keepsWordOrder(links);

  // --- did the bank cut the name? Then the holder's words are the expected name's first words, in order.
  let cutAfter: number | null = null;
  let hidden: NameWord[] = [];
  const lastHolderLink = linkOfHolder.get(H.length - 1);
  if (mayBeCut && inOrder && lastHolderLink !== undefined && H.every((word) => linkOfHolder.has(word.index))) {
    const cutAt = Math.max(...lastHolderLink.expected);
    const after = E.filter((word) => word.index > cutAt);
    const skippedBefore = E.some((word) => word.index < cutAt && !linkOfExpected.has(word.index) && word.prefix === null);
    if (!skippedBefore && (after.length > 0 || lastHolderLink.kind === 'cut')) {
      cutAfter = cutAt;
      hidden = after;
    }
  }
  const hiddenIndices = new Set(hidden.map((word) => word.index));

  const missing = E.filter((word) => !linkOfExpected.has(word.index) && !hiddenIndices.has(word.index));
  const extra = H.filter((word) => !linkOfHolder.has(word.index));
  const distinguishing = (word: NameWord) => word.prefix === null || word.prefix === 'birth-order';
  const missingDistinguishing = missing.filter(distinguishing);
  const extraDistinguishing = extra.filter(distinguishing);
  const particleClash = missing.some((word) => word.prefix === 'particle') && extra.some((word) => word.prefix === 'particle');

  const isContent = (link: WordLink) =>
    wordsOf(link.expected, E).some((word) => word.prefix === null) || wordsOf(link.holder, H).some((word) => word.prefix === null);
  const contentLinks = links.filter(isContent);
  const matchedContentExpected = E.filter((word) => word.prefix === null && linkOfExpected.has(word.index)).length;
  const matchedContentHolder = H.filter((word) => word.prefix === null && linkOfHolder.has(word.index)).length;

  // 1. nothing in common
  if (contentLinks.length === 0) {
    if (missingDistinguishing.length > 0 && extraDistinguishing.length > 0) {
      outcome.limit('NO_MATCH', `word ${quote(extraDistinguishing[0]!.letters)} does not match ${quote(missingDistinguishing[0]!.letters)}`);
    } else {
      outcome.limit('NO_MATCH', 'no word in common');
    }
  }

  // 2. a word on each side that the other side does not have: two different people
  if (missingDistinguishing.length > 0 && extraDistinguishing.length > 0) {
    const pairs = Math.min(2, missingDistinguishing.length, extraDistinguishing.length);
    for (let k = 0; k < pairs; k += 1) {
      outcome.limit('NO_MATCH', `word ${quote(extraDistinguishing[k]!.letters)} does not match ${quote(missingDistinguishing[k]!.letters)}`);
    }
  } else if (particleClash) {
    const ours = missing.find((word) => word.prefix === 'particle')!;
    const theirs = extra.find((word) => word.prefix === 'particle')!;
    outcome.limit('NO_MATCH', `word ${quote(theirs.letters)} does not match ${quote(ours.letters)}`);
  }

  // 3. bin / binti
  const fatherOnly = (side: 'expected' | 'holder') =>
    contentLinks.length > 0 &&
    contentLinks.every((link) =>
      (side === 'expected' ? wordsOf(link.expected, E) : wordsOf(link.holder, H)).every((word) => word.role === 'father'),
    );
  if ((expected.hasFatherName && fatherOnly('expected')) || (holder.hasFatherName && fatherOnly('holder'))) {
    const father = contentLinks.map((link) => lettersOf(link.expected, E)).join(' ');
    outcome.limit('NO_MATCH', `only the father's name ${quote(father)} matches`);
  }
  if (expected.hasFatherName && holder.hasFatherName) {
    const swapped = links.some((link) => wordsOf(link.expected, E)[0]!.role !== wordsOf(link.holder, H)[0]!.role);
    if (swapped) outcome.limit('NO_MATCH', "given name and father's name are swapped");
  } else if ((expected.hasFatherName || holder.hasFatherName) && !inOrder) {
    outcome.limit('CLOSE_MATCH', "word order differs around 'bin'/'binti': check who is the father");
  }

  // 4. only words thousands of people share
  const somethingUnaccounted =
    missingDistinguishing.length > 0 || extraDistinguishing.length > 0 || hidden.some((word) => word.prefix === null) || lastHolderLink?.kind === 'cut';
  if (somethingUnaccounted && contentLinks.length > 0) {
    const allCommon = contentLinks.every(
      (link) => link.kind !== 'cut' && [...wordsOf(link.expected, E), ...wordsOf(link.holder, H)].every((word) => word.common || word.prefix !== null),
    );
    if (allCommon) {
      const shared = contentLinks.map((link) => lettersOf(link.expected, E)).join(' ');
      outcome.limit('NO_MATCH', `only the common word${contentLinks.length > 1 ? 's' : ''} ${quote(shared)} match${contentLinks.length > 1 ? '' : 'es'}`);
    }
  }

  // 5. a word missing on one side only
  const missingContent = missing.filter((word) => word.prefix === null);
  const extraContent = extra.filter((word) => word.prefix === null);
  if (missingContent.length > 0 || extraContent.length > 0) {
    const longerTotal = missingContent.length > 0 ? E.filter((w) => w.prefix === null).length : H.filter((w) => w.prefix === null).length;
    const longerMatched = missingContent.length > 0 ? matchedContentExpected : matchedContentHolder;
    if (longerMatched / longerTotal < MIN_PARTIAL_COVERAGE) {
      outcome.limit('NO_MATCH', `only ${longerMatched} of ${longerTotal} words match`);
    }
    if (missingContent.length > 0) outcome.limit('CLOSE_MATCH', `${list(missingContent)} missing from holder name`);
    if (extraContent.length > 0) outcome.limit('CLOSE_MATCH', `holder name has extra word${extraContent.length > 1 ? 's' : ''} ${list(extraContent)}`);
  }

  // 6. the bank cut the name
  if (cutAfter !== null) {
    const shown = holder.visibleLength;
    const partial = lastHolderLink?.kind === 'cut' ? lastHolderLink : null;
    const hiddenContent = hidden.filter((word) => word.prefix === null);
    if (partial !== null) {
      const full = E[partial.expected[0]!]!;
      const visible = H[partial.holder[0]!]!;
      const fullLinks = contentLinks.filter((link) => link !== partial);
      const strongFull = fullLinks.filter((link) => FULL_WORD_KINDS.has(link.kind));
      const distinctive = strongFull.some((link) => wordsOf(link.expected, E).some((word) => !word.common && word.prefix === null));
      const enoughShown =
        visible.letters.length >= MIN_CUT_VISIBLE_LETTERS && visible.letters.length / full.letters.length >= MIN_CUT_VISIBLE_SHARE;
      const safe = hiddenContent.length === 0 && enoughShown && strongFull.length >= 2 && distinctive;
      if (safe) {
        outcome.note(`holder name looks truncated by the bank (${shown} characters): ${quote(visible.letters)} read as ${quote(full.letters)}`);
      } else {
        const unseen = hiddenContent.length > 0 ? `; ${list(hiddenContent)} not shown` : '';
        outcome.limit('CLOSE_MATCH', `holder name looks truncated by the bank (${shown} characters): ${quote(visible.letters)} may not be ${quote(full.letters)}${unseen}`);
      }
    } else if (hiddenContent.length > 0) {
      outcome.limit('CLOSE_MATCH', `holder name may be truncated by the bank (${shown} characters): ${list(hiddenContent)} not shown`);
    }
  } else if (lastHolderLink?.kind === 'cut') {
    const full = E[lastHolderLink.expected[0]!]!;
    outcome.limit('CLOSE_MATCH', `${quote(H[lastHolderLink.holder[0]!]!.letters)} is only the start of ${quote(full.letters)}`);
  }

  // 7. prefix words (I/Ni, birth order, Raden...) present on one side only
  const omittedPrefixes = [...missing, ...extra].filter((word) => word.prefix !== null);
  if (omittedPrefixes.length > 0 && outcome.verdict !== 'NO_MATCH') {
    const birthOrder = omittedPrefixes.filter((word) => word.prefix === 'birth-order');
    if (birthOrder.length > 0 && Math.min(matchedContentExpected, matchedContentHolder) < 2) {
      outcome.limit('CLOSE_MATCH', `birth-order name ${list(birthOrder)} on one side only, and only one other word to go by`);
    } else {
      outcome.note(`prefix ${list(omittedPrefixes)} on one side only, ignored`);
    }
  }

  // 8. how good each pairing is
  const initials = links.filter((link) => link.kind === 'initial');
  for (const link of links) {
    const e = lettersOf(link.expected, E);
    const h = lettersOf(link.holder, H);
    switch (link.kind) {
      case 'typo': {
        const size = typoSize(E[link.expected[0]!]!, H[link.holder[0]!]!);
        outcome.limit('CLOSE_MATCH', `${size === 1 ? 'one-letter' : 'two-letter'} difference: ${quote(h)} vs ${quote(e)}`);
        break;
      }
      case 'variant':
        outcome.note(`spelling variant ${quote(h)} = ${quote(e)}`);
        break;
      case 'abbreviation':
        outcome.note(`${quote(e.length < h.length ? e : h)} read as ${quote(e.length < h.length ? h : e)}`);
        break;
      case 'joined':
        outcome.note(`${quote(e)} written as ${quote(h)}`);
        break;
      default:
        break;
    }
  }
  if (initials.length > 0) {
    const link = initials[0]!;
    const expectedWord = E[link.expected[0]!]!;
    const holderWord = H[link.holder[0]!]!;
    const [short, long, side] =
      expectedWord.letters.length < holderWord.letters.length ? [expectedWord, holderWord, E] : [holderWord, expectedWord, H];
    const contentIndices = side.filter((word) => word.prefix === null).map((word) => word.index);
    const middle = short.index !== contentIndices[0] && short.index !== contentIndices[contentIndices.length - 1];
    const strong = contentLinks.filter((l) => FULL_WORD_KINDS.has(l.kind));
    const distinctive = strong.some((l) => wordsOf(l.expected, E).some((word) => !word.common));
    if (initials.length === 1 && middle && strong.length >= 2 && distinctive) {
      outcome.note(`initial ${quote(short.letters)} taken as ${quote(long.letters)}`);
    } else {
      for (const l of initials) {
        const a = E[l.expected[0]!]!;
        const b = H[l.holder[0]!]!;
        const [s, g] = a.letters.length < b.letters.length ? [a, b] : [b, a];
        outcome.limit('CLOSE_MATCH', `initial ${quote(s.letters)} may or may not stand for ${quote(g.letters)}`);
      }
    }
  }
  if (!inOrder && cutAfter === null) outcome.note('word order differs');

  compareLegalForms(expected, holder, outcome);
  describeIgnored([...expected.ignored, ...holder.ignored], outcome);

  const raw = rawScore(E, H, links);
  return { verdict: outcome.verdict, score: scoreFor(outcome.verdict, raw), notes: [...outcome.reasons, ...outcome.details] };
}
