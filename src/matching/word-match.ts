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
  | 'joining' // one Arabic name with and without the article: Nur / Nurul, Syamsu / Syamsul, Nurun / Nurul
  | 'typo' // one letter off in a long word: Setiwan / Setiawan
  | 'near' // one letter off in a short word, often another name: Putra / Putri, Dina / Dini, Yoga / Yogi
  | 'initial'; // a letter (or a dotted stub) for a word: A / ADI, Kus. / Kusuma

export const LINK_QUALITY: Readonly<Record<LinkKind, number>> = {
  exact: 1,
  variant: 0.97,
  joined: 0.97,
  abbreviation: 0.95,
  cut: 0.9,
  joining: 0.85,
  typo: 0.8,
  near: 0.6,
  initial: 0.5,
};

/** Kinds that are as good as the word itself. */
export const FULL_WORD_KINDS: ReadonlySet<LinkKind> = new Set(['exact', 'variant', 'joined', 'abbreviation']);

// One letter off proves little in a short word (Budi / Bodi, Yoga / Yogi are different names), so typos
// are only read in words of six letters or more, two letters only from ten. In a shorter word one letter off
// is still worth a look ('near'): it may be a typo as well as a brother's or sister's name (Eko / Eka, Ari / Arif).
const TYPO_MIN_LENGTH = 6;
const TWO_TYPOS_MIN_LENGTH = 10;
const NEAR_MIN_LENGTH = 3;
const MAX_DOTTED_STUB = 5;
const SLIP_MIN_LENGTH = 10;
const SLIP_KEPT_ENDING = 2;
const VOWELS = /[AEIOU]/;

// The Arabic article "al" is joined to the word before it and takes the sound of the next consonant (Nurul,
// Nurun, Nurur; Syamsul or plain Syamsu), or is left out (Nur, Khoir): one name, written four ways.
const ARTICLE_ENDING = /U[LNRSDTZ]?$/;
const MIN_ARTICLE_STEM = 3;

function articleStem(key: string): string {
  const stem = key.replace(ARTICLE_ENDING, '');
  return stem.length >= MIN_ARTICLE_STEM ? stem : key;
}

function sameArticleStem(a: NameWord, b: NameWord): boolean {
  const start = (text: string) => text.slice(0, MIN_ARTICLE_STEM);
  // Cheap test first: this runs for every pair of words that are not the same word.
  if (start(a.letters) === start(b.letters) && articleStem(a.letters) === articleStem(b.letters)) return true;
  return start(a.key) === start(b.key) && articleStem(a.key) === articleStem(b.key);
}

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
  if (sameArticleStem(expected, holder)) return 'joining';
  // A slip counts in the letters as written or in the spelling keys, whichever is closer: folding can move a
  // slipped letter ("NUJRANAH") away from the key of the word it slipped from.
  const shorter = Math.min(expected.letters.length, holder.letters.length);
  const within = (limit: number) =>
    boundedEditDistance(expected.letters, holder.letters, limit) <= limit || boundedEditDistance(expected.key, holder.key, limit) <= limit;
  if (shorter >= TYPO_MIN_LENGTH) {
    if (within(shorter >= TWO_TYPOS_MIN_LENGTH ? 2 : 1)) return 'typo';
  } else if (shorter >= NEAR_MIN_LENGTH && boundedEditDistance(expected.letters, holder.letters, 1) <= 1) {
    return 'near';
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
  return Math.min(boundedEditDistance(expected.letters, holder.letters, 2), boundedEditDistance(expected.key, holder.key, 2));
}

/**
 * One slip in a word of ten letters or more, away from its last two letters and not one vowel for another, is
 * read as the word: real names one letter apart are shorter (Marlina / Marliana, Indrawati / Indarwati,
 * Sugiarto / Sugianto), an ending is where a name turns male or female (Yulianto / Yulianti), and a vowel for a
 * vowel is how Javanese and Indonesian spell one root two ways (Susilawati / Susilowati).
 */
export function isSlipInLongWord(expected: NameWord, holder: NameWord): boolean {
  const a = expected.letters;
  const b = holder.letters;
  if (Math.min(a.length, b.length) < SLIP_MIN_LENGTH || a.slice(-SLIP_KEPT_ENDING) !== b.slice(-SLIP_KEPT_ENDING)) return false;
  if (a.length === b.length) {
    const changed = [...a].flatMap((letter, index) => (letter === b[index] ? [] : [index]));
    if (changed.length === 1 && VOWELS.test(a[changed[0]!]!) && VOWELS.test(b[changed[0]!]!)) return false;
  }
  return boundedEditDistance(a.slice(0, -SLIP_KEPT_ENDING), b.slice(0, -SLIP_KEPT_ENDING), 1) === 1;
}
