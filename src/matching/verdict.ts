// Two read names to MATCH / CLOSE_MATCH / NO_MATCH, a score and the notes for the `reason` column, by the labelling
// rules of the names development set (test/matching/dev-set/README.upstream.md):
// - MATCH when every name word on both sides is accounted for (same letters, a spelling variant, joined or split,
//   a standard abbreviation) and nothing makes it another person; under the standard policy also a bank cut that
//   shows a distinctive word, an initial beside two full words, a middle name only in the holder name, a father's
//   name on one side only, a surname moved, one slip of the typist in a long word;
// - NO_MATCH when a word that identifies someone disagrees (another name, another birth-order name, only the
//   father's name in common, father and son swapped, "Ny." before a man's name: his wife);
// - CLOSE_MATCH for everything in between: a word missing or extra at the start or end, a one-word holder, one
//   letter off, a nickname, an initial beside one full word, a reshuffle, the gender marker swapped, two legal forms.
// Rules only ever lower the verdict, so their order changes the notes, never the verdict.

import { alignWords, keepsWordOrder, rotationOf, type WordLink } from './align.js';
import type { NameKnowledge } from './knowledge.js';
import { noteIgnoredWords, Outcome, plural, quote, quoteWords, type NameVerdict } from './notes.js';
import type { NameWord, ParsedName } from './parse-name.js';
import type { NameMatchPolicy } from './policy.js';
import { scoreInBand, similarity } from './scoring.js';
import { areTwoNames, FULL_WORD_KINDS, isSlip, WEAK_KINDS } from './word-match.js';

export type { NameVerdict } from './notes.js';

export interface NameComparison {
  verdict: NameVerdict;
  /** Integer 0-100: MATCH 90-100, CLOSE_MATCH 50-89, NO_MATCH 0-49. */
  score: number;
  /** Short notes for the `reason` column: why not MATCH first, then what was assumed, ignored or read generously. */
  notes: string[];
}

/** Core-banking name fields hold 20 to 50 characters (20-40 mostly); a cut just after a word shows one less. */
export const MIN_BANK_WIDTH = 19;
export const MAX_BANK_WIDTH = 50;
/** A holder cut just after a word reads as a bank cut only when it shows this many distinctive words. */
const MIN_DISTINCTIVE_BEFORE_WORD_CUT = 2;
/** An initial stands for its word only beside this many words matching in full. */
const MIN_FULL_WORDS_BESIDE_INITIAL = 2;

interface BankCut {
  shownLength: number;
  partial: WordLink | null;
  /** Expected name words after the cut, never shown. */
  hidden: number[];
  /** The holder name cannot end there (a partial word, or "AL", "BR" with the name they open missing): surely a cut. */
  evident: boolean;
}

/** Words that open the name word after them: a holder ending with one was cut. */
const OPENING_KINDS = new Set<NameWord['kind']>(['article', 'particle', 'marga-marker']);

const COMPARED_KINDS = new Set<NameWord['kind']>(['name', 'article', 'particle', 'birth-order', 'nobility', 'marga-marker']);

/** The facts every rule looks at. */
interface Pairing {
  expected: ParsedName;
  holder: ParsedName;
  E: NameWord[];
  H: NameWord[];
  links: WordLink[];
  linkOfE: Map<number, WordLink>;
  linkOfH: Map<number, WordLink>;
  cut: BankCut | null;
  /** Expected name words without a partner, not counting those hidden by a cut. */
  missing: number[];
  /** Holder name words without a partner, not counting a mononym the bank repeated (TUKIYEM TUKIYEM). */
  extra: number[];
  /** The Arabic article written on one side only ("Al Fatih" / FATIH). */
  articlesAlone: NameWord[];
  /** A one-word name the bank wrote twice (TUKIYEM TUKIYEM): the second time. */
  repeated: NameWord[];
  /** Title letters written on both sides (keptTitleLetters): no name word. */
  keptTitleLetters: Set<WordLink>;
  knowledge: NameKnowledge;
}

const words = (indices: readonly number[], list: readonly NameWord[]) => indices.map((index) => list[index]!);
const lettersAt = (indices: readonly number[], list: readonly NameWord[]) =>
  words(indices, list)
    .map((word) => word.letters)
    .join(' ');
const ownCache = new WeakMap<readonly NameWord[], number[]>();
/** Positions of the person's own name words (not the father's, not the words around a name). */
const own = (list: readonly NameWord[]): number[] => {
  let found = ownCache.get(list);
  if (found === undefined) {
    found = [];
    list.forEach((word, index) => {
      if (word.part === 'own' && word.kind === 'name') found!.push(index);
    });
    ownCache.set(list, found);
  }
  return found;
};

/** A lone letter that is also a title or noble title before a name (H. Haji, R. Raden, A. Andi, T. Teuku, L. Lalu). */
const isTitleLetter = (letters: string, knowledge: NameKnowledge): boolean =>
  letters.length === 1 && (knowledge.titles.get(letters) !== undefined || knowledge.nobility.get(letters) !== undefined);

/**
 * The same title letter first on both sides and lined up with itself (H. Ahmad Yani / H HASAN AHMAD YANI): read as
 * a name word, it would make the holder's HASAN a middle name; read as the title it most often is, it names nobody,
 * and the name starts after it. Those links, from the start of both names.
 */
function keptTitleLetters(p: Pairing): Set<WordLink> {
  const kept = new Set<WordLink>();
  const ownE = own(p.E);
  const ownH = own(p.H);
  for (let k = 0; k < Math.min(ownE.length, ownH.length); k += 1) {
    const e = p.E[ownE[k]!]!;
    const h = p.H[ownH[k]!]!;
    const link = p.linkOfE.get(ownE[k]!);
    if (link === undefined || link !== p.linkOfH.get(ownH[k]!) || link.expected.length !== 1 || link.holder.length !== 1) break;
    if (e.letters !== h.letters || !isTitleLetter(e.letters, p.knowledge)) break;
    kept.add(link);
  }
  return kept;
}

/** The own name words, less a title letter kept on both sides (keptTitleLetters). */
function named(p: Pairing, side: 'E' | 'H'): number[] {
  const kept = p.keptTitleLetters;
  const list = side === 'E' ? p.E : p.H;
  const links = side === 'E' ? p.linkOfE : p.linkOfH;
  return own(list).filter((index) => !kept.has(links.get(index)!));
}

/** A reading that leans on the other name (a one-letter title, "PT" as Putu, an undotted degree) holds only if it does. */
function supported(name: ParsedName, other: ParsedName): boolean {
  return name.words.every(
    (word) =>
      word.needsOtherSide === null ||
      other.words.some(
        (candidate) => candidate.reads === word.needsOtherSide || candidate.letters.replace(/ /g, '') === word.needsOtherSide,
      ),
  );
}

