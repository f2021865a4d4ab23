/** `,`, `;` or tab: detected from the header line, or named by Excel's `sep=` line. */
export type Delimiter = ',' | ';' | '\t';

const DELIMITERS: readonly Delimiter[] = [',', ';', '\t'];

/** The cells of one line split at `delimiter` outside quotes, quotes left in. */
function cellsOf(line: string, delimiter: Delimiter): string[] {
  const cells = [''];
  let inQuotes = false;
  for (const char of line) {
    if (char === '"') inQuotes = !inQuotes;
    if (!inQuotes && char === delimiter) cells.push('');
    else cells[cells.length - 1] += char;
  }
  return cells;
}

/**
 * Picks the delimiter from the header line: the one that splits it into the most column names the product
 * knows (`isKnownColumn`), then the one found most often outside quotes, then `,`. Spreadsheets in an
 * Indonesian locale write `;` because `,` is their decimal separator; Excel's "Unicode Text" and many
 * exports from banking systems separate with tabs; a header cell may hold the others
 * (`Nama (Depan, Tengah, Belakang)` in a tab-separated file).
 */
export function detectDelimiter(firstLine: string, isKnownColumn: (name: string) => boolean = () => false): Delimiter {
  const scored = DELIMITERS.map((delimiter) => {
    const cells = cellsOf(firstLine, delimiter);
    return { delimiter, count: cells.length - 1, known: cells.filter((cell) => isKnownColumn(cell.replace(/"/g, '').trim())).length };
  });
  const best = scored.reduce((a, b) => (b.count > 0 && (b.known > a.known || (b.known === a.known && b.count > a.count)) ? b : a));
  return best.delimiter;
}
