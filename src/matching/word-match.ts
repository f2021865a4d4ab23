// How two name words (or a run of words and one word) can stand for the same word, and how much that proves.
// The kinds are ordered by how much they prove.

import { boundedEditDistance } from './edit-distance.js';
import type { NameKnowledge } from './knowledge.js';
import { spelled, type NameWord } from './parse-name.js';
import { keysMeet } from './spelling.js';

export type LinkKind =
  | 'exact' // same letters
  | 'variant' // a spelling key in common: Soekarno / Sukarno, Rizky / Rizki, Muhammad / Mochamad
  | 'joined' // one word on one side, two to five on the other: Nuraini / Nur Aini, EKABUDISANTOSA
  | 'abbreviation' // M. / Muhammad, Abd. / Abdul, FX / Fransiskus Xaverius, Y. / Yohanes when the other name says so
  | 'cut' // the bank's last word is the start of the expected word (or words): SAPUT / SAPUTRA
  | 'joining' // one Arabic name with and without the article: Nur / Nurul, Syamsu / Syamsul
  | 'typo' // one letter off in a long word (two from ten letters): Setiwan / Setiawan
  | 'near' // one letter off in a short word, often another name: Putra / Putri, Dina / Dini
  | 'initial' // a letter (or a dotted stub) for a word: A / ADI, Kus. / Kusuma
  | 'nickname' // a listed short form: Ucup / Yusuf, Benny / Benediktus
  | 'short-form' // one word the start or end of the other, or sharing its first syllable: Anton / Antonius, Lia / Amelia
  | 'acronym'; // a word made of the other name's initials: BCK / Bumi Cahaya Kencana

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
  nickname: 0.45,
  'short-form': 0.4,
  acronym: 0.35,
};

/** Kinds that are as good as the word itself. */
export const FULL_WORD_KINDS: ReadonlySet<LinkKind> = new Set(['exact', 'variant', 'joined', 'abbreviation']);
/** Kinds that leave a doubt a person must settle (unless a rule reads one generously: a slip, an initial). */
export const WEAK_KINDS: ReadonlySet<LinkKind> = new Set(['joining', 'typo', 'near', 'nickname', 'short-form', 'acronym']);

// One letter off proves little in a short word (Budi / Bodi, Yoga / Yogi are different names), so typos are only
// read in words of six letters or more, two letters only from ten. In a shorter word one letter off is still
// worth a look ('near'): it may be a typo as well as a brother's or sister's name (Eko / Eka, Ari / Arif).
const TYPO_MIN_LENGTH = 6;
const TWO_TYPOS_MIN_LENGTH = 10;
const NEAR_MIN_LENGTH = 3;
const SHORT_FORM_MIN = 3;
/** A nickname is short: a word sharing only its first syllable with a longer one is one when it has at most this many letters. */
const NICKNAME_MAX_LENGTH = 6;

// The Arabic article "al" is joined to the word before it and takes the sound of the next consonant (Nurul,
// Nurun, Nurur; Syamsul or plain Syamsu), or is left out (Nur, Khoir): one name, written four ways.
const ARTICLE_ENDING = /U[LNRSDTZ]?$/;
const MIN_ARTICLE_STEM = 3;

function articleStem(key: string): string {
  const stem = key.replace(ARTICLE_ENDING, '');
  return stem.length >= MIN_ARTICLE_STEM ? stem : key;
}

function sameArticleStem(a: string, b: string): boolean {
  return a.slice(0, MIN_ARTICLE_STEM) === b.slice(0, MIN_ARTICLE_STEM) && a !== b && articleStem(a) === articleStem(b);
}

const HAS_DIGIT = /\d/;

/** An initial or a dotted stub on one side, a longer word starting with it on the other. */
function isInitialOf(short: NameWord, long: NameWord): boolean {
  if (!short.initial || long.letters.length <= short.letters.length) return false;
  if (short.letters.length === 1) return long.letters[0] === short.letters || long.keys.some((key) => key[0] === short.letters);
  return long.letters.startsWith(short.letters);
}

function isShortForm(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < SHORT_FORM_MIN || short.length === long.length) return false;
  if (long.startsWith(short) || long.endsWith(short)) return true;
  return short.length <= NICKNAME_MAX_LENGTH && short.slice(0, SHORT_FORM_MIN) === long.slice(0, SHORT_FORM_MIN);
}

