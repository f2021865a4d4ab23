export type Delimiter = ',' | ';';

/**
 * Picks `,` or `;` from the header line: whichever occurs more often outside quotes. Spreadsheets in
 * an Indonesian locale write `;` because `,` is their decimal separator.
 */
export function detectDelimiter(firstLine: string): Delimiter {
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
