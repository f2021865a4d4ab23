// First step of reading a name: fold it to plain uppercase letters, split it into pieces.
//
// Dots are not thrown away yet: "S.Pd.I" has to be recognised as one degree and "M.Rizky" as two words, and
// only the dots tell them apart. So a piece is what lies between separators and dots, and remembers whether a
// dot followed it and which written chunk it came from.

export interface NamePiece {
  /** Uppercase letters and digits only, e.g. "KOM". */
  letters: string;
  /** As written (case kept, trailing dot included), e.g. "Kom.", for the notes. */
  display: string;
  /** Written with a dot right after it: the writer marked it as an abbreviation. */
  dotted: boolean;
  /** Index of the whitespace/comma-separated chunk it came from; "S.Pd.I" is one chunk of three pieces. */
  chunk: number;
}

const COMBINING_MARKS = /[\u0300-\u036f]/g;
// Apostrophes inside Arabic-derived names (Ma'ruf, Nu'man) are not written by most banks at all.
const APOSTROPHES = /['\u2018\u2019\u02bc\u02b9\u0060\u00b4\u2032]/g;
const CHUNK_SEPARATORS = /[^A-Za-z0-9.]+/;

/** Diacritics and apostrophes removed; case kept. */
export function foldDiacritics(text: string): string {
  return text.normalize('NFKD').replace(COMBINING_MARKS, '').replace(APOSTROPHES, '');
}

/** The name as one comparable string: the baseline "plain normalised equality" compares exactly this. */
export function plainNormalised(name: string): string {
  return foldDiacritics(name).toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim();
}

/** Length of the name as the bank would count it: trimmed, runs of spaces counted once. */
export function visibleLength(name: string): number {
  return name.trim().replace(/\s+/g, ' ').length;
}

export function splitIntoPieces(name: string): NamePiece[] {
  // "&" is a word in company names ("PULP & PAPER"), and it is the same word as "DAN"/"AND".
  const folded = foldDiacritics(name).replace(/&/g, ' DAN ');
  const pieces: NamePiece[] = [];
  let chunk = 0;
  for (const written of folded.split(CHUNK_SEPARATORS)) {
    const parts = written.split('.');
    let produced = false;
    parts.forEach((part, index) => {
      if (part === '') return;
      const dotted = index < parts.length - 1;
      pieces.push({ letters: part.toUpperCase(), display: dotted ? `${part}.` : part, dotted, chunk });
      produced = true;
    });
    if (produced) chunk += 1;
  }
  return pieces;
}

/** How a run of pieces was written, for notes: "S.Pd.I" stays together, "S. Kom." keeps its space. */
export function displayOf(pieces: readonly NamePiece[]): string {
  let text = '';
  pieces.forEach((piece, index) => {
    const previous = pieces[index - 1];
    if (previous !== undefined && previous.chunk !== piece.chunk) text += ' ';
    text += piece.display;
  });
  return text;
}
