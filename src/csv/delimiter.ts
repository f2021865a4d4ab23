/** `,`, `;` or tab: detected from the header line, or named by Excel's `sep=` line. */
export type Delimiter = ',' | ';' | '\t';

/**
 * Picks the delimiter from the header line: whichever of `,`, `;` and tab occurs most often outside quotes
 * (`,` on a tie, and with none). Spreadsheets in an Indonesian locale write `;` because `,` is their decimal
 * separator; Excel's "Unicode Text" and many exports from banking systems separate with tabs.
 */
export function detectDelimiter(firstLine: string): Delimiter {
  let inQuotes = false;
  const counts = { ',': 0, ';': 0, '\t': 0 };
  for (const char of firstLine) {
    if (char === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (char === ',' || char === ';' || char === '\t')) counts[char] += 1;
  }
  const most = Math.max(counts[','], counts[';'], counts['\t']);
  return counts[','] === most ? ',' : counts[';'] === most ? ';' : '\t';
}