function findBankCut(
  holder: ParsedName,
  E: readonly NameWord[],
  H: readonly NameWord[],
  links: readonly WordLink[],
  linkOfE: ReadonlyMap<number, WordLink>,
  linkOfH: ReadonlyMap<number, WordLink>,
): BankCut | null {
  if (holder.visibleLength < MIN_BANK_WIDTH || holder.visibleLength > MAX_BANK_WIDTH) return null;
  const last = linkOfH.get(H.length - 1);
  if (last === undefined || !H.every((word, index) => linkOfH.has(index) || word.kind === 'article') || !keepsWordOrder(links)) return null;
  const cutAt = Math.max(...last.expected);
  const skipped = E.some((word, index) => index < cutAt && !linkOfE.has(index) && word.kind === 'name');
  const hidden = E.map((_, index) => index).filter((index) => index > cutAt && E[index]!.kind === 'name');
  if (skipped || (hidden.length === 0 && last.kind !== 'cut')) return null;
  // A last word read as a spelling of its typed word (HASANA / Hasanah, a final h dropped) that is also its
  // start, with words after it: the bank cut inside it.
  const shown = H[H.length - 1]!;
  const cutInside =
    last.kind === 'cut' ||
    (hidden.length > 0 &&
      last.kind !== 'exact' &&
      last.holder.length === 1 &&
      isStartOf(shown.letters, last.expected.map((index) => E[index]!.letters).join('')));
  return {
    shownLength: holder.visibleLength,
    partial: cutInside ? last : null,
    hidden,
    evident: cutInside || OPENING_KINDS.has(shown.kind) || OPENING_KINDS.has(E[cutAt]!.kind),
  };
}

const isStartOf = (start: string, word: string) => start.length < word.length && word.startsWith(start);

function pairNames(expected: ParsedName, holder: ParsedName, knowledge: NameKnowledge): Pairing {
  // Words that stand around a name go with the name words, so that a name written without spaces still lines up
  // ("AL FATIH" / ALFATIH, "I WAYAN SUKERTA" / IWAYANSUKERTA); unlike name words they may be left out (their own
  // rules compare them: birth order, gender, titles).
  const compared = (word: NameWord) => COMPARED_KINDS.has(word.kind);
  const E = expected.words.filter(compared);
  const H = holder.words.filter(compared);
  const links = alignWords(E, H, holder.visibleLength > 0, knowledge);
  const linkOfE = new Map<number, WordLink>();
  const linkOfH = new Map<number, WordLink>();
  for (const link of links) {
    for (const index of link.expected) linkOfE.set(index, link);
    for (const index of link.holder) linkOfH.set(index, link);
  }
  const unlinked = E.some((_, index) => !linkOfE.has(index)) && H.some((_, index) => !linkOfH.has(index));
  for (const link of unlinked ? acronyms(expected, holder, E, H, linkOfE, linkOfH) : []) {
    links.push(link);
    for (const index of link.expected) linkOfE.set(index, link);
    for (const index of link.holder) linkOfH.set(index, link);
  }
  const cut = findBankCut(holder, E, H, links, linkOfE, linkOfH);
  const missing: number[] = [];
  const extra: number[] = [];
  const articlesAlone: NameWord[] = [];
  E.forEach((word, index) => {
    if (linkOfE.has(index) || cut?.hidden.includes(index)) return;
    if (word.kind === 'name') missing.push(index);
    else if (word.kind === 'article') articlesAlone.push(word);
  });
  const repeated: NameWord[] = [];
  const mononym = E.filter((word) => word.kind === 'name' && word.part === 'own').length === 1;
  H.forEach((word, index) => {
    if (linkOfH.has(index)) return;
    // A one-word name the bank repeats (TUKIYEM TUKIYEM) adds nothing.
    if (word.kind === 'name' && mononym && H.some((other, at) => at !== index && linkOfH.has(at) && other.letters === word.letters))
      repeated.push(word);
    else if (word.kind === 'name') extra.push(index);
    else if (word.kind === 'article') articlesAlone.push(word);
  });
  const pairing = { expected, holder, E, H, links, linkOfE, linkOfH, cut, missing, extra, articlesAlone, repeated, knowledge };
  const withoutKept = { ...pairing, keptTitleLetters: new Set<WordLink>() };
  return { ...pairing, keptTitleLetters: keptTitleLetters(withoutKept) };
}

const MAX_ACRONYM = 5;

/**
 * A word left over on one side that is the initials of a run of words on the other, legal forms included (YPI for
 * Yayasan Pendidikan Islam, PT BCK for Bumi Cahaya Kencana): a name reduced to an acronym, for a person to look at.
 */
function acronyms(
  expected: ParsedName,
  holder: ParsedName,
  E: NameWord[],
  H: NameWord[],
  linkOfE: Map<number, WordLink>,
  linkOfH: Map<number, WordLink>,
): WordLink[] {
  const found: WordLink[] = [];
  const scan = (
    short: NameWord[],
    shortLinked: Map<number, WordLink>,
    long: ParsedName,
    longNames: NameWord[],
    longLinked: Map<number, WordLink>,
    emit: (word: number, run: number[]) => void,
  ) => {
    let all: NameWord[] | null = null;
    short.forEach((word, index) => {
      const letters = word.letters;
      if (shortLinked.has(index) || letters.length < 2 || letters.length > MAX_ACRONYM || word.kind !== 'name') return;
      all ??= long.words.filter((other) => other.kind !== 'title' && other.kind !== 'degree' && other.kind !== 'rank');
      for (let start = 0; start + letters.length <= all.length; start += 1) {
        const run = all.slice(start, start + letters.length);
        if (!run.every((other, offset) => other.letters[0] === letters[offset])) continue;
        const names = run.map((other) => longNames.indexOf(other)).filter((at) => at >= 0 && !longLinked.has(at));
        if (names.length > 0) {
          emit(index, names);
          return;
        }
      }
    });
  };
  scan(H, linkOfH, expected, E, linkOfE, (word, run) => found.push({ expected: run, holder: [word], kind: 'acronym', quality: 0.35 }));
  scan(E, linkOfE, holder, H, linkOfH, (word, run) => found.push({ expected: [word], holder: run, kind: 'acronym', quality: 0.35 }));
  return found.filter(
    (link, index) =>
      !found
        .slice(0, index)
        .some((other) => other.expected.some((at) => link.expected.includes(at)) || other.holder.some((at) => link.holder.includes(at))),
  );
}

// --- the rules ----------------------------------------------------------------------------------------------

function nothingInCommon(p: Pairing, outcome: Outcome): void {
  if (p.links.length === 0) outcome.limit('NO_MATCH', 'no name word in common');
}

/** A name word on each side that the other lacks: Rizky / Fauzi, Sembiring / Sinulingga, bin Jamal / bin Jamil. */
function conflictingWords(p: Pairing, outcome: Outcome): void {
  if (p.missing.length === 0 || p.extra.length === 0) return;
  const ours = words(p.missing, p.E);
  const theirs = words(p.extra, p.H);
  const fathers = ours.every((word) => word.part === 'father') && theirs.every((word) => word.part === 'father');
  const what = fathers ? "father's name " : 'word ';
  for (let k = 0; k < Math.min(2, ours.length, theirs.length); k += 1) {
    outcome.limit('NO_MATCH', `${what}${quote(theirs[k]!.letters)} does not match ${quote(ours[k]!.letters)}`);
  }
}

