import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeEndpoint } from '../config/endpoint.js';
import { describeError, OutputPathError } from '../errors.js';
import type { NameMatching } from '../matching/compare-names.js';
import type { AccountHistory } from '../history/account-history.js';
import { CHANGE_VALUES, classifyChange, isNotableChange, withChangeNote, type ChangeValue } from '../history/change.js';
import { parseAccountKey } from '../csv/validation.js';
import { isoInZone, localTime } from '../clock/local-time.js';
import { environmentOfQueue } from '../queue/inquiry-queue.js';
import {
  bankTranslationNote,
  decideRowResult,
  resultCells,
  RESULT_COLUMNS,
  RESULT_VALUES,
  type ResultValue,
} from '../report/row-result.js';
import { openSink, type RowSink } from '../report/sink.js';
import { PRIVATE_FOLDER_MODE } from '../host/private-files.js';
import {
  changedSinceDecided,
  countReviewState,
  decidableFacts,
  matchRowFacts,
  rejectionOfMatch,
  zeroReviewCounts,
  type Decision,
  type ReviewCounts,
} from '../review/decision.js';
import type { DecisionStore } from '../review/decision-store.js';
import type { BatchStore, ReviewRowEntry } from './batch-store.js';
import { HandedBackError } from './settle.js';

const SLICE_ROWS = 1000;

/** A report's header: the input's columns (those the batch repeats), then the product's own. */
export const reportHeader = (inputHeader: readonly string[]): string[] => [...inputHeader, ...RESULT_COLUMNS];

export interface WrittenReport {
  rows: number;
  counts: Record<ResultValue, number>;
  /** Rows per `change` value (rows without a definitive answer have none). */
  changes: Record<ChangeValue, number>;
  /** Accounts of the batch answered from history instead of asked (`--reuse-answers`): inquiry calls saved. */
  reusedAnswers: number;
  /** The changes file, when one was asked for. */
  changesReport?: string;
  /** What a person still has to do (CLOSE_MATCH / NO_MATCH rows without a standing decision) and what they decided. */
  review: ReviewCounts;
}

export interface ReportSources {
  store: Pick<BatchStore, 'get' | 'readRows' | 'getAnswers' | 'reusedAnswers' | 'reviewRowsWriter'>;
  history: Pick<AccountHistory, 'recordResults'>;
  /** People's decisions: the one that stands on a row's facts fills its decision columns. */
  decisions: Pick<DecisionStore, 'judge' | 'end'>;
}

