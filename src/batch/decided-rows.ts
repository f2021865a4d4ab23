import type { NameMatching } from '../matching/compare-names.js';
import { decideRowResult, type RowResult } from '../report/row-result.js';
import type { BatchRecord, BatchStore, StoredRow } from './batch-store.js';

export interface DecidedRow {
  /** 0-based position in the file's data rows. */
  index: number;
  row: StoredRow;
  /** The row's result as its report gives it (a row without an answer yet reads FAILED: see `answered`). */
  decided: RowResult;
  /** False while the row's account has no answer: its result is not final. */
  answered: boolean;
}

/**
 * One slice of a batch's rows in file order, each with its result decided the way the report decides it
 * (validation, the account's answer, the row's own expected name). The report writer, the progress counts
 * and the console's review list all read rows through here, so they always agree.
 */
export async function readDecidedRows(
  store: Pick<BatchStore, 'readRows' | 'getOutcomes'>,
  batch: Pick<BatchRecord, 'batchId' | 'mapping'>,
  start: number,
  count: number,
  nameMatching: NameMatching,
): Promise<DecidedRow[]> {
  const slice = await store.readRows(batch.batchId, start, count);
  const outcomes = await store.getOutcomes(batch.batchId, [
    ...new Set(slice.flatMap((row) => (row.accountKey === null ? [] : [row.accountKey]))),
  ]);
  const nameColumn = batch.mapping.expectedName;
  return slice.map((row, offset) => {
    const outcome = row.accountKey === null ? undefined : outcomes.get(row.accountKey);
    const expectedName = nameColumn === undefined ? undefined : row.fields[nameColumn];
    return {
      index: start + offset,
      row,
      decided: decideRowResult(row.invalidReason, outcome, expectedName, nameMatching),
      answered: row.invalidReason !== null || outcome !== undefined,
    };
  });
}