/** "Rusdi bin Ahmad Dahlan" shares only his father's name with AHMAD DAHLAN; YAHYA BIN HASBULLAH is the other way round. */
function fatherNames(p: Pairing, outcome: Outcome): void {
  const { E, H, links } = p;
  if (links.length === 0) return;
  const onlyFather = (side: readonly NameWord[], pick: (link: WordLink) => number[]) =>
    side.some((word) => word.part === 'father') && links.every((link) => words(pick(link), side).every((word) => word.part === 'father'));
  if (onlyFather(E, (link) => link.expected) || onlyFather(H, (link) => link.holder)) {
    outcome.limit('NO_MATCH', `only the father's name ${quote(links.map((link) => lettersAt(link.expected, E)).join(' '))} matches`);
    return;
  }
  const bothHaveFathers = E.some((word) => word.part === 'father') && H.some((word) => word.part === 'father');
  const swapped = links.some((link) => E[link.expected[0]!]!.part !== H[link.holder[0]!]!.part);
  if (!swapped) return;
  if (bothHaveFathers) {
    outcome.limit('NO_MATCH', "given name and father's name are swapped");
  } else if (keepsWordOrder(links) && p.missing.length === 0 && p.extra.length === 0) {
    // "AHMAD ABDULLAH" for Ahmad bin Abdullah: the same words in the same order, only "bin" left out.
    outcome.note(`${E.some((word) => word.part === 'father') ? 'holder' : 'expected'} name writes the father's name without bin/binti`);
  } else {
    outcome.limit('CLOSE_MATCH', "a word is the father's name on one side only: check who is the father");
  }
}

/**
 * Words on one side only. A father's name (after bin/binti) on one side only, the person's own name complete, is the
 * same person; a middle name only in the holder name, first and last agreeing, too (the bank holds the full name).
 * Anything else (a first or last word, a middle word only in the file, a one-word name) may be another member of the
 * family: a person looks.
 */
function oneSidedWords(p: Pairing, outcome: Outcome): void {
  if (p.missing.length > 0 && p.extra.length > 0) return;
  const missing = words(p.missing, p.E);
  const extra = words(p.extra, p.H);
  const ownE = named(p, 'E');
  const ownH = named(p, 'H');
  // A one-word own name that identifies nobody (Muhammad, Siti, Nur) is no complete name for a father's name to follow.
  const ownWords = [...words(ownE, p.E), ...words(ownH, p.H)];
  const everydayMononym = (ownE.length === 1 || ownH.length === 1) && ownWords.length > 0 && ownWords.every((word) => word.everyday);
  const fatherOnlyHere = (fathers: readonly NameWord[], where: string) => {
    const father = quote(fathers.map((word) => word.letters).join(' '));
    outcome.limit('CLOSE_MATCH', `one-word name ${quote(ownWords[0]!.letters)} identifies nobody: the father's name ${father} ${where}`);
  };
  if (missing.length > 0) {
    if (missing.every((word) => word.part === 'father') && everydayMononym) {
      fatherOnlyHere(missing, 'only in the expected name');
    } else if (missing.every((word) => word.part === 'father')) {
      outcome.acceptUnlessStrict(`father's name ${quote(missing.map((word) => word.letters).join(' '))} not in holder name`);
    } else if (ownH.length === 1 && ownE.length > 1) {
      outcome.limit('CLOSE_MATCH', `holder name is only ${quote(p.H[ownH[0]!]!.letters)}, one word of the expected name`);
    } else {
      outcome.limit('CLOSE_MATCH', `${quoteWords(missing.filter((word) => word.part === 'own'))} missing from holder name`);
    }
  }
  if (extra.length > 0) {
    if (extra.every((word) => word.part === 'father') && everydayMononym) {
      fatherOnlyHere(extra, 'only in the holder name');
    } else if (extra.every((word) => word.part === 'father')) {
      outcome.acceptUnlessStrict(`holder name adds the father's name ${quote(extra.map((word) => word.letters).join(' '))}`);
    } else if (ownE.length === 1) {
      outcome.limit('CLOSE_MATCH', `holder name has more words than the one-word expected name: ${quoteWords(extra)}`);
    } else if (isMiddleOnly(p) && extra.length === 1) {
      outcome.acceptUnlessStrict(`middle name ${quoteWords(extra)} only in holder name`);
    } else if (isMiddleOnly(p)) {
      // The rules' same person has a middle name the file leaves out; several are as likely another person's name
      // between the two (AHMAD BUDI SANTOSO YUSUF for Ahmad Yusuf), or words that are no name at all.
      outcome.limit('CLOSE_MATCH', `middle names ${quoteWords(extra)} only in holder name: more than the one a file leaves out`);
    } else {
      const kept = [...p.keptTitleLetters].map((link) => quote(lettersAt(link.holder, p.H)));
      const title = kept.length === 0 ? '' : ` after ${kept.join(' ')}, a title on both sides`;
      outcome.limit('CLOSE_MATCH', `holder name has extra ${plural(extra.length, 'word')} ${quoteWords(extra)}${title}`);
    }
  }
}

/** Every extra holder word stands between the holder words of the expected first and last names, both in full. */
function isMiddleOnly(p: Pairing): boolean {
  const ownE = named(p, 'E');
  const first = p.linkOfE.get(ownE[0]!);
  const last = p.linkOfE.get(ownE[ownE.length - 1]!);
  if (first === undefined || last === undefined || first === last) return false;
  if (!FULL_WORD_KINDS.has(first.kind) || !FULL_WORD_KINDS.has(last.kind)) return false;
  const from = Math.max(...first.holder);
  const to = Math.min(...last.holder);
  return p.extra.every((index) => p.H[index]!.part === 'own' && index > from && index < to);
}

/** Weak pairings lower to CLOSE_MATCH; one slip of the typist in a long word is read as that word. */
function pairQuality(p: Pairing, outcome: Outcome): void {
  const { E, H, links, knowledge } = p;
  const weak = links.filter((link) => WEAK_KINDS.has(link.kind) || (link.kind === 'cut' && link !== p.cut?.partial));
  const restInFull = (link: WordLink) => links.some((other) => other !== link && FULL_WORD_KINDS.has(other.kind));
  for (const link of links) {
    const e = lettersAt(link.expected, E);
    const h = lettersAt(link.holder, H);
    // Words around a name (WYN / WAYAN) are noted by their own rules.
    if ([...words(link.expected, E), ...words(link.holder, H)].every((word) => word.kind !== 'name')) continue;
    switch (link.kind) {
      case 'typo':
      case 'near': {
        const typed = E[link.expected[0]!]!;
        const bank = H[link.holder[0]!]!;
        if (areTwoNames(typed, bank, knowledge)) {
          outcome.limit('NO_MATCH', `${quote(h)} and ${quote(e)} are two names one letter apart`);
        } else if (link.kind === 'near') {
          outcome.limit('CLOSE_MATCH', `one letter differs in a short word: ${quote(h)} vs ${quote(e)}, which may be another name`);
        } else if (weak.length === 1 && restInFull(link) && !bank.everyday && isSlip(typed, bank, knowledge)) {
          outcome.acceptUnlessStrict(`one slip in a long word: ${quote(e)} read as ${quote(h)}`);
        } else {
          outcome.limit('CLOSE_MATCH', `${quote(h)} and ${quote(e)} differ by a letter or two: a slip or another name`);
        }
        break;
      }
      case 'joining':
        outcome.limit('CLOSE_MATCH', `${quote(h)} vs ${quote(e)}: one Arabic name with and without the article, or two names`);
        break;
      case 'nickname':
      case 'short-form': {
        const [short, long] = e.length <= h.length ? [e, h] : [h, e];
        outcome.limit('CLOSE_MATCH', `${quote(short)} may be a short form of ${quote(long)}, or another name`);
        break;
      }
      case 'acronym':
        outcome.limit(
          'CLOSE_MATCH',
          `${quote(link.expected.length > 1 ? h : e)} may be the initials of ${quote(link.expected.length > 1 ? e : h)}`,
        );
        break;
      case 'cut':
        if (link !== p.cut?.partial) outcome.limit('CLOSE_MATCH', `${quote(h)} is only the start of ${quote(e)}`);
        break;
      case 'variant':
        outcome.note(`spelling variant ${quote(h)} = ${quote(e)}`);
        break;
      case 'abbreviation': {
        const [short, long] = e.length < h.length ? [e, h] : [h, e];
        outcome.note(`${quote(short)} read as ${quote(long)}`);
        break;
      }
      case 'joined':
        outcome.note(`${quote(e)} written as ${quote(h)}`);
        break;
      default:
        break;
    }
  }
}

