// The facts every rule looks at: which words were paired, which were left over on each side, and whether the
// bank seems to have cut the holder name.

import { alignWords, keepsWordOrder, type WordLink } from './align.js';
import type { NameWord, ParsedName } from './parse-name.js';
import { FULL_WORD_KINDS } from './word-match.js';

/** A holder name shorter than this was not cut by the bank: core-banking name fields hold 20 to 40 characters. */
export const MIN_CUT_LENGTH = 18;

export interface BankCut {
  /** Characters the bank showed. */
  shownLength: number;
  /** The expected word the holder name stops in ("SAPUTRA" for "...SAPUT"); null when it stops between words. */
  partial: WordLink | null;
  /** Expected words after the cut, never shown. */
  hidden: NameWord[];
}

export interface NamePairing {
  expected: ParsedName;
  holder: ParsedName;
  links: WordLink[];
  linkOfExpected: Map<number, WordLink>;
  linkOfHolder: Map<number, WordLink>;
  /** Paired words appear in the same order on both sides. */
  inOrder: boolean;
  cut: BankCut | null;
  /** The holder's last word is only the start of an expected word, but not in a way a bank cut explains. */
  strayPartial: WordLink | null;
  /** Expected words with no partner (not counting words hidden by a bank cut). */
  missing: NameWord[];
  /** Holder words with no partner. */
  extra: NameWord[];
  /** Pairs that involve at least one word which is not a prefix word. */
  contentLinks: WordLink[];
  /** Leftovers on both sides that tell people apart: two different names. */
  conflict: boolean;
  /** The holder name is a single word, and it is one of the expected name's own (not its father's) words in full. */
  holderOneWord: WordLink | null;
}

export const isPrefix = (word: NameWord): boolean => word.prefix !== null;
export const isDistinguishing = (word: NameWord): boolean => word.prefix === null || word.prefix === 'birth-order';
export const wordsOf = (indices: readonly number[], words: readonly NameWord[]): NameWord[] => indices.map((index) => words[index]!);
export const lettersOf = (indices: readonly number[], words: readonly NameWord[]): string =>
  wordsOf(indices, words).map((word) => word.letters).join(' ');

/**
 * The bank cut the name when the holder's words are, in order, the first words of the expected name, the last
 * one possibly only the start of a word, and the expected name goes on after it.
 */
function findBankCut(
  expected: ParsedName,
  holder: ParsedName,
  links: readonly WordLink[],
  linkOfExpected: ReadonlyMap<number, WordLink>,
  linkOfHolder: ReadonlyMap<number, WordLink>,
  inOrder: boolean,
): BankCut | null {
  const last = linkOfHolder.get(holder.words.length - 1);
  if (holder.visibleLength < MIN_CUT_LENGTH || !inOrder || last === undefined) return null;
  if (!holder.words.every((word) => linkOfHolder.has(word.index))) return null;
  const cutAt = Math.max(...last.expected);
  const skipped = expected.words.some((word) => word.index < cutAt && !linkOfExpected.has(word.index) && !isPrefix(word));
  const hidden = expected.words.filter((word) => word.index > cutAt);
  if (skipped || (hidden.length === 0 && last.kind !== 'cut') || links.length === 0) return null;
  return { shownLength: holder.visibleLength, partial: last.kind === 'cut' ? last : null, hidden };
}

export function pairNames(expected: ParsedName, holder: ParsedName): NamePairing {
  const E = expected.words;
  const H = holder.words;
  const links = alignWords(E, H, holder.visibleLength >= MIN_CUT_LENGTH);
  const linkOfExpected = new Map<number, WordLink>();
  const linkOfHolder = new Map<number, WordLink>();
  for (const link of links) {
    for (const index of link.expected) linkOfExpected.set(index, link);
    for (const index of link.holder) linkOfHolder.set(index, link);
  }
  const inOrder = keepsWordOrder(links);
  const cut = findBankCut(expected, holder, links, linkOfExpected, linkOfHolder, inOrder);
  const lastLink = linkOfHolder.get(H.length - 1);
  const strayPartial = cut === null && lastLink?.kind === 'cut' ? lastLink : null;

  const hidden = new Set((cut?.hidden ?? []).map((word) => word.index));
  const missing = E.filter((word) => !linkOfExpected.has(word.index) && !hidden.has(word.index));
  const extra = H.filter((word) => !linkOfHolder.has(word.index));
  const contentLinks = links.filter(
    (link) => wordsOf(link.expected, E).some((word) => !isPrefix(word)) || wordsOf(link.holder, H).some((word) => !isPrefix(word)),
  );
  // I against Ni is he against she.
  const particleClash = missing.some((word) => word.prefix === 'particle') && extra.some((word) => word.prefix === 'particle');
  const conflict = (missing.some(isDistinguishing) && extra.some(isDistinguishing)) || particleClash;

  const holderOneWord = findHolderOneWord(expected, holder, linkOfHolder, conflict);

  return { expected, holder, links, linkOfExpected, linkOfHolder, inOrder, cut, strayPartial, missing, extra, contentLinks, conflict, holderOneWord };
}

function findHolderOneWord(expected: ParsedName, holder: ParsedName, linkOfHolder: ReadonlyMap<number, WordLink>, conflict: boolean): WordLink | null {
  const holderContent = holder.words.filter((word) => !isPrefix(word));
  if (conflict || holderContent.length !== 1 || expected.words.filter((word) => !isPrefix(word)).length < 2) return null;
  const link = linkOfHolder.get(holderContent[0]!.index);
  if (link === undefined || !FULL_WORD_KINDS.has(link.kind)) return null;
  return wordsOf(link.expected, expected.words).every((word) => word.role === 'given') ? link : null;
}

/** Content words of one side that found a partner. */
export function pairedContentWords(pairing: NamePairing, side: 'expected' | 'holder'): number {
  const words = side === 'expected' ? pairing.expected.words : pairing.holder.words;
  const links = side === 'expected' ? pairing.linkOfExpected : pairing.linkOfHolder;
  return words.filter((word) => !isPrefix(word) && links.has(word.index)).length;
}