export function linkWords(expected: NameWord, holder: NameWord, knowledge: NameKnowledge): LinkKind | null {
  if (expected.letters === holder.letters) return 'exact';
  // A word that stands around a name (I, Made, Gusti, al-) is its word, or not: never a slip, initial or short form of another.
  if (expected.kind !== 'name' || holder.kind !== 'name') return expected.reads === holder.reads ? 'variant' : null;
  const abbreviated = expected.reads !== expected.letters || holder.reads !== holder.letters;
  if (expected.reads === holder.reads || keysMeet(expected.keys, holder.keys)) return abbreviated ? 'abbreviation' : 'variant';
  if (readsAsAbbreviation(expected, holder, knowledge) || readsAsAbbreviation(holder, expected, knowledge)) return 'abbreviation';
  // A number (a school's, a unit's, a block's) names which one: another number is another one, never its initial, slip or short form.
  if (HAS_DIGIT.test(expected.letters) || HAS_DIGIT.test(holder.letters)) return null;
  if (isInitialOf(expected, holder) || isInitialOf(holder, expected)) return 'initial';
  if (expected.initial || holder.initial) return null;
  const a = expected.keys[0]!;
  const b = holder.keys[0]!;
  if (sameArticleStem(a, b)) return 'joining';
  const shorter = Math.min(expected.letters.length, holder.letters.length);
  const within = (limit: number) =>
    boundedEditDistance(expected.letters, holder.letters, limit) <= limit || boundedEditDistance(a, b, limit) <= limit;
  if (shorter >= TYPO_MIN_LENGTH) {
    if (within(shorter >= TWO_TYPOS_MIN_LENGTH ? 2 : 1)) return 'typo';
  } else if (shorter >= NEAR_MIN_LENGTH && within(1)) {
    return 'near';
  }
  if (knowledge.areNicknames(expected.keys, holder.keys)) return 'nickname';
  if (isShortForm(expected.letters, holder.letters) || isShortForm(a, b)) return 'short-form';
  return null;
}

/** "Y." for Yohanes, "Ma." for Maria: an abbreviation read as its word only when the other name writes that word. */
function readsAsAbbreviation(short: NameWord, long: NameWord, knowledge: NameKnowledge): boolean {
  const meaning = short.abbreviation;
  if (meaning === null || !meaning.needsOtherSide || meaning.means.length !== 1) return false;
  return keysMeet(knowledge.spelling.keys(meaning.means[0]!), long.keys);
}

/**
 * The bank's last word is the start of `full` (the bank form of the typed word, or of several run together), as
 * when the name was cut there: letter by letter, or by the spelling rules (SOEDJ from Sujatmiko). It shows fewer
 * letters than `full` has: a word longer than the typed one is another name (HARTAWANTO from Hartawan), never a cut.
 */
export function isCutOf(full: string, fullKeys: readonly string[], shown: NameWord, knowledge: NameKnowledge): boolean {
  const letters = shown.letters;
  if (letters.length >= full.length) return false;
  if (full.startsWith(letters)) return true;
  const startsTheWord = (start: string) => {
    const startKeys = knowledge.spelling.startKeys(start);
    return fullKeys.some((key) => startKeys.some((part) => part.length < key.length && key.startsWith(part)));
  };
  if (startsTheWord(letters)) return true;
  // A cut between the letters of an old two-letter spelling the bank kept (KOESO from KOESOEMO) leaves a letter
  // the rules read differently: the letters before it must spell the start of the word, and the word go on with
  // what that spelling is written as today (LUMBANT is no cut of LUMBANGAOL: no TJ, today C, continues it there).
  const today = letters.length < 2 ? [] : knowledge.spelling.todayForOldSpellingsOpenedBy(letters[letters.length - 1]!);
  if (today.length === 0) return false;
  const beforeKeys = knowledge.spelling.startKeys(letters.slice(0, -1));
  return fullKeys.some((key) =>
    beforeKeys.some((part) => key.startsWith(part) && today.some((letter) => letter !== '' && key.startsWith(letter, part.length))),
  );
}

/** Keys of a run of words written as one ("NUR AINI" as "NURAINI"). */
export function joinedKeys(words: readonly NameWord[], knowledge: NameKnowledge): string[] {
  const together = knowledge.spelling.keys(words.map(spelled).join(''));
  const fromKeys = words.map((word) => word.keys[0]!).join('');
  return together.includes(fromKeys) ? together : [...together, fromKeys];
}

const VOWELS = 'AEIOU';
/** Letters of a typed slip that make it a slip rather than another name (see isSlip). */
const SLIP_SWAP_MIN_LENGTH = 7;
const SLIP_MIN_LENGTH = 10;
const SLIP_KEPT_ENDING = 2;

/** A listed family name this long, typed with one slip, is that family name (a shorter one leaves too few letters to tell a slip from another name). */
const SURNAME_SLIP_MIN_LENGTH = 6;

const isConsonant = (letter: string | undefined) => letter !== undefined && !VOWELS.includes(letter);

/** Places where two consonants or two vowels stand together: Indonesian syllables are mostly consonant-vowel. */
function roughness(word: string): number {
  let count = 0;
  for (let at = 1; at < word.length; at += 1) if (isConsonant(word[at - 1]) === isConsonant(word[at])) count += 1;
  return count;
}

/**
 * Two letters swapped read as a slip only where the typed word stops looking like a name: a name ending in a vowel
 * typed with a consonant last (SUSANOT for SUSANTO, KRISNAMURIT), or letters that no longer alternate as names do
 * (SIMAMROA for SIMAMORA). A swap that keeps a plausible name (INDARWATI / INDRAWATI) may be another name.
 */