/**
 * What a lone first letter stands for when it is not an initial, where that reading is the usual one: a title the
 * reader takes without the other name's support (H. Haji) or a name abbreviation that is (M. Muhammad). Letters
 * whose other reading the reader takes only when the other name writes it out (R. Raden, A. Andi, T. Teuku, L. Lalu,
 * Y. Yohanes) are, first in a name, far more often a given name's initial (A. Abdul or Ahmad, R. Rudi, T. Tri, Y.
 * Yudi): an initial there (A. Rahman Hakim / ABDUL RAHMAN HAKIM). Their title reading still counts when both names
 * keep the letter (keptTitleLetters).
 */
function conventionalReading(letter: string, knowledge: NameKnowledge): { means: string; word: string | null } | null {
  const title = knowledge.titles.get(letter);
  if (title !== undefined) return { means: title.means, word: null };
  const abbreviation = knowledge.abbreviations.get(letter);
  if (abbreviation !== undefined && !abbreviation.needsOtherSide && abbreviation.means.length === 1)
    return { means: abbreviation.means[0]!.charAt(0) + abbreviation.means[0]!.slice(1).toLowerCase(), word: abbreviation.means[0]! };
  return null;
}

/**
 * An initial stands for its word beside two words matching in full, as a first or middle name ("J EKO PRABOWO").
 * Not a first initial whose letter is usually a title or a name abbreviation (H. Haji, M. Muhammad): read so, the
 * name without it is the rest ("H. Ahmad Yani" is Ahmad Yani), and the other side's first word is a given name in
 * front of it, a son carrying his father's name, say. Nothing but the letter supports that word.
 */
function initials(p: Pairing, outcome: Outcome): void {
  const { E, H, links } = p;
  const found = links.filter((link) => link.kind === 'initial');
  if (found.length === 0) return;
  const full = links.filter((link) => FULL_WORD_KINDS.has(link.kind)).length;
  for (const link of found) {
    const e = E[link.expected[0]!]!;
    const h = H[link.holder[0]!]!;
    const [short, long, side] = e.initial && e.letters.length < h.letters.length ? [e, h, E] : [h, e, H];
    const ownSide = named(p, side === E ? 'E' : 'H');
    const last = short === side[ownSide[ownSide.length - 1]!];
    const first = short === side[ownSide[0]!];
    const conventional = first && short.letters.length === 1 ? conventionalReading(short.letters, p.knowledge) : null;
    // The letter's title written out as a word of the other name (H / HAJI in a shop's name, "Toko Haji Ahmad
    // Dahlan"): the same word, a title on one side and a word of a business name on the other.
    const writtenOut = conventional !== null && p.knowledge.titles.get(long.letters)?.means === conventional.means;
    if (writtenOut) {
      outcome.limit(
        'CLOSE_MATCH',
        `${quote(short.letters)} and ${quote(long.letters)} are the same title, ${conventional.means}: a word of the name on one side only`,
      );
    } else if (conventional !== null) {
      outcome.limit(
        'CLOSE_MATCH',
        `initial ${quote(short.letters)} may stand for ${quote(long.letters)}, or for ${conventional.means}: then ${quote(long.letters)} is a word on one side only`,
      );
    } else if (found.length === 1 && full >= MIN_FULL_WORDS_BESIDE_INITIAL && !last) {
      outcome.acceptUnlessStrict(`initial ${quote(short.letters)} read as ${quote(long.letters)}`);
    } else {
      outcome.limit('CLOSE_MATCH', `initial ${quote(short.letters)} may or may not stand for ${quote(long.letters)}`);
    }
  }
}

/**
 * A one-letter word first on file read as a title or noble title (H. Haji, R. Raden, A. Andi, T. Teuku, L. Lalu) beside
 * one name word in full ("H. Abdullah", "R. Hartono"): the letter may as well be the initial of a given name the
 * holder name lacks, and one word in full is not enough to say which (the dev set's rules: initials where only one
 * full word agrees, "H. Wiratmaja, where H. may be Haji", are for a person). Unless the holder writes the letter
 * too (H WIRATMAJA). On the holder side the letter is the bank's abbreviation of the title (ANDI for A).
 */
function titleLetterOnFile(p: Pairing, outcome: Outcome): void {
  // First in the name: after another title ("Drs. H. Asep") the letter is one of a run of titles.
  const letter = p.expected.words[0];
  if (letter === undefined || (letter.kind !== 'title' && letter.kind !== 'nobility') || !/^[A-Z]$/.test(letter.letters)) return;
  if (p.holder.words.some((word) => word.letters === letter.letters)) return;
  const inFull = p.expected.words.filter((word) => word.kind === 'name' && word.part === 'own' && !word.initial);
  if (inFull.length !== 1) return;
  outcome.limit(
    'CLOSE_MATCH',
    `${quote(letter.display)} may be the initial of a given name as well as ${letter.reads}, and only ${quote(inFull[0]!.letters)} is written in full: a person looks`,
  );
}

/** A family name moved to the front or back is the same name; given names swapped may be father and son. */
function wordOrder(p: Pairing, outcome: Outcome): void {
  const ownLinks = p.links.filter((link) => p.E[link.expected[0]!]!.part === 'own' && p.H[link.holder[0]!]!.part === 'own');
  if (keepsWordOrder(ownLinks)) return;
  const blocks = rotationOf(ownLinks);
  // A family name on either side: "Lumban Tobing" is one, written LUMBANTOBING.
  const isSurname = (index: number) => {
    if (p.E[index]!.surname !== null) return true;
    const link = ownLinks.find((candidate) => candidate.expected.includes(index));
    return link?.holder.every((j) => p.H[j]!.surname !== null) ?? false;
  };
  const movable = (block: number[]) => block.every(isSurname);
  if (blocks !== null && (p.expected.surnameFirst || p.holder.surnameFirst || blocks.some(movable))) {
    outcome.note('family name moved to the other end');
  } else {
    outcome.limit(
      'CLOSE_MATCH',
      p.expected.company || p.holder.company ? 'name words in another order' : 'words in another order: may be father and son',
    );
  }
}

/**
 * The bank keeps the first 20-50 characters of a name: the holder name is then the start of the expected name. It
 * is the same person when nothing shown disagrees and a distinctive word is shown in full; a cut showing only
 * titles, Muhammad, Siti or organisation words is for a person to look at.
 */
