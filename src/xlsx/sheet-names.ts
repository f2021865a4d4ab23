/** A sheet name longer than this is cut in a message (Excel allows 31 characters; a workbook written by hand, any). */
const SHOWN_NAME_LENGTH = 60;
/** A message lists at most this many of a workbook's other sheets, then says how many more. */
const LISTED_SHEETS = 10;

/**
 * A sheet's name as a message shows it: quoted as JSON, so that a quote, a comma or a line break in it cannot
 * pass for the end of the name, another sheet or a line of its own (`line1\nnote: ...`); the characters that
 * reorder text (right-to-left overrides and isolates) escaped as well; a long one cut.
 */
export function shownSheetName(name: string): string {
  const cut = [...name].length > SHOWN_NAME_LENGTH ? `${[...name].slice(0, SHOWN_NAME_LENGTH).join('')}…` : name;
  return JSON.stringify(cut).replace(
    /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (mark) => `\\u${mark.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Shown sheets (`"Data" (hidden)`, as SheetFacts.otherSheets holds them) as a message lists them: the first few, then how many more. */
export const listedSheets = (shown: readonly string[]): string =>
  shown.length <= LISTED_SHEETS ? shown.join(', ') : `${shown.slice(0, LISTED_SHEETS).join(', ')} and ${shown.length - LISTED_SHEETS} more`;