export interface ReportOutputs {
  /** The report: CSV, or a workbook when it ends in `.xlsx`. */
  reportPath: string;
  /** Also write the rows whose `change` needs a look (not NEW, not UNCHANGED) here, in the same pass. */
  changesPath?: string | undefined;
  /** DISPLAY_TZ: `decided_at` and the times in a decision's note are written in this zone. */
  timeZone: string;
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
 *
 * People's decisions are applied here, for every entry point alike: a CLOSE_MATCH / NO_MATCH row whose facts
 * (account, expected name, holder name) have a standing decision gets it in `decision`, `decided_by`,
 * `decided_at`; one whose earlier decision no longer applies says so in `reason`. The decisions of a slice are
 * read at once. The rows a person decides are listed beside the batch as the report is written
 * (BatchStore.reviewRowsWriter), so that what still needs a person can be counted again without this pass.
 */
export async function writeReconciliation(
  sources: ReportSources,
  batchId: string,
  outputs: ReportOutputs,
  nameMatching: NameMatching,
  signal?: AbortSignal,
): Promise<WrittenReport> {
  const { store, history, decisions } = sources;
  const batch = await store.get(batchId);
  const environment = environmentOfQueue(batch.queueName);
  const showTime = (at: number) => localTime(at, outputs.timeZone);
  const counts = Object.fromEntries(RESULT_VALUES.map((value) => [value, 0])) as Record<ResultValue, number>;
  const changes = Object.fromEntries(CHANGE_VALUES.map((value) => [value, 0])) as Record<ChangeValue, number>;
  const review = zeroReviewCounts();
  const paths = [outputs.reportPath, ...(outputs.changesPath === undefined ? [] : [outputs.changesPath])];
  let failingPath = outputs.reportPath;
  const cannotWrite = (error: unknown) =>
    new OutputPathError(`cannot write the report ${failingPath}: ${describeError(error)}`, { cause: error });
  const sinkOptions = {
    delimiter: batch.layout.delimiter,
    resultColumn: batch.header.length,
    about: {
      title: `Reconciliation of ${batch.sourceName}`,
      description: `batch ${batchId}: every answer from ${batch.endpoint === undefined ? 'one endpoint (not recorded)' : describeEndpoint(batch.endpoint)}`,
    },
  };
  const sinks: RowSink[] = [];
  const reviewRows = store.reviewRowsWriter(batchId);
  let rows = 0;
  try {
    for (const path of paths) {
      failingPath = path;
      await mkdir(dirname(path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      sinks.push(await openSink(path, sinkOptions));
    }
    const [report, changed] = sinks as [RowSink, RowSink | undefined];
    const header = reportHeader(batch.header);
    for (const sink of sinks) await sink.write(header);
    const nameColumn = batch.mapping.expectedName;
    for (let start = 0; start < batch.rowCount; start += SLICE_ROWS) {
      if (signal?.aborted) throw new HandedBackError(`report of batch ${batchId} not written: stopped`);
      const slice = await store.readRows(batchId, start, SLICE_ROWS);
      const accounts = [...new Set(slice.flatMap((row) => (row.accountKey === null ? [] : [row.accountKey])))];
      const answers = await store.getAnswers(batchId, accounts);
      const reported = new Map<string, ResultValue>();
      const decidedRows = slice.map((row) => {
        const expectedName = nameColumn === undefined ? undefined : row.fields[nameColumn];
        const answer = row.accountKey === null ? undefined : answers.get(row.accountKey);
        const decided = decideRowResult(row.invalidReason, answer?.outcome, expectedName, nameMatching);
        const subject = { result: decided.result, accountKey: row.accountKey, expectedName, holderName: decided.outcome?.holderName };
        return { row, answer, decided, facts: decidableFacts(environment, subject), matchFacts: matchRowFacts(environment, subject) };
      });
      const judged = await decisions.judge(
        decidedRows.map(({ facts, matchFacts }) => facts ?? matchFacts),
        showTime,
      );
      // A MATCH row shows a decision only when a REJECTED one stands on its facts (matchRowFacts). A decision
      // whose holder name the bank changed after it was made, and has since given again, is void and ended.
      const ended: Array<{ decision: Decision; reason: string }> = [];
      const states = judged.map((judgedState, offset) => {
        const { facts, answer } = decidedRows[offset]!;
        const state = facts === undefined ? rejectionOfMatch(judgedState) : judgedState;
        const voided = state?.kind === 'stands' ? changedSinceDecided(state.decision, answer?.previous?.entry, showTime) : undefined;
        if (voided === undefined) return state;
        ended.push({ decision: voided.earlier, reason: voided.note });
        return facts === undefined ? undefined : voided;
      });
      await decisions.end(ended);
      const listed: ReviewRowEntry[] = [];
      for (const [offset, { row, answer, decided, facts, matchFacts }] of decidedRows.entries()) {
        const { change, note } = classifyChange(decided, answer?.previous);
        const state = states[offset];
        counts[decided.result] += 1;
        if (change !== undefined) changes[change] += 1;
        if (state !== undefined) countReviewState(review, state);
        if (state !== undefined && facts !== undefined)
          listed.push([start + offset + 1, row.accountKey!, facts.expectedName, facts.holderName]);
        // A MATCH row a rejection stands on: listed too, so that the console and `status` count it as the summary does.
        else if (state !== undefined && matchFacts !== undefined)
          listed.push([start + offset + 1, row.accountKey!, matchFacts.expectedName, matchFacts.holderName, 1]);
        // The verdicts of this batch's own valid answers go to the history (reused ones are another batch's).
        if (row.accountKey !== null && decided.outcome?.verdict === 'VERIFIED' && answer?.previous?.reused === false)
          reported.set(row.accountKey, decided.result);
        rows += 1;
        const sent = row.accountKey === null ? undefined : parseAccountKey(row.accountKey);
        const reason = [
          withChangeNote(decided.reason, note),
          bankTranslationNote(row.fields[batch.mapping.bankCode], sent?.bankCode),
          state?.kind === 'void' ? state.note : undefined,
          facts === undefined && state?.kind === 'stands'
            ? 'a REJECTED decision stands on this account, name and holder: do not pay'
            : undefined,
        ]
          .filter((part) => part)
          .join('; ');
        const decision =
          state?.kind === 'stands'
            ? {
                decision: state.decision.decision,
                decidedBy: state.decision.decidedBy,
                decidedAt: isoInZone(state.decision.decidedAt, outputs.timeZone),
              }
            : undefined;
        const cells = [...row.fields, ...resultCells({ ...decided, reason, change, accountNumberChecked: sent?.accountNumber, decision })];
        failingPath = outputs.reportPath;
        await report.write(cells);
        if (changed !== undefined && isNotableChange(change)) {
          failingPath = outputs.changesPath!;
          await changed.write(cells);
        }
      }
      await reviewRows.add(listed);
      await history.recordResults(batch.queueName, batchId, reported);
    }
    for (const [index, sink] of sinks.entries()) {
      failingPath = paths[index]!;
      await sink.close();
    }
    await reviewRows.commit();
  } catch (error) {
    await Promise.all(sinks.map((sink) => sink.discard()));
    // Not in the way of the error that stopped the report: a list left behind expires by itself.
    await reviewRows.discard().catch(() => undefined);
    if (error instanceof HandedBackError || !isFileSystemError(error)) throw error;
    throw cannotWrite(error);
  }
  return {
    rows,
    counts,
    changes,
    review,
    reusedAnswers: await store.reusedAnswers(batchId),
    ...(outputs.changesPath !== undefined && { changesReport: outputs.changesPath }),
  };
}

const isFileSystemError = (error: unknown): boolean =>
  error instanceof Error &&
  typeof (error as NodeJS.ErrnoException).code === 'string' &&
  (error as NodeJS.ErrnoException).syscall !== undefined;