function bankCut(p: Pairing, outcome: Outcome): void {
  const { cut, E, H, links } = p;
  if (cut === null) return;
  // Words shown in full: those of full links, and those a cut run-together word shows before the cut one.
  const full = links.filter((link) => link !== cut.partial && FULL_WORD_KINDS.has(link.kind));
  const shownInFull = [
    ...full.flatMap((link) => words(link.expected, E)),
    ...(cut.partial === null ? [] : words(cut.partial.expected.slice(0, -1), E)),
  ];
  const everyShownWordAgrees = links.every((link) => link === cut.partial || FULL_WORD_KINDS.has(link.kind) || link.kind === 'initial');
  const distinctive = shownInFull.filter((word) => word.kind === 'name' && !word.everyday && !word.initial).length;
  const hidden = cut.hidden.length > 0 ? `${quoteWords(words(cut.hidden, E))} not shown` : '';
  const partial =
    cut.partial === null
      ? ''
      : `${quote(lettersAt(cut.partial.holder, H))} read as the start of ${quote(lettersAt(cut.partial.expected, E))}`;
  const what = [partial, hidden].filter(Boolean).join(', ');
  if (!everyShownWordAgrees) {
    outcome.limit('CLOSE_MATCH', `holder name cut at ${cut.shownLength} characters, but a shown word does not agree: ${what}`);
  } else if (!cut.evident && !(p.knowledge.wordCutLengths.has(cut.shownLength) && distinctive >= MIN_DISTINCTIVE_BEFORE_WORD_CUT)) {
    // A cut just after a word is also what a missing last word looks like: only a holder as long as a bank field
    // less its dropped blank, showing two distinctive words, reads as a cut.
    outcome.limit('CLOSE_MATCH', `${hidden} at the end of the holder name (${cut.shownLength} characters): a word missing, or a bank cut`);
  } else if (distinctive > 0) {
    outcome.acceptUnlessStrict(`holder name cut at ${cut.shownLength} characters: ${what}`);
  } else {
    outcome.limit('CLOSE_MATCH', `holder name cut at ${cut.shownLength} characters shows no distinctive word in full: ${what}`);
  }
}

const typed = (name: ParsedName, kind: NameWord['kind']) => name.words.filter((word) => word.kind === kind);

/** "Ny." before a man's name is his wife; before a woman's own name it is her title. */
function wifeOf(p: Pairing, outcome: Outcome): void {
  const sides: Array<[ParsedName, ParsedName, string]> = [
    [p.expected, p.holder, 'expected'],
    [p.holder, p.expected, 'holder'],
  ];
  for (const [name, other, side] of sides) {
    const title = name.words.find((word) => word.wifeOf) ?? name.words.find((word) => word.wifeOfByAddress);
    if (title === undefined || other.words.some((word) => word.wifeOf || word.wifeOfByAddress)) continue;
    const given = name.words.filter((word) => word.kind === 'name' && word.part === 'own' && !word.everyday);
    const first = given[0] ?? name.words.find((word) => word.kind === 'name');
    if (first === undefined) continue;
    const byName = genderAfterTitle(given, p.knowledge);
    // A woman's own title beside Ny. (Ny. Hj. Rukmini, Ny. Dra. ...) says whose name it is when the name does not.
    const herTitle =
      byName === null ? name.words.find((word) => word.kind === 'title' && !word.wifeOf && word.gender === 'female') : undefined;
    const gender = herTitle === undefined ? byName : 'female';
    // Only a listed man's name says NO_MATCH; a man's ending (Wagiman) says "probably": a person looks.
    const listedMale = gender === 'male' && p.knowledge.isGivenName(first.keys);
    if (!title.wifeOf) {
      // Ibu, Bu: a courtesy word before her own name or one that does not say, the wife by address before a man's.
      if (gender === 'male')
        outcome.limit(
          'CLOSE_MATCH',
          `${quote(title.letters)} (a woman's form of address) before ${quote(first.letters)}, a man's name, in the ${side} name: probably the wife of ${quote(first.letters)}`,
        );
      continue;
    }
    if (herTitle !== undefined)
      outcome.note(`${quote(title.letters)} read as the woman's own title (beside her title ${quote(herTitle.letters)})`);
    else if (gender === 'female')
      outcome.note(`${quote(title.letters)} read as the woman's own title (${quote(first.letters)} is a woman's name)`);
    else if (listedMale)
      outcome.limit(
        'NO_MATCH',
        `${quote(title.letters)} before a man's name in the ${side} name: read as the wife of ${quote(first.letters)}`,
      );
    else if (gender === 'male')
      outcome.limit(
        'CLOSE_MATCH',
        `${quote(title.letters)} before ${quote(first.letters)}, a man's name by its ending, in the ${side} name: probably the wife of ${quote(first.letters)}`,
      );
    else
      outcome.limit(
        'CLOSE_MATCH',
        `${quote(title.letters)} before ${quote(first.letters)} in the ${side} name: her own name, or the wife of ${quote(first.letters)}`,
      );
  }
}

/**
 * Whose name follows Ny.: the first given name says (Sri, Siti, Nur and the like are skipped); when it is not known,
 * a woman's name after it says a woman (Ny. Reni Wijayanti), a man's name says nothing (Reni Hartanto: her
 * father's or husband's family name).
 */
function genderAfterTitle(given: readonly NameWord[], knowledge: NameKnowledge): 'male' | 'female' | null {
  const first = given[0];
  if (first === undefined) return null;
  const known = knowledge.genderOf(first.reads, first.keys);
  if (known !== null) return known;
  return given.slice(1).some((word) => knowledge.genderOf(word.reads, word.keys) === 'female') ? 'female' : null;
}

const GENDER_MARKING_KINDS = new Set<NameWord['kind']>(['particle', 'nobility', 'patronymic', 'marga-marker']);

function genderOfName(name: ParsedName): { gender: NameWord['gender']; word: NameWord } | null {
  const marker = name.words.find((word) => GENDER_MARKING_KINDS.has(word.kind) && word.gender !== null);
  return marker === undefined ? null : { gender: marker.gender, word: marker };
}

/** I/Ni, La/Wa, Ida Bagus/Ida Ayu swapped with the name the same: a brother or sister, or a typing error. */
function genderMarkers(p: Pairing, outcome: Outcome): void {
  const ours = genderOfName(p.expected);
  const theirs = genderOfName(p.holder);
  if (ours === null || theirs === null || ours.gender === theirs.gender) return;
  outcome.limit(
    'CLOSE_MATCH',
    `${quote(theirs.word.letters)} (a ${theirs.gender === 'male' ? 'man' : 'woman'}) in the holder name, ${quote(ours.word.letters)} (a ${ours.gender === 'male' ? 'man' : 'woman'}) in the expected name`,
  );
}

