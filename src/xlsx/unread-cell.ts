/**
 * A workbook cell whose value the reader cannot give as the text Excel shows: a formula the program that
 * wrote the workbook never computed (no cached value: Excel computes it on opening, this reader computes
 * nothing), an Excel error value (`#N/A`), or a number in a number format the reader cannot render (see
 * display.ts). Reading such a cell as empty, or as some other text, is a silent failure: an empty name
 * makes the row VERIFIED ("no expected name to compare"), a number shown without its format's zeros is
 * another account.
 *
 * The reader does not know which columns the check reads, so it yields such a cell as a marker text that
 * row validation (src/csv/validation.ts) recognises in a column it reads (bank code, account number,
 * expected name) and turns into INPUT_INVALID naming the cell and the fix. The marker is the row's stored
 * value, so it is also what the report shows for that cell, in a column passed through too: it is written
 * to be read by a person (`#CELL! D2 formula never computed: =B2&" "&C2`), and starts with `#CELL!`,
 * shaped like Excel's own error values, which no real bank code, account number or name starts with. A CSV
 * cell written that way is refused as such too: refusing is the safe side.
 */
export type UnreadCell =
  /**
   * A formula without a cached value, or any formula of a workbook that asks Excel to compute them all again
   * on opening (its stored values are a program's, not Excel's); `formula` is its text (a shared formula's
   * other cells have none).
   */
  | { kind: 'uncomputed'; ref: string; formula: string }
  /** An error cell (`t="e"`): `#N/A`, `#REF!`, ... */
  | { kind: 'error'; ref: string; error: string }
  /** A number whose format the reader does not render (`value` as General shows it). */
  | { kind: 'format'; ref: string; value: string; format: string };

const PREFIX = '#CELL!';
const UNCOMPUTED = 'formula never computed';
const ERROR = 'Excel error';

/** The marker text of a cell (what the row holds, and what the report shows, for that cell). */
export function unreadCellText(cell: UnreadCell): string {
  switch (cell.kind) {
    case 'uncomputed':
      return `${PREFIX} ${cell.ref} ${UNCOMPUTED}: ${cell.formula === '' ? '(shared formula)' : `=${cell.formula}`}`;
    case 'error':
      return `${PREFIX} ${cell.ref} ${ERROR}: ${cell.error}`;
    case 'format':
      return `${PREFIX} ${cell.ref} number ${cell.value} in format: ${cell.format}`;
  }
}

const MARKER = /^#CELL! ([A-Z]{1,3}[0-9]+) (?:(formula never computed|Excel error): (.*)|number (\S+) in format: (.*))$/s;

/** The cell a marker text stands for, or undefined for any other text. */
export function parseUnreadCell(text: string): UnreadCell | undefined {
  const match = MARKER.exec(text);
  if (match === null) return undefined;
  const [, ref, kind, detail, value, format] = match as unknown as [string, string, string?, string?, string?, string?];
  if (kind === UNCOMPUTED)
    return { kind: 'uncomputed', ref, formula: detail === '(shared formula)' ? '' : (detail ?? '').replace(/^=/, '') };
  if (kind === ERROR) return { kind: 'error', ref, error: detail ?? '' };
  return { kind: 'format', ref, value: value ?? '', format: format ?? '' };
}

/** Why a row whose `role` (`expected name`, ...) is this cell cannot be checked, and what to do. */
export function unreadCellReason(cell: UnreadCell, role: string): string {
  switch (cell.kind) {
    case 'uncomputed':
      return `cell ${cell.ref} (the ${role}) holds a formula that was never computed${cell.formula === '' ? '' : ` (=${cell.formula})`}: the program that wrote the workbook left its value for Excel to compute; open and save the workbook in Excel or LibreOffice, or export the sheet as CSV, and run that`;
    case 'error':
      return `cell ${cell.ref} (the ${role}) holds the Excel error ${cell.error}: correct the cell (or the formula behind it) in the workbook and run it again`;
    case 'format':
      return `cell ${cell.ref} (the ${role}) holds the number ${cell.value} in the number format ${JSON.stringify(cell.format)}, which this reader does not render, so the text Excel shows is not known: format the column as Text with the digits typed in, or export the sheet as CSV, and run that`;
  }
}
