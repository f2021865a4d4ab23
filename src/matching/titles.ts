// Honorifics, religious and professional titles and academic degrees: none of them tells two people apart,
// and banks keep or drop them at will ("Drs. H. Asep Saefullah, M.Si" may come back as "H ASEP SAEFULLAH").
// They are removed from both names before comparing, and each removal is reported in the notes.

import { displayOf, type NamePiece } from './normalise.js';

export type IgnoredKind = 'title' | 'degree';

export interface IgnoredPart {
  kind: IgnoredKind;
  /** As written, e.g. "S.Kom." */
  display: string;
}

/** Titles that are never a name word, wherever they stand. */
const TITLES = new Set([
  'HJ', 'HJH', 'HAJI', 'HAJJAH', 'KH', 'KYAI', 'DR', 'DRS', 'DRA', 'DRG', 'DRH', 'IR', 'PROF',
  'NY', 'NYONYA', 'TN', 'TUAN', 'BPK', 'BAPAK', 'IBU', 'SDR', 'SDRI', 'SAUDARA', 'SAUDARI', 'NN', 'NONA',
  'UST', 'USTAD', 'USTADZ', 'USTAZ', 'USTADZAH', 'USTADZAH', 'USTAZAH', 'SYEKH', 'PDT', 'APT', 'NS', 'LC',
  'ALM', 'ALMH', 'ALMARHUM', 'ALMARHUMAH', 'NOTARIS',
]);

/** Titles that are also a plain initial ("H." is Haji before the name, Hadi's initial inside it). */
const LEADING_ONLY_TITLES = new Set(['H', 'BP']);

// Degrees are written S.<field> (sarjana), M.<field> (magister), A.Md.<field> (ahli madya), Sp.<field>
// (medical specialist), in every dotted and undotted variant: so the set is built from the fields.
const FIELDS = [
  'E', 'H', 'T', 'KOM', 'PD', 'PDI', 'AG', 'KED', 'SI', 'SOS', 'IP', 'IKOM', 'PSI', 'FARM', 'KM', 'KEP',
  'KES', 'GZ', 'GIZ', 'HUM', 'SN', 'S', 'TP', 'P', 'PT', 'PI', 'HUT', 'ARS', 'DS', 'SY', 'TH', 'THI', 'HI',
  'EI', 'AK', 'AKUN', 'AB', 'TR', 'ST', 'KG', 'KEPNS', 'SC', 'KN', 'TI', 'KEB', 'PAR', 'STAT', 'MAT', 'FIL',
  'AGR', 'KH', 'TRKES', 'IKES', 'KEU', 'HUB',
];
const MAGISTER_ONLY = ['M', 'A', 'ENG', 'BA', 'AP', 'PH', 'HES', 'PA', 'ARS'];
const SPECIALISTS = [
  'A', 'PD', 'OG', 'B', 'JP', 'M', 'THT', 'KK', 'N', 'AN', 'RAD', 'P', 'S', 'KJ', 'U', 'OT', 'BS', 'F', 'PK', 'PA', 'GK',
  // dentistry
  'ORT', 'PROS', 'PERIO', 'KG', 'KGA', 'BM', 'PM', 'RKG',
];
const OTHER_DEGREES = [
  'AMD', 'AMA', 'AMAPD', 'AMK', 'AMKEB', 'AMKEP', 'PHD', 'BSC', 'BA', 'MBA', 'MA', 'LLM', 'LLB', 'MPH', 'DIPL',
  'CPA', 'AK', 'SPD', 'SPDI', 'SPDSD', 'SKEPNS', 'MPDI', 'SIKOM', 'SHI', 'SEI', 'DR',
];
const DIPLOMA_FIELDS = ['', 'KEP', 'KEB', 'KES', 'FARM', 'GZ', 'AK', 'T', 'KOM', 'PAR', 'IP', 'RO', 'TRKES', 'PD'];

const DEGREES = new Set<string>([
  ...FIELDS.map((field) => `S${field}`),
  ...FIELDS.map((field) => `M${field}`),
  ...MAGISTER_ONLY.map((field) => `M${field}`),
  ...SPECIALISTS.map((field) => `SP${field}`),
  ...DIPLOMA_FIELDS.map((field) => `AMD${field}`),
  ...OTHER_DEGREES,
]);

// Chinese and other given names collide with a few codes ("Kian Seng", "Mei Ling", "Ma"): undotted, they stay names.
const DOTTED_ONLY = new Set(['MA', 'ME', 'MS', 'MEI', 'BA', 'MARS', 'SHI', 'AP', 'MAK', 'SENG', 'SS', 'SA', 'SAB', 'MP', 'MPA']);
for (const name of ['SENG', 'SA']) DEGREES.delete(name);

const MAX_DEGREE_PIECES = 4;

/** Length of the degree starting at `start` (in pieces), 0 when there is none. */
function degreeAt(pieces: readonly NamePiece[], start: number): number {
  let letters = '';
  let dotted = false;
  let found = 0;
  const last = Math.min(MAX_DEGREE_PIECES, pieces.length - start);
  for (let count = 1; count <= last; count += 1) {
    const piece = pieces[start + count - 1]!;
    if (count > 1 && piece.letters.length > 4) break;
    letters += piece.letters;
    dotted ||= piece.dotted;
    if (!DEGREES.has(letters)) continue;
    if (DOTTED_ONLY.has(letters) && !dotted) continue;
    if (count === 1 && !dotted && letters.length < 2) continue;
    found = count;
  }
  return found;
}

export interface TitleStripResult {
  pieces: NamePiece[];
  ignored: IgnoredPart[];
}

export function stripTitlesAndDegrees(pieces: readonly NamePiece[]): TitleStripResult {
  const kept: NamePiece[] = [];
  const ignored: IgnoredPart[] = [];
  let index = 0;

  // Before the name: "Prof. Dr. Ir. H." in any number and order.
  while (index < pieces.length) {
    const piece = pieces[index]!;
    if (TITLES.has(piece.letters) || LEADING_ONLY_TITLES.has(piece.letters)) {
      ignored.push({ kind: 'title', display: piece.display });
      index += 1;
      continue;
    }
    break;
  }

  while (index < pieces.length) {
    const piece = pieces[index]!;
    // A degree only follows a name; "SE" or "ST" before any name word would be the name itself.
    const degreeLength = kept.length > 0 ? degreeAt(pieces, index) : 0;
    if (degreeLength > 0) {
      ignored.push({ kind: 'degree', display: displayOf(pieces.slice(index, index + degreeLength)) });
      index += degreeLength;
      continue;
    }
    if (TITLES.has(piece.letters)) {
      ignored.push({ kind: 'title', display: piece.display });
      index += 1;
      continue;
    }
    kept.push(piece);
    index += 1;
  }

  return { pieces: kept, ignored };
}
