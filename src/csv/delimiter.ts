/** `,` or `;` (detected); tab only when Excel's `sep=` line names it. */
export type Delimiter = ',' | ';' | '\t';

/**
 * Picks `,` or `;` from the header line: whichever occurs more often outside quotes. Spreadsheets in
 * an Indonesian locale write `;` because `,` is their decimal separator.
 */
export function detectDelimiter(firstLine: string): ',' | ';' {
  let inQuotes = false;
  let commas = 0;
  let semicolons = 0;
  for (const char of firstLine) {
    if (char === '"') inQuotes = !inQuotes;
    else if (!inQuotes && char === ',') commas += 1;
    else if (!inQuotes && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}