/** Balinese birth-order names: the same position written two ways may be the same person or a sibling; two positions are two siblings. */
function birthOrder(p: Pairing, outcome: Outcome): void {
  const ours = typed(p.expected, 'birth-order');
  const theirs = typed(p.holder, 'birth-order');
  for (const word of [...ours, ...theirs]) if (word.assumption !== null) outcome.note(word.assumption);
  if (ours.length === 0 || theirs.length === 0) {
    // Written into a name word of the other side ("IWAYANSUKERTA"): it is on both sides.
    const linked = (word: NameWord) => p.linkOfE.has(p.E.indexOf(word)) || p.linkOfH.has(p.H.indexOf(word));
    const present = (ours.length > 0 ? ours : theirs).filter((word) => !linked(word));
    const fullLinks = p.links.filter((link) => FULL_WORD_KINDS.has(link.kind)).length;
    if (present.length > 0 && fullLinks < 2)
      outcome.limit('CLOSE_MATCH', `birth-order name ${quoteWords(present)} on one side only, and only one other word to go by`);
    return;
  }
  // A word in common settles it ("Anak Agung Gede Made Oka" / AA MD OKA: Gede is part of the title there).
  if (ours.some((word) => theirs.some((other) => other.reads === word.reads))) return;
  const a = ours[0]!;
  const b = theirs[0]!;
  if (a.birthOrder === b.birthOrder) {
    outcome.limit(
      'CLOSE_MATCH',
      `${quote(b.letters)} and ${quote(a.letters)} both name a child born ${ordinal(a.birthOrder!)}: the same person or a sibling`,
    );
  } else {
    outcome.limit(
      'NO_MATCH',
      `${quote(b.letters)} (born ${ordinal(b.birthOrder!)}) vs ${quote(a.letters)} (born ${ordinal(a.birthOrder!)}): siblings`,
    );
  }
}

const ordinal = (position: number) => ['first', 'second', 'third', 'fourth'][position - 1] ?? `${position}th`;

const BALINESE_CASTE = 'balinese-caste';

/** Noble and caste titles: dropped at will, but two different ones, or Andi or Habib (also given names) on one side, need a look. */
function nobility(p: Pairing, outcome: Outcome): void {
  const ours = typed(p.expected, 'nobility');
  const theirs = typed(p.holder, 'nobility');
  for (const word of [...ours, ...theirs]) if (word.assumption !== null) outcome.note(word.assumption);
  // A Balinese caste title before a birth-order name (I Dewa Made Sukadana) is the title: a given name comes after it.
  const casteBeforeOrder = (name: ParsedName, index: number) =>
    name.words[index + 1]?.kind === 'birth-order' &&
    p.knowledge.nobility.get(name.words[index]!.letters.replace(/ /g, ''))?.kind === BALINESE_CASTE;
  const titles = (name: ParsedName) => name.words.filter((word, index) => word.alsoGivenName && !casteBeforeOrder(name, index));
  const onlyOnOneSide = [
    ...titles(p.expected).filter((word) => !p.holder.words.some((other) => other.reads === word.reads)),
    ...titles(p.holder).filter((word) => !p.expected.words.some((other) => other.reads === word.reads)),
  ];
  const givenName = onlyOnOneSide[0];
  if (givenName !== undefined) {
    outcome.limit('CLOSE_MATCH', `${quote(givenName.letters)} on one side only: a title dropped, or a given name missing`);
  }
  // A man's and a woman's title (Ida Bagus / Ida Ayu, La Ode / Wa Ode) is the gender rule's to note.
  const genderOnly =
    ours.every((word) => word.gender !== null) && theirs.every((word) => word.gender !== null) && ours[0]?.gender !== theirs[0]?.gender;
  // Written out as words, a title that starts the same is the same, however it was split ("I GST" + "NGURAH" is
  // "I GUSTI NGURAH"), and so is one written with fewer of its words (NGURAH for I Gusti Ngurah); the Balinese I/Ni
  // in front is the gender rule's.
  const titleWords = (list: NameWord[]) =>
    list
      .flatMap((word) => (p.knowledge.nobility.get(word.letters.replace(/ /g, ''))?.name ?? word.letters).split(' '))
      .filter((word) => p.knowledge.particles.get(word)?.kind !== 'gender-particle');
  const [oursWritten, theirsWritten] = [titleWords(ours), titleWords(theirs)];
  const sameStart = oursWritten[0] !== undefined && oursWritten[0] === theirsWritten[0];
  const within = (short: string[], long: string[]) => short.length > 0 && short.every((word) => long.includes(word));
  const shortened = within(oursWritten, theirsWritten) || within(theirsWritten, oursWritten);
  if (
    ours.length > 0 &&
    theirs.length > 0 &&
    !genderOnly &&
    !sameStart &&
    !shortened &&
    !ours.some((word) => theirs.some((other) => other.reads === word.reads))
  ) {
    outcome.limit('CLOSE_MATCH', `titles differ: ${quoteWords(theirs)} in the holder name, ${quoteWords(ours)} in the expected name`);
  }
}

function coversOf(word: NameWord): string[] {
  return [word.legal!.canonical, ...word.legal!.covers];
}

/** Families of legal forms that say what kind of entity it is; the others (a bank, a shop, a zakat agency) stack on one of them. */
const ENTITY_FAMILIES = new Set(['company', 'cooperative', 'foundation', 'association', 'village']);

/**
 * The same legal form, or one on one side only, is the same entity; two different forms (PT/CV, KSP/KSU, Koperasi/PD)
 * may be two. A form on one side against what reads as a person's name ("Budi Santoso" / CV BUDI SANTOSO) is a
 * business built on a person's name: a person looks.
 */
function legalForms(p: Pairing, outcome: Outcome): void {
  const ours = typed(p.expected, 'legal-form').filter((word) => word.legal!.kind !== 'qualifier');
  const theirs = typed(p.holder, 'legal-form').filter((word) => word.legal!.kind !== 'qualifier');
  const compatible = (a: NameWord, b: NameWord) => coversOf(a).includes(b.legal!.canonical) || coversOf(b).includes(a.legal!.canonical);
  const comparable = (a: NameWord, b: NameWord) =>
    a.legal!.family === b.legal!.family || (ENTITY_FAMILIES.has(a.legal!.family) && ENTITY_FAMILIES.has(b.legal!.family));
  let differs = false;
  for (const word of ours) {
    const rivals = theirs.filter((other) => comparable(word, other));
    if (rivals.length > 0 && !rivals.some((other) => compatible(word, other))) {
      differs = true;
      outcome.limit(
        'CLOSE_MATCH',
        `legal form differs: ${quote(word.letters)} in the expected name, ${quoteWords(rivals)} in the holder name`,
      );
    }
  }
  // Forms of different families on the two sides and none in common (Toko / CV, Apotek / KOPERASI, Toko / BPR,
  // Yayasan / TOKO): another kind of business under the same name words, perhaps the same owner's, perhaps not.
  // A form on one side stacked on a common one (PT BPR / BPR) is no difference.
  if (!differs && ours.length > 0 && theirs.length > 0 && !ours.some((word) => theirs.some((other) => compatible(word, other)))) {
    outcome.limit(
      'CLOSE_MATCH',
      `kind of business or legal form differs: ${quoteWords(ours)} in the expected name, ${quoteWords(theirs)} in the holder name`,
    );
  }
  if (!differs) anotherOrganisationInFront(p, ours, theirs, compatible, outcome);
  if (p.expected.company !== p.holder.company) {
    const person = p.expected.company ? p.holder : p.expected;
    const personMarked = person.words.some((word) =>
      ['title', 'rank', 'particle', 'patronymic', 'birth-order', 'nobility'].includes(word.kind),
    );
    if (personMarked || readsAsPerson(person, p.knowledge))
      outcome.limit('CLOSE_MATCH', `a business on one side, what reads as a person's name (${quote(person.display)}) on the other`);
  }
  const onlyOurs = ours.filter((word) => !theirs.some((other) => compatible(word, other)));
  const onlyTheirs = theirs.filter((word) => !ours.some((other) => compatible(word, other)));
  if (onlyOurs.length > 0 && theirs.length === 0) outcome.note(`legal form ${quoteWords(onlyOurs)} only in expected name`);
  if (onlyTheirs.length > 0 && ours.length === 0) outcome.note(`legal form ${quoteWords(onlyTheirs)} only in holder name`);
}

