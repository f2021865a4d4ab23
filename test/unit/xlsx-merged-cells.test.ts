import { describe, expect, it } from 'vitest';
import { InputFileError } from '../../src/errors.js';
import { refuseMergedCellsRead } from '../../src/xlsx/merged-cells.js';
import type { SheetFacts } from '../../src/xlsx/reader.js';

const header = ['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name'];
/** Bank code, account number and name in B, C and D; the header in row 1, data rows 2 to 5. */
const READ = [1, 2, 3];
const facts = (merged: string[]): SheetFacts => ({ sheet: 'Sheet1', otherSheets: [], headerRow: 1, lastDataRow: 5, merged });
const refusal = (merged: string[]) => {
  try {
    refuseMergedCellsRead('payees.xlsx', facts(merged), READ, header);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InputFileError);
    return (error as Error).message;
  }
};

describe('refuseMergedCellsRead', () => {
  it('refuses a name merged over two data rows, naming the empty cell and the one shown', () => {
    expect(refusal(['D2:D3'])).toContain('cells D2:D3 are merged, and D3 is in column "beneficiary_name"');
  });

  it('reads a merge written bottom-up, right to left or with spaces as Excel does: the top-left cell is the one shown', () => {
    expect(refusal(['D3:D2'])).toContain('and D3 is in column "beneficiary_name"');
    expect(refusal([' D2 : D3 '])).toContain('cells D2 : D3 are merged, and D3');
    // Across the account and name columns of one row: the name's cell holds nothing.
    expect(refusal(['D4:C4'])).toContain(
      'and D4 is in column "beneficiary_name", which the check reads: Excel shows a merged value once, in C4',
    );
  });

  it('leaves alone merges in a column passed through, a box under the table, and the header row', () => {
    expect(refusal(['A2:A5', 'B7:D9', 'B1:C1'])).toBeUndefined();
  });
});
