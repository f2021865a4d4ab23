import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeError, OutputPathError } from '../errors.js';
import type { NameMatching } from '../matching/compare-names.js';
import type { AccountHistory } from '../history/account-history.js';
import { CHANGE_VALUES, classifyChange, isNotableChange, withChangeNote, type ChangeValue } from '../history/change.js';
import { parseAccountKey } from '../csv/validation.js';
import { bankTranslationNote, decideRowResult, resultCells, RESULT_COLUMNS, RESULT_VALUES, type ResultValue } from '../report/row-result.js';
import { openSink, type RowSink } from '../report/sink.js';
import type { BatchStore } from './batch-store.js';
import { HandedBackError } from './settle.js';

const SLICE_ROWS = 1000;

export interface WrittenReport {
  rows: number;
  counts: Record<ResultValue, number>;
  /** Rows per `change` value (rows without a definitive answer have none). */
  changes: Record<ChangeValue, number>;
  /** Accounts of the batch answered from history instead of asked (`--reuse-answers`): inquiry calls saved. */
  reusedAnswers: number;
  /** The changes file, when one was asked for. */
  changesReport?: string;
}

export interface ReportSources {
  store: Pick<BatchStore, 'get' | 'readRows' | 'getAnswers' | 'reusedAnswers'>;
  history: Pick<AccountHistory, 'recordResults'>;
}

export interface ReportOutputs {
  /** The report: CSV, or a workbook when it ends in `.xlsx`. */
  reportPath: string;
  /** Also write the rows whose `change` needs a look (not NEW, not UNCHANGED) here, in the same pass. */
  changesPath?: string | undefined;
}

/**
 * Writes the reconciliation report: the input rows in file order with their columns untouched, then the
 * result columns, `change` among them. Streams slice by slice from Redis into the sink the path names (CSV
 * or XLSX), under a temporary name renamed at the end, so nobody opens half a report; the changes file, if
 * asked for, is written in the same pass. Every temporary file is removed on any failure or abort. Any
 * file-system failure is an OutputPathError naming the path. Names are compared under `nameMatching`
 * (NAME_MATCH_POLICY).
 *
 * `change` compares each row with the snapshot of the account's history taken when the batch's answer was
 * stored, so writing the report again (`export`, a duplicate) gives the same column. The row verdicts are
 * added to the history (where it still holds this batch's answer) for the next batch's RESULT_CHANGED.
 */
export async function writeReconciliation(
  sources: ReportSources,
  batchId: string,
  outputs: ReportOutputs,
  nameMatching: NameMatching,
  signal?: AbortSignal,
): Promise<WrittenReport> {
  const { store, history } = sources;
  const batch = await store.get(batchId);
  const counts = Object.fromEntries(RESULT_VALUES.map((value) => [value, 0])) as Record<ResultValue, number>;
  const changes = Object.fromEntries(CHANGE_VALUES.map((value) => [value, 0])) as Record<ChangeValue, number>;
  const paths = [outputs.reportPath, ...(outputs.changesPath === undefined ? [] : [outputs.changesPath])];
  let failingPath = outputs.reportPath;
  const cannotWrite = (error: unknown) => new OutputPathError(`cannot write the report ${failingPath}: ${describeError(error)}`, { cause: error });
  const sinkOptions = { delimiter: batch.layout.delimiter, resultColumn: batch.header.length };
  const sinks: RowSink[] = [];
  let rows = 0;
  try {
    for (const path of paths) {
      failingPath = path;
      await mkdir(dirname(path), { recursive: true });
      sinks.push(await openSink(path, sinkOptions));
    }
    const [report, changed] = sinks as [RowSink, RowSink | undefined];
    const header = [...batch.header, ...RESULT_COLUMNS];
    for (const sink of sinks) await sink.write(header);
    const nameColumn = batch.mapping.expectedName;
    for (let start = 0; start < batch.rowCount; start += SLICE_ROWS) {
      if (signal?.aborted) throw new HandedBackError(`report of batch ${batchId} not written: stopped`);
      const slice = await store.readRows(batchId, start, SLICE_ROWS);
      const accounts = [...new Set(slice.flatMap((row) => (row.accountKey === null ? [] : [row.accountKey])))];
      const answers = await store.getAnswers(batchId, accounts);
      const reported = new Map<string, ResultValue>();
      for (const row of slice) {
        const expectedName = nameColumn === undefined ? undefined : row.fields[nameColumn];
        const decided = decideRowResult(row.invalidReason, row.accountKey === null ? undefined : answers.get(row.accountKey)?.outcome, expectedName, nameMatching);
        const { change, note } = classifyChange(decided, row.accountKey === null ? undefined : answers.get(row.accountKey)?.previous);
        counts[decided.result] += 1;
        if (change !== undefined) changes[change] += 1;
        // The verdicts of this batch's own valid answers go to the history (reused ones are another batch's).
        if (row.accountKey !== null && decided.outcome?.verdict === 'VERIFIED' && answers.get(row.accountKey)?.previous?.reused === false) reported.set(row.accountKey, decided.result);
        rows += 1;
        const sent = row.accountKey === null ? undefined : parseAccountKey(row.accountKey);
        const reason = [withChangeNote(decided.reason, note), bankTranslationNote(row.fields[batch.mapping.bankCode], sent?.bankCode)].filter((part) => part).join('; ');
        const cells = [...row.fields, ...resultCells({ ...decided, reason, change, accountNumberChecked: sent?.accountNumber })];
        failingPath = outputs.reportPath;
        await report.write(cells);
        if (changed !== undefined && isNotableChange(change)) {
          failingPath = outputs.changesPath!;
          await changed.write(cells);
        }
      }
      await history.recordResults(batch.queueName, batchId, reported);
    }
    for (const [index, sink] of sinks.entries()) {
      failingPath = paths[index]!;
      await sink.close();
    }
  } catch (error) {
    await Promise.all(sinks.map((sink) => sink.discard()));
    if (error instanceof HandedBackError || !isFileSystemError(error)) throw error;
    throw cannotWrite(error);
  }
  return { rows, counts, changes, reusedAnswers: await store.reusedAnswers(batchId), ...(outputs.changesPath !== undefined && { changesReport: outputs.changesPath }) };
}

const isFileSystemError = (error: unknown): boolean => error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).syscall !== undefined;