/** Families of organisations set up by or for the people of another (a cooperative, a foundation, an association). */
const ORGANISATION_OF_OTHERS = new Set(['cooperative', 'foundation', 'association', 'village']);

/**
 * Another organisation's form in front of the name on one side only: KOPERASI KARYAWAN PT SINAR JAYA ABADI is the
 * cooperative of PT Sinar Jaya Abadi's employees, YAYASAN PT ... a foundation of the firm, PT YAYASAN ... no
 * foundation at all: another legal entity under the same name words, for a person to look at. A form in front of a
 * kind of business that is no entity (PT BPR, CV TOKO) is that business's legal form, and no difference; a members'
 * form (Koperasi Karyawan, KPRI, Kopma) alone on one side is named after the organisation whose people it serves.
 */
function anotherOrganisationInFront(
  p: Pairing,
  ours: NameWord[],
  theirs: NameWord[],
  compatible: (a: NameWord, b: NameWord) => boolean,
  outcome: Outcome,
): void {
  const sides: Array<[ParsedName, NameWord[], string]> = [
    [p.holder, ours, 'holder'],
    [p.expected, theirs, 'expected'],
  ];
  for (const [name, otherForms, side] of sides) {
    const leading: NameWord[] = [];
    for (const word of name.words) {
      if (word.kind !== 'legal-form') break;
      if (word.legal!.kind !== 'qualifier') leading.push(word);
    }
    const front = leading[0];
    if (front === undefined || otherForms.some((other) => compatible(front, other))) continue;
    const behind = leading[1];
    const family = front.legal!.family;
    const stacked =
      behind !== undefined &&
      ENTITY_FAMILIES.has(family) &&
      (ORGANISATION_OF_OTHERS.has(family) || ENTITY_FAMILIES.has(behind.legal!.family));
    if (stacked) {
      outcome.limit(
        'CLOSE_MATCH',
        `${quote(front.letters)} in front of ${quote(behind.letters)} in the ${side} name only: another organisation under the same name words`,
      );
      return;
    }
    if (front.legal!.ofMembersOf) {
      outcome.limit(
        'CLOSE_MATCH',
        `${quote(front.letters)} in the ${side} name only: a members' cooperative, named after the organisation whose people it serves`,
      );
      return;
    }
  }
}

/** Starts with a listed given name and has no organisation or everyday business word (Jaya, Abadi, Mandiri). */
function readsAsPerson(name: ParsedName, knowledge: NameKnowledge): boolean {
  const names = name.words.filter((word) => word.kind === 'name');
  return names.length > 0 && knowledge.isGivenName(names[0]!.keys) && !names.some((word) => knowledge.isOrganisationWord(word.keys));
}

/** A typed word this long, run on by the bank's last word, is a whole name the holder's word goes beyond. */
const MIN_RUN_ON_STEM = 4;

/**
 * The holder name's last word runs on past a whole typed word, and the bank cut the name there: a bank cut shows
 * fewer letters than the word has, so FITRIANIN (for Fitriani Lubis) is another name (Fitrianingsih) cut, unless
 * the letters that run on start the next typed word (the bank ran the two together). A spelling of the typed word
 * that only adds letters after it is a person's to look at there.
 */
function wordRunsOn(p: Pairing, outcome: Outcome): void {
  const { E, H } = p;
  if (p.holder.visibleLength < MIN_BANK_WIDTH || p.holder.visibleLength > MAX_BANK_WIDTH) return;
  const last = p.linkOfH.get(H.length - 1);
  if (last === undefined || last.expected.length !== 1 || last.holder.length !== 1 || last.kind === 'exact') return;
  const at = last.expected[0]!;
  const typed = E[at]!.letters;
  const shown = H[H.length - 1]!.letters;
  if (typed.length < MIN_RUN_ON_STEM || shown.length <= typed.length || !shown.startsWith(typed)) return;
  // A spelling that only adds letters after the typed word (DEWIY for Dewi: a final y read as i, then ii as i;
  // HASANN for Hasan) is also what the start of a longer name looks like where the bank cut (DEWIYANTI).
  if (FULL_WORD_KINDS.has(last.kind)) {
    outcome.limit(
      'CLOSE_MATCH',
      `${quote(shown)} is ${quote(typed)} with letters after it, and the holder name may be cut there: a spelling, or another name cut`,
    );
    return;
  }
  const next = E.slice(at + 1).find((word) => word.kind === 'name');
  if (next === undefined || next.letters.startsWith(shown.slice(typed.length))) return;
  outcome.limit('NO_MATCH', `${quote(shown)} runs on past ${quote(typed)} where the holder name is cut: another name`);
}

const AFTER_NAME_KINDS = new Set<NameWord['kind']>(['title', 'degree', 'rank', 'legal-form']);

/**
 * A holder cut before the end of the expected name that shows, after its name words, a title, degree or legal form
 * the expected name lacks ("... LUBIS ST" for "... Lubis Siregar"): where a name word goes on, that may be its start
 * as well, cut, whatever it spells.
 */
function typedWordWhereNameGoesOn(p: Pairing, outcome: Outcome): void {
  if (p.cut === null || p.cut.hidden.length === 0) return;
  const shown = p.holder.words;
  let lastName = -1;
  shown.forEach((word, index) => {
    if (word.kind === 'name') lastName = index;
  });
  const shownAfter = shown
    .slice(lastName + 1)
    .filter(
      (word) =>
        AFTER_NAME_KINDS.has(word.kind) && !p.expected.words.some((other) => other.letters === word.letters || other.reads === word.reads),
    );
  if (shownAfter.length > 0) {
    outcome.limit(
      'CLOSE_MATCH',
      `${quoteWords(shownAfter)} where the expected name goes on with ${quoteWords(words(p.cut.hidden, p.E))}: its start, cut, or a title`,
    );
  }
}

/** Alm./Almh. (the late) before or after a person's own name, not the father's ("binti Alm. Ahmad"). */
const marksDeceased = (word: NameWord, knowledge: NameKnowledge): boolean =>
  word.kind === 'title' && word.part === 'own' && knowledge.titles.get(word.letters.replace(/ /g, ''))?.kind === 'deceased';

/**
 * A name marked deceased (ALM BUDI SANTOSO, SITI AMINAH (ALM)): the account of someone who has died is paid to
 * heirs, by a person's decision, however well the names agree.
 */
