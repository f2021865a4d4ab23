import { InputFileError } from '../errors.js';
import type { SheetFacts } from './reader.js';
import { columnName, columnOf } from './sheet-xml.js';

/** A merged range (`D2:D3`) as 0-based columns and sheet row numbers. */
interface MergedRange {
  ref: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Its corners in either order, with spaces around them (Excel writes `D2:D3`; a workbook written by hand or
 * by another tool may say `D3:D2` or `D2 : D3`, and Excel opens it merged all the same): the value shown is
 * the top-left cell's whichever corner comes first.
 */
function parseRange(ref: string): MergedRange | undefined {
  const found = /^\s*\$?([A-Z]{1,3})\$?(\d+)\s*:\s*\$?([A-Z]{1,3})\$?(\d+)\s*$/.exec(ref.toUpperCase());
  if (found === null) return undefined;
  const [, fromColumn, fromRow, toColumn, toRow] = found as unknown as [string, string, string, string, string];
  const [left, right] = [columnOf(fromColumn), columnOf(toColumn)].sort((a, b) => a - b) as [number, number];
  const [top, bottom] = [Number(fromRow), Number(toRow)].sort((a, b) => a - b) as [number, number];
  return { ref: ref.trim(), left, top, right, bottom };
}

/**
 * Merged cells over a data row of a column the check reads (`D2:D3` in the name column; not an empty box merged
 * under the table, where no row is read): Excel shows the
 * merged value once, from its first cell, across the rows, and every other cell of the range holds nothing.
 * Read as they are, those rows have no name (VERIFIED: "no expected name to compare", green on someone else's
 * account, found by an outside attack) or no account (INPUT_INVALID "bank code is empty", which says nothing of
 * why); filled from the first cell, they would be a guess at what the person meant. The file is refused (exit
 * 2) naming the cells and the fix. `readColumns`: the sheet columns (0 is A) of the bank code, account number
 * and expected name; `header`: the file's column names, for the message.
 */
export function refuseMergedCellsRead(path: string, facts: SheetFacts, readColumns: readonly number[], header: readonly string[]): void {
  for (const range of facts.merged.map(parseRange)) {
    if (range === undefined) continue;
    for (const column of readColumns) {
      if (column < range.left || column > range.right) continue;
      // The first data row the range covers that is not its own first cell (a box under the table covers none).
      const row = column === range.left ? Math.max(range.top + 1, facts.headerRow + 1) : Math.max(range.top, facts.headerRow + 1);
      if (row > Math.min(range.bottom, facts.lastDataRow)) continue;
      throw new InputFileError(
        `${path}: cells ${range.ref} are merged, and ${columnName(column)}${row} is in column ${JSON.stringify(header[column] ?? '')}, which the check reads: Excel shows a merged value once, in ${columnName(range.left)}${range.top}, and the other cells of the range hold nothing. Unmerge them and give each row its own value, then run the file again`,
      );
    }
  }
}