function swapLooksTyped(typed: string, bank: string, at: number): boolean {
  const end = typed.length - 1;
  if (at + 1 >= end - 1 && isConsonant(typed[end]) && !isConsonant(bank[end])) return true;
  return roughness(typed) > roughness(bank);
}

/**
 * One slip of the typist in a long word, as the labelling rules allow: two neighbouring letters swapped
 * (SUSANOT for SUSANTO) in a word of seven letters or more, where the swap leaves an unlikely name (swapLooksTyped); a letter dropped, added or replaced in a word of ten
 * or more away from its last two letters (where names turn male or female: Yulianto / Yulianti) and not one vowel
 * for another (Susilawati / Susilowati); or, from seven letters, a vowel dropped (or added) between two consonants,
 * which leaves a cluster Indonesian syllables do not have. Not when the typed word is itself a listed given name:
 * then the "slip" is another real name (Wahyudi / Wahyuni). Everything else one letter apart (a consonant for a
 * consonant, a letter dropped at a syllable's edge: Rusdi / Rudi, Desrianti / Desriani) is for a person to look at.
 */
/**
 * Two real, distinct names one letter apart (Wahyudi / Wahyuni, Hadi / Hari, Daniel / Daniela, Putra / Putri): both
 * listed given names, or a man's and a woman's form, one letter replaced, added or dropped. Not an a for an o
 * (Javanese Cahya / Cahyo: often the same name) and not one the start or end of the other (Yuli / Yulia: a short
 * form or a name extended), which are for a person to look at.
 */
export function areTwoNames(a: NameWord, b: NameWord, knowledge: NameKnowledge): boolean {
  const x = a.letters;
  const y = b.letters;
  if (x === y || Math.abs(x.length - y.length) > 1 || boundedEditDistance(x, y, 1) > 1) return false;
  if (x.startsWith(y) || y.startsWith(x) || x.endsWith(y) || y.endsWith(x)) return false;
  if (x.length === y.length) {
    const at = [...x].findIndex((letter, index) => letter !== y[index]);
    if ('AO'.includes(x[at]!) && 'AO'.includes(y[at]!)) return false;
  }
  if (knowledge.isGivenName(a.keys) && knowledge.isGivenName(b.keys)) return true;
  const genders = [knowledge.genderOf(x, a.keys), knowledge.genderOf(y, b.keys)];
  return genders[0] !== null && genders[1] !== null && genders[0] !== genders[1];
}

export function isSlip(typed: NameWord, bank: NameWord, knowledge: NameKnowledge): boolean {
  if (knowledge.isGivenName(typed.keys)) return false;
  // A family name is fixed: the bank shows a listed family name (SITOMPUL, SIMANJUNTAK) and the typed word, no
  // family name of the list itself, is it with one slip of any kind (SITOPMUL, SITONPUL, SIMANJUTNAK).
  const familyName = bank.surname !== null && typed.surname === null && bank.letters.length >= SURNAME_SLIP_MIN_LENGTH;
  if (familyName && boundedEditDistance(typed.letters, bank.letters, 1) <= 1) return true;
  const a = typed.letters;
  const b = bank.letters;
  if (a.length === b.length) {
    const changed = [...a].flatMap((letter, index) => (letter === b[index] ? [] : [index]));
    if (changed.length === 2 && changed[1] === changed[0]! + 1 && a[changed[0]!] === b[changed[1]!] && a[changed[1]!] === b[changed[0]!]) {
      // In a word of ten letters or more any swap is a slip (KRISNAMUTRI): a swap keeps the letters, so it cannot
      // turn a man's ending into a woman's, and two such long names a swap apart are not known.
      return a.length >= SLIP_SWAP_MIN_LENGTH && changed[0]! > 0 && (a.length >= SLIP_MIN_LENGTH || swapLooksTyped(a, b, changed[0]!));
    }
    if (changed.length !== 1 || a.length < SLIP_MIN_LENGTH) return false;
    const at = changed[0]!;
    return at < a.length - SLIP_KEPT_ENDING && !(VOWELS.includes(a[at]!) && VOWELS.includes(b[at]!));
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length - short.length !== 1) return false;
  let at = 0;
  while (at < short.length && short[at] === long[at]) at += 1;
  if (long.slice(at + 1) !== short.slice(at)) return false;
  // A vowel dropped between two consonants leaves a cluster no Indonesian name has (WIBSONO, HANDAYNI, WIDYANINGRM),
  // even next to the ending: a slip.
  const droppedVowel =
    at > 0 && at < long.length - 1 && VOWELS.includes(long[at]!) && isConsonant(long[at - 1]) && isConsonant(long[at + 1]);
  if (droppedVowel && long.length >= SLIP_SWAP_MIN_LENGTH) return true;
  return at < long.length - SLIP_KEPT_ENDING && long.length >= SLIP_MIN_LENGTH;
}
