// First step of reading a name: fold it to plain uppercase letters and cut it into tokens.
//
// Dots, brackets, commas and written-together chunks are not thrown away yet: "S.Pd.I" has to be recognised as
// one degree and "M.Rizky" as two words, "(Persero)" and "(Purn.)" as qualifiers, "(Liem Hen Djie)" as an alias,
// and "Situmorang, Jonathan" as a surname written first. So a token remembers its dot, its chunk, its bracket
// and a comma after it. "/", "&" and "@" are tokens of their own (joint accounts, "Hendrawan & Rekan", "Budi @ Ucok").

export interface Token {
  /** Uppercase letters and digits ("KOM"), or "/", "&" or "@". */
  letters: string;
  /** As written (case kept, trailing dot included), e.g. "Kom.", for the notes. */
  display: string;
  /** Written with a dot right after it: the writer marked it as an abbreviation. */
  dotted: boolean;
  /** Index of the chunk written without a space it came from: "S.Pd.I" is one chunk of three tokens. */
  chunk: number;
  /** 0 outside brackets, else the number of the bracket group (1, 2...). */
  bracket: number;
  /** A comma follows this token. */
  commaAfter: boolean;
  /** Written as an abbreviation of several words, this token one of them ("FX" read as FRANSISKUS XAVERIUS). */
  readFrom?: string;
}

const COMBINING_MARKS = /[\u0300-\u036f]/g;
// Apostrophes inside Arabic-derived names (Ma'ruf, Nu'man) are not written by most banks at all.
const APOSTROPHES = /['\u2018\u2019\u02bc\u02b9\u0060\u00b4\u2032]/g;

/** Diacritics and apostrophes removed; case kept. */
export function foldDiacritics(text: string): string {
  return text.normalize('NFKD').replace(COMBINING_MARKS, '').replace(APOSTROPHES, '');
}

/** The name as one comparable string: the baseline "plain normalised equality" compares exactly this. */
export function plainNormalised(name: string): string {
  return foldDiacritics(name)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

/** Length of the name as the bank would count it: trimmed, runs of spaces counted once. */
export function visibleLength(name: string): number {
  return name.trim().replace(/\s+/g, ' ').length;
}

const isLetterOrDigit = (char: string) => /[A-Za-z0-9]/.test(char);

export function tokenize(name: string): Token[] {
  const text = foldDiacritics(name);
  const tokens: Token[] = [];
  let chunk = 0;
  let chunkHasTokens = false;
  let bracket = 0;
  let bracketCount = 0;
  let current = '';
  const endChunk = () => {
    if (chunkHasTokens) chunk += 1;
    chunkHasTokens = false;
  };
  const push = (letters: string, display: string, dotted: boolean) => {
    tokens.push({ letters, display, dotted, chunk, bracket, commaAfter: false });
    chunkHasTokens = true;
  };
  const flush = (dotted: boolean) => {
    if (current === '') return;
    push(current.toUpperCase(), dotted ? `${current}.` : current, dotted);
    current = '';
  };
  for (const char of text) {
    if (isLetterOrDigit(char)) {
      current += char;
    } else if (char === '.') {
      flush(true);
    } else if (char === '-') {
      flush(false); // "Adi-Pranoto", "Sp.THT-KL": two words written as one chunk
    } else {
      flush(false);
      if (char === ',' && tokens.length > 0) tokens[tokens.length - 1]!.commaAfter = true;
      endChunk();
      if (char === '(' || char === '[') {
        bracketCount += 1;
        bracket = bracketCount;
      } else if (char === ')' || char === ']') {
        bracket = 0;
      } else if (char === '/' || char === '&' || char === '@') {
        push(char, char, false);
        endChunk();
      }
    }
  }
  flush(false);
  return tokens;
}

/** How a run of tokens was written, for notes: "S.Pd.I" stays together, "S. Kom." keeps its space. */
export function displayOf(tokens: readonly Token[]): string {
  let text = '';
  tokens.forEach((token, index) => {
    const previous = tokens[index - 1];
    if (previous !== undefined && previous.chunk !== token.chunk) text += ' ';
    text += token.display;
  });
  return text;
}
