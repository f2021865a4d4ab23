// How two single words (or a run of words and one word) can stand for the same name word, and how much
// that is worth. The kinds are ordered by how much they prove.

import { boundedEditDistance } from './edit-distance.js';
import type { NameWord } from './parse-name.js';
import { isMuhammadAbbreviation, spellingKey } from './spelling.js';

export type LinkKind =
  | 'exact' // same letters
  | 'variant' // same spelling key: Soekarno / Sukarno, Rizky / Rizki, Muhammad / Mochamad
  | 'joined' // one word on one side, two or three on the other: Nuraini / Nur Aini
  | 'abbreviation' // the usual short forms of Muhammad: M, Moh, Moch, Muh, Mhd
  | 'cut' // the bank's last word is the start of the expected word: SAPUT / SAPUTRA
  | 'typo' // one letter off in a long word: Setiwan / Setiawan
  | 'initial'; // a letter (or a dotted stub) for a word: A / ADI, Kus. / Kusuma

export const LINK_QUALITY: Readonly<Record<LinkKind, number>> = {
  exact: 1,
  variant: 0.97,
  joined: 0.97,
  abbreviation: 0.95,
  cut: 0.9,
  typo: 0.8,
  initial: 0.5,
};

/** Kinds that are as good as the word itself. */
export const FULL_WORD_KINDS: ReadonlySet<LinkKind> = new Set(['exact', 'variant', 'joined', 'abbreviation']);

// One letter off proves little in a short word (Budi / Bodi, Yoga / Yogi are different names), so typos
// are only read in words of six letters or more, two letters only from ten.
const TYPO_MIN_LENGTH = 6;
const TWO_TYPOS_MIN_LENGTH = 10;
const MAX_DOTTED_STUB = 5;

function keysMeet(a: NameWord, b: NameWord): boolean {
  return a.key === b.key || (a.altKey !== null && a.altKey === b.key) || (b.altKey !== null && (b.altKey === a.key || b.altKey === a.altKey));
}

/** An initial or a dotted stub on one side, a longer word starting with it on the other. */
function isInitialOf(short: NameWord, long: NameWord): boolean {
  if (long.letters.length <= short.letters.length) return false;
  if (short.letters.length === 1) return long.letters[0] === short.letters || long.key[0] === short.letters;
  return short.dotted && short.letters.length <= MAX_DOTTED_STUB && long.letters.startsWith(short.letters);
}

export function linkWords(expected: NameWord, holder: NameWord): LinkKind | null {
  if (expected.letters === holder.letters) return 'exact';
  if (expected.muhammad && holder.muhammad) {
    const abbreviated = isMuhammadAbbreviation(expected.letters) || isMuhammadAbbreviation(holder.letters);
    return abbreviated ? 'abbreviation' : 'variant';
  }
  if (keysMeet(expected, holder)) return 'variant';
  if (isInitialOf(expected, holder) || isInitialOf(holder, expected)) return 'initial';
  const shorter = Math.min(expected.key.length, holder.key.length);
  if (shorter >= TYPO_MIN_LENGTH) {
    const limit = shorter >= TWO_TYPOS_MIN_LENGTH ? 2 : 1;
    if (boundedEditDistance(expected.key, holder.key, limit) <= limit) return 'typo';
  }
  return null;
}

/** The holder's word is the start of the expected word, as when the bank cut the name there. */
export function isCutOf(expected: NameWord, holder: NameWord): boolean {
  if (holder.letters.length >= expected.letters.length) return false;
  return expected.letters.startsWith(holder.letters) || (holder.key.length < expected.key.length && expected.key.startsWith(holder.key));
}

/** Key of a run of words written as one ("NUR AINI" as "NURAINI"). */
export function joinedKeys(words: readonly NameWord[]): string[] {
  const fromLetters = spellingKey(words.map((word) => word.letters).join(''));
  const fromKeys = words.map((word) => word.key).join('');
  return fromLetters === fromKeys ? [fromLetters] : [fromLetters, fromKeys];
}

export function typoSize(expected: NameWord, holder: NameWord): number {
  return boundedEditDistance(expected.key, holder.key, 2);
}
