// Words that stand before a name without being the distinguishing part of it, and "bin"/"binti".
//
// - Balinese names open with a gender particle (I / Ni), often a caste or noble title (Ida Bagus, Anak Agung,
//   Gusti, Ngurah) and a birth-order name (Wayan/Putu/Gede/Luh, Made/Kadek/Nengah, Nyoman/Komang, Ketut);
//   Javanese and Acehnese ones may open with a noble title (Raden, R., Rr., RM, RA, Teuku, Cut).
//   Banks abbreviate or drop these ("I MD SUDARSANA", "GUSTI NGURAH RAI PUTRA").
// - Arabic articles (Al, Ash...) and the Batak/Karo "br."/"boru" are written or left out at will.
// These become *prefix* words: they may go missing on one side, but two different birth-order names (Wayan vs
// Made) or two different particles (I vs Ni, he vs she) still mean two different people.
// - "bin"/"binti" introduce the father's name. The word itself is dropped; what follows is marked as the
//   father's name, so that sharing only the father's name is never taken for the same person.

import { spellingKey } from './spelling.js';

export type PrefixKind = 'particle' | 'birth-order' | 'noble';
export type WordRole = 'given' | 'father';

export interface PrefixedWord {
  letters: string;
  dotted: boolean;
  prefix: PrefixKind | null;
  role: WordRole;
}

const keySet = (words: string[]) => new Set(words.map(spellingKey));

const BIRTH_ORDER = keySet(['WAYAN', 'PUTU', 'GEDE', 'LUH', 'MADE', 'KADEK', 'NENGAH', 'NYOMAN', 'KOMANG', 'KETUT']);
const NOBLE = keySet([
  'RADEN', 'RORO', 'AJENG', 'GUSTI', 'NGURAH', 'COKORDA', 'DESAK', 'TEUKU', 'TEUNGKU', 'TUBAGUS',
]);
/** Titles only together with the next word ("Ida Bagus", "Ida Ayu", "Anak Agung"); alone, "Ida" is a given name. */
const NOBLE_BEFORE = new Map<string, Set<string>>([
  [spellingKey('IDA'), keySet(['BAGUS', 'AYU'])],
  [spellingKey('ANAK'), keySet(['AGUNG'])],
]);
/** Titles in their own right only right after another prefix word: "Raden Ayu", "Anak Agung", "Cut Nyak". */
const NOBLE_AFTER_PREFIX = keySet(['AYU', 'AGUNG', 'BAGUS', 'DEWA', 'MAS', 'NYAK']);
const ARTICLES = new Set(['AL', 'EL', 'ASH', 'AS', 'AD', 'AR', 'AN', 'AZ', 'BR', 'BORU', 'BERU']);
const FATHER_MARKERS = new Set(['BIN', 'BINTI']);
const SHORT_FATHER_MARKERS = new Set(['BT', 'BN']);

/** Abbreviations banks use for the opening words, read only at the start of a name. */
const OPENING_ABBREVIATIONS = new Map<string, string[]>([
  ['IB', ['IDA', 'BAGUS']],
  ['AA', ['ANAK', 'AGUNG']],
  ['AAG', ['ANAK', 'AGUNG', 'GEDE']],
  ['AAN', ['ANAK', 'AGUNG', 'NGURAH']],
  ['IGN', ['I', 'GUSTI', 'NGURAH']],
  ['IGA', ['I', 'GUSTI', 'AYU']],
  ['IGB', ['I', 'GUSTI', 'BAGUS']],
  ['IGK', ['I', 'GUSTI', 'KETUT']],
  ['IGM', ['I', 'GUSTI', 'MADE']],
  ['IGP', ['I', 'GUSTI', 'PUTU']],
  ['R', ['RADEN']],
  ['RD', ['RADEN']],
  ['RDN', ['RADEN']],
  ['RR', ['RADEN', 'RORO']],
  ['RA', ['RADEN', 'AJENG']],
  ['RM', ['RADEN', 'MAS']],
  ['T', ['TEUKU']],
  ['TGK', ['TEUNGKU']],
]);
/** Abbreviated prefix words, anywhere in the opening run: "I MD SUDARSANA", "I GST NGR RAI". */
const PREFIX_ABBREVIATIONS = new Map<string, string>([
  ['MD', 'MADE'],
  ['WYN', 'WAYAN'],
  ['NYM', 'NYOMAN'],
  ['KT', 'KETUT'],
  ['KTT', 'KETUT'],
  ['KDK', 'KADEK'],
  ['KMG', 'KOMANG'],
  ['GST', 'GUSTI'],
  ['NGR', 'NGURAH'],
  ['GD', 'GEDE'],
]);

function prefixKind(letters: string, position: number, afterPrefix: boolean, next: string | undefined): PrefixKind | null {
  if (position === 0 && (letters === 'I' || letters === 'NI')) return 'particle';
  if (position === 0 && letters === 'CUT') return 'noble';
  const key = spellingKey(letters);
  if (BIRTH_ORDER.has(key)) return 'birth-order';
  if (NOBLE.has(key)) return 'noble';
  if (next !== undefined && NOBLE_BEFORE.get(key)?.has(spellingKey(next))) return 'noble';
  if (afterPrefix && NOBLE_AFTER_PREFIX.has(key)) return 'noble';
  return null;
}

export function classifyWords(words: readonly { letters: string; dotted: boolean }[]): PrefixedWord[] {
  const result: PrefixedWord[] = [];
  let role: WordRole = 'given';
  let opening = true;

  words.forEach((word, index) => {
    const isLast = index === words.length - 1;
    if (index > 0 && !isLast && (FATHER_MARKERS.has(word.letters) || SHORT_FATHER_MARKERS.has(word.letters))) {
      role = 'father';
      opening = false;
      return;
    }
    if (opening) {
      const hasMore = !isLast;
      const expansion = result.length === 0 && hasMore ? OPENING_ABBREVIATIONS.get(word.letters) : undefined;
      if (expansion !== undefined) {
        for (const letters of expansion) {
          const prefix = prefixKind(letters, result.length, result.length > 0, undefined) ?? 'noble';
          result.push({ letters, dotted: false, prefix, role });
        }
        return;
      }
      const letters = hasMore ? (PREFIX_ABBREVIATIONS.get(word.letters) ?? word.letters) : word.letters;
      const prefix = hasMore ? prefixKind(letters, result.length, result.length > 0, words[index + 1]!.letters) : null;
      if (prefix !== null) {
        result.push({ letters, dotted: false, prefix, role });
        return;
      }
      opening = false;
    }
    const article = index > 0 && !isLast && ARTICLES.has(word.letters);
    result.push({ letters: word.letters, dotted: word.dotted, prefix: article ? 'particle' : null, role });
  });

  // A name made only of prefix words ("Made", "Putu Ayu") has nothing else to be compared on.
  if (result.length > 0 && result.every((word) => word.prefix !== null)) {
    for (const word of result) word.prefix = null;
  }
  return result;
}
