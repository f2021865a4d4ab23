// Reads one account name into the words that are compared, and what was set aside on the way.

import { splitQualitateQua, stripLegalForms } from './company.js';
import { splitIntoPieces, visibleLength, type NamePiece } from './normalise.js';
import { classifyWords, type PrefixKind, type WordRole } from './prefixes.js';
import { isCommonWord, isMuhammad, spellingKeys } from './spelling.js';
import { stripTitlesAndDegrees, type IgnoredPart } from './titles.js';

export interface NameWord {
  /** Uppercase letters as written ("MOCH"). */
  letters: string;
  /** Spelling key ("MOHAMAD"); equal keys are spelling variants of one word. */
  key: string;
  altKey: string | null;
  /** Written with a dot: an abbreviation. */
  dotted: boolean;
  prefix: PrefixKind | null;
  role: WordRole;
  /** Position among the compared words of this name. */
  index: number;
  muhammad: boolean;
  /** Shared by so many people that matching on it alone proves nothing. */
  common: boolean;
}

export interface ParsedName {
  words: NameWord[];
  ignored: IgnoredPart[];
  legalForms: string[];
  legalFormsWritten: string[];
  /** Characters the bank showed for the whole account name; 0 where truncation cannot apply. */
  visibleLength: number;
  hasFatherName: boolean;
  /** The name as read (uppercase, punctuation dropped), for notes. */
  display: string;
}

export type AccountName =
  | { kind: 'single'; name: ParsedName }
  | { kind: 'qq'; owner: ParsedName; beneficiary: ParsedName };

function parsePieces(pieces: readonly NamePiece[], shownLength: number): ParsedName {
  const titles = stripTitlesAndDegrees(pieces);
  const legal = stripLegalForms(titles.pieces);
  const classified = classifyWords(legal.pieces);
  const words = classified.map((word, index): NameWord => {
    const { key, altKey } = spellingKeys(word.letters);
    return {
      letters: word.letters,
      key,
      altKey,
      dotted: word.dotted,
      prefix: word.prefix,
      role: word.role,
      index,
      muhammad: isMuhammad(word.letters, key),
      common: isCommonWord(word.letters, key),
    };
  });
  return {
    words,
    ignored: titles.ignored,
    legalForms: legal.forms,
    legalFormsWritten: legal.written,
    visibleLength: shownLength,
    hasFatherName: words.some((word) => word.role === 'father'),
    display: pieces.map((piece) => piece.letters).join(' '),
  };
}

/**
 * A degree one side wrote with dots ("Hamdani Lubis, M.A.") and the other without ("HAMDANI LUBIS MA"): alone,
 * an undotted "MA" may be a name (a Chinese one), but the other side says what it is. Drops such words from the
 * end of `name` and records them as ignored degrees.
 */
export function dropDegreesNamedBy(name: ParsedName, other: ParsedName): ParsedName {
  if (name.words.length < 2 || !other.ignored.some((part) => part.kind === 'degree')) return name;
  const degrees = new Set(other.ignored.filter((part) => part.kind === 'degree').map((part) => part.display.replace(/[^A-Za-z0-9]/g, '').toUpperCase()));
  let end = name.words.length;
  while (end > 1 && degrees.has(name.words[end - 1]!.letters)) end -= 1;
  if (end === name.words.length) return name;
  const words = name.words.slice(0, end);
  const dropped = name.words.slice(end).map((word): IgnoredPart => ({ kind: 'degree', display: word.letters }));
  return { ...name, words, ignored: [...name.ignored, ...dropped], hasFatherName: words.some((word) => word.role === 'father') };
}

export function parseAccountName(raw: string): AccountName {
  const pieces = splitIntoPieces(raw);
  const shown = visibleLength(raw);
  const qq = splitQualitateQua(pieces);
  if (qq !== null) {
    // Only the end of the string can have been cut by the bank: that is the beneficiary's part.
    return { kind: 'qq', owner: parsePieces(qq.owner, 0), beneficiary: parsePieces(qq.beneficiary, shown) };
  }
  return { kind: 'single', name: parsePieces(pieces, shown) };
}