function deceased(p: Pairing, outcome: Outcome): void {
  for (const [name, side] of [
    [p.holder, 'holder'],
    [p.expected, 'expected'],
  ] as const) {
    const mark = name.words.find((word) => marksDeceased(word, p.knowledge));
    if (mark !== undefined)
      outcome.limit(
        'CLOSE_MATCH',
        `${side} name marked deceased (${quote(mark.display)}): paying the account of someone who died needs a person`,
      );
  }
}

/** "M" against MUHAMMAD alone, or initials against initials, is not a name compared. */
function someWordInFull(p: Pairing, outcome: Outcome): void {
  const inFull = p.links.some(
    (link) =>
      FULL_WORD_KINDS.has(link.kind) &&
      link.kind !== 'abbreviation' &&
      [...words(link.expected, p.E), ...words(link.holder, p.H)].every((word) => word.kind !== 'name' || word.letters.length >= 2),
  );
  const cutShowsOne = p.cut !== null && p.cut.partial !== null && (p.links.length > 1 || p.cut.partial.expected.length > 1);
  if (!inFull && !cutShowsOne) outcome.limit('CLOSE_MATCH', 'no word matches in full');
}

const RULES = [
  nothingInCommon,
  conflictingWords,
  fatherNames,
  oneSidedWords,
  bankCut,
  pairQuality,
  initials,
  titleLetterOnFile,
  wordOrder,
  wifeOf,
  genderMarkers,
  birthOrder,
  nobility,
  legalForms,
  wordRunsOn,
  typedWordWhereNameGoesOn,
  someWordInFull,
  deceased,
];

const SET_ASIDE_KINDS = new Set<NameWord['kind']>([
  'title',
  'degree',
  'rank',
  'legal-form',
  'conjunction',
  'patronymic',
  'article',
  'particle',
]);
const hasNameWords = (name: ParsedName) => name.words.some((word) => word.kind === 'name');

/**
 * A name made only of words that usually stand around a name ("Made", "Andi", "I Ketut"): those words are its name,
 * and the same words of the other name are compared with them as names too.
 */
function typedAsNames(name: ParsedName, other: ParsedName, knowledge: NameKnowledge): ParsedName {
  const asName = (word: NameWord): NameWord => ({
    ...word,
    kind: 'name',
    reads: word.letters.replace(/ /g, ''),
    keys: knowledge.spelling.keys(word.letters.replace(/ /g, '')),
    needsOtherSide: null,
  });
  if (!hasNameWords(name)) return { ...name, words: name.words.map((word) => (SET_ASIDE_KINDS.has(word.kind) ? word : asName(word))) };
  if (hasNameWords(other)) return name;
  const theirs = new Set(other.words.map((word) => word.reads));
  return {
    ...name,
    words: name.words.map((word) =>
      word.kind !== 'name' && !SET_ASIDE_KINDS.has(word.kind) && theirs.has(word.reads) ? asName(word) : word,
    ),
  };
}

const NOT_NAME_KINDS = new Set<NameWord['kind']>([
  'title',
  'degree',
  'rank',
  'legal-form',
  'patronymic',
  'marga-marker',
  'nobility',
  'birth-order',
]);

/**
 * A bank cut inside a word that is not a name word ("... BATUBARA S" of S.H., "... SAPUTRA BIN" of binti, "... TB" of
 * Tbk): the holder's last word, unread, is the start of such a word of the expected name after its name words.
 */
function withoutCutTypedWord(expected: ParsedName, holder: ParsedName): { holder: ParsedName; note: string | null } {
  const last = holder.words[holder.words.length - 1];
  if (last === undefined || last.kind !== 'name' || holder.visibleLength < MIN_BANK_WIDTH || holder.visibleLength > MAX_BANK_WIDTH)
    return { holder, note: null };
  const lastName = Math.max(...expected.words.map((word, index) => (word.kind === 'name' ? index : -1)));
  const typed = expected.words
    .slice(lastName + 1)
    .find(
      (word) =>
        NOT_NAME_KINDS.has(word.kind) &&
        word.letters.replace(/ /g, '').length > last.letters.length &&
        word.letters.replace(/ /g, '').startsWith(last.letters),
    );
  if (typed === undefined) return { holder, note: null };
  return {
    holder: { ...holder, words: holder.words.slice(0, -1) },
    note: `${quote(last.letters)} read as the start of ${quote(typed.display)} (holder name cut at ${holder.visibleLength} characters)`,
  };
}

/** A bank cut before the first name word ("ANAK AGUNG AYU PUTU", "PROF DR IR H"): only titles shown, all of them the expected name's. */
function cutBeforeTheName(expected: ParsedName, holder: ParsedName, outcome: Outcome): boolean {
  if (hasNameWords(holder) || !hasNameWords(expected) || holder.words.length === 0 || holder.visibleLength < MIN_BANK_WIDTH) return false;
  if (!holder.words.every((word) => expected.words.some((other) => other.reads === word.reads))) return false;
  outcome.limit('CLOSE_MATCH', `holder name cut at ${holder.visibleLength} characters shows only titles: ${quoteWords(holder.words)}`);
  return true;
}

/** One reading of each name; null when a reading leans on the other name and the other name does not bear it out. */
const IDENTIFYING_KINDS = new Set<NameWord['kind']>(['name', 'nobility', 'birth-order', 'particle', 'article']);
/** Only titles, degrees or a legal form ("H.", "Ibu", "PT"): nobody is named. */
export const isBlank = (name: ParsedName): boolean => !name.words.some((word) => IDENTIFYING_KINDS.has(word.kind));

export function judgeNames(
  expected: ParsedName,
  holderAsRead: ParsedName,
  policy: NameMatchPolicy,
  knowledge: NameKnowledge,
): NameComparison | null {
  if (!supported(expected, holderAsRead) || !supported(holderAsRead, expected)) return null;
  const outcome = new Outcome(policy);
  const cutTyped = withoutCutTypedWord(expected, holderAsRead);
  const holder = cutTyped.holder;
  if (cutTyped.note !== null) outcome.note(cutTyped.note);
  if (cutBeforeTheName(expected, holder, outcome)) return { verdict: outcome.verdict, score: 50, notes: outcome.notes() };
  const pairing = pairNames(typedAsNames(expected, holder, knowledge), typedAsNames(holder, expected, knowledge), knowledge);
  if (pairing.E.length === 0 || pairing.H.length === 0) {
    outcome.limit('NO_MATCH', `${pairing.E.length === 0 ? 'expected' : 'holder'} name has no name word`);
    return { verdict: outcome.verdict, score: 0, notes: outcome.notes() };
  }
  for (const rule of RULES) rule(pairing, outcome);
  if (pairing.articlesAlone.length > 0) outcome.note(`article ${quoteWords(pairing.articlesAlone)} on one side only, ignored`);
  if (pairing.repeated.length > 0) outcome.note(`${quoteWords(pairing.repeated)} written twice in the holder name, a one-word name`);
  for (const word of [...expected.words, ...holder.words]) {
    if (word.assumption !== null && word.kind !== 'birth-order' && word.kind !== 'nobility') outcome.note(word.assumption);
  }
  noteIgnoredWords(
    [...expected.words, ...holder.words].filter((word) => !marksDeceased(word, knowledge)),
    outcome,
  );
  const score = scoreInBand(outcome.verdict, similarity(pairing.E, pairing.H, pairing.links, pairing.cut?.hidden ?? []));
  return { verdict: outcome.verdict, score, notes: outcome.notes() };
}
