import { rm } from 'node:fs/promises';
import { describeEndpoint, type Endpoint } from '../config/endpoint.js';
import { describeRoles, roleColumns, type RoleColumns } from '../csv/columns.js';
import { describeError, OutputPathError } from '../errors.js';
import { CHANGE_VALUES } from '../history/change.js';
import { RESULT_VALUES, type ResultValue } from '../report/row-result.js';
import type { BatchRecord } from './batch-store.js';
import type { Continuation } from './continuation.js';
import type { WrittenReport } from './report-writer.js';
import { writeWholeFile } from '../report/temporary-file.js';
import { fileNotes } from './file-notes.js';

/** Figures of one run (one command, one watched file, one nightly run), beside the batch's totals. */
export interface BatchSummary {
  batchId: string;
  /** The input of this run (the batch may have been made from a file of the same content elsewhere). */
  sourceFile: string;
  /** How the input's bytes were read: `utf-8`, `utf-16le`, `utf-16be` or `windows-1252`. */
  encoding: string;
  /** Where every answer of the report comes from: the provider environment and base address (null: a batch made before it was recorded). */
  endpoint: Endpoint | null;
  /** The input column read for each role (null: the file has no expected-name column, rows are VERIFIED). */
  columns: RoleColumns;
  /** Columns of an earlier report the input carried: not read, not repeated (this report's own take their place). */
  replacedColumns?: string[];
  /** What the reading of the file did that a person must know (fileNotes): other sheets not read, a header alone, an encoding. */
  notes: string[];
  report: string;
  rows: number;
  accounts: number;
  counts: Record<ResultValue, number>;
  /** CLOSE_MATCH and NO_MATCH rows without a standing decision: what a person still has to look at. */
  needsReview: number;
  /** Rows whose standing decision is APPROVED (pay) / REJECTED (do not pay). */
  approved: number;
  rejected: number;
  /** Rows per `change` value: against each account's last answer in an earlier batch. */
  changes: WrittenReport['changes'];
  /** The rows whose change needs a look, when this entry point writes them (`watch`, `schedule`). */
  changesReport?: string;
  /** Accounts answered from history instead of asked (`--reuse-answers`, over the batch's runs): inquiry calls saved. */
  reusedAnswers: number;
  /** True when this run continued an existing batch instead of starting one; `continuation` says how. */
  continued: boolean;
  continuation: Continuation['kind'];
  /** This run: inquiry calls made for the batch while it ran (retries included; by any worker), 429s among them. */
  calls: number;
  rateLimited: number;
  /**
   * Calls per second the provider allowed during this run: the configured rate, or after 429s the shared
   * pacer's slowed rate at the end of the run, never above the rate the provider last refused.
   */
  allowedRate?: number;
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  /** The batch over all its runs. */
  batch: { createdAt: string; calls: number; rateLimited: number; sourceFile: string };
  /** Set when the provider stayed down past the outage budget: the unanswered rows are FAILED. */
  incomplete?: string;
}

/** What a run knew when it started, to tell its own figures from the batch's. */
export interface RunStart {
  inputPath: string;
  startedAt: number;
  /** The same moment on the monotonic clock: the run's duration is measured on it (a step of the wall clock is no time). */
  startedElapsed: number;
  continuation: Continuation;
  callsBefore: number;
  rateLimitedBefore: number;
  usableAnswersBefore: number;
}

export function buildSummary(
  run: RunStart,
  batch: BatchRecord,
  written: WrittenReport,
  reportPath: string,
  finished: { at: number; elapsed: number },
  allowedRate?: number,
): BatchSummary {
  return {
    batchId: batch.batchId,
    sourceFile: run.inputPath,
    encoding: batch.layout.encoding ?? 'utf-8',
    endpoint: batch.endpoint ?? null,
    columns: roleColumns(batch.header, batch.mapping),
    ...(batch.replacedColumns.length > 0 && { replacedColumns: batch.replacedColumns }),
    notes: fileNotes(batch),
    report: reportPath,
    rows: written.rows,
    accounts: batch.accountCount,
    counts: written.counts,
    ...written.review,
    changes: written.changes,
    ...(written.changesReport !== undefined && { changesReport: written.changesReport }),
    reusedAnswers: written.reusedAnswers,
    continued: run.continuation.kind !== 'new',
    continuation: run.continuation.kind,
    calls: batch.calls - run.callsBefore,
    rateLimited: batch.rateLimited - run.rateLimitedBefore,
    ...(allowedRate !== undefined && { allowedRate: Math.round(allowedRate * 100) / 100 }),
    startedAt: new Date(run.startedAt).toISOString(),
    finishedAt: new Date(finished.at).toISOString(),
    durationSeconds: Math.round((finished.elapsed - run.startedElapsed) / 100) / 10,
    batch: {
      createdAt: new Date(batch.createdAt).toISOString(),
      calls: batch.calls,
      rateLimited: batch.rateLimited,
      sourceFile: batch.sourceFile,
    },
  };
}

/** `out/report.csv` (or `.xlsx`) -> `out/report.summary.json`. */
export const summaryPathFor = (reportPath: string): string => `${reportPath.replace(/\.(csv|xlsx)$/i, '')}.summary.json`;

/**
 * The summary JSON beside the report; `extras` are fields of the entry point (input name, nightly run,
 * duplicate note). Written whole under a temporary name: a full disk leaves no 0-byte or cut summary. When
 * it cannot be written, an earlier summary at that path is removed too: it describes an earlier report, not
 * the one just written beside it (the batch is then not marked finished: the same command writes both again).
 */
export async function writeSummary(summary: BatchSummary, extras: Record<string, unknown> = {}): Promise<void> {
  const path = summaryPathFor(summary.report);
  try {
    await writeWholeFile(path, `${JSON.stringify({ ...summary, ...extras }, null, 2)}\n`);
  } catch (error) {
    await rm(path, { force: true }).catch(() => undefined);
    throw new OutputPathError(`cannot write the summary ${path}: ${describeError(error)}`, { cause: error });
  }
}

const describeColumnsRead = ({ columns, replacedColumns }: BatchSummary): string =>
  `${describeRoles(columns)}${replacedColumns === undefined ? '' : `; the earlier report's ${replacedColumns.join(', ')} replaced`}`;

/** What the first line of a continued batch's summary says the run did with it. */
const CONTINUED: Record<Continuation['kind'], string> = {
  new: 'new',
  continue: 'continued',
  retry_failed: 'continued: its FAILED rows asked again',
  reuse: 'same content: its answers reported again',
};

export function formatSummary(summary: BatchSummary): string {
  const counts = RESULT_VALUES.map((value) => `  ${value.padEnd(16)}${summary.counts[value]}`).join('\n');
  const totals =
    summary.continued && summary.batch.calls !== summary.calls
      ? `\n  (batch ${summary.batchId} since ${summary.batch.createdAt}: ${summary.batch.calls} calls in all)`
      : '';
  return [
    `batch ${summary.batchId}${summary.continued ? ` (${CONTINUED[summary.continuation]})` : ''}: ${summary.rows} rows, ${summary.accounts} distinct accounts, ${summary.calls} inquiry calls this run${
      summary.rateLimited > 0
        ? ` (${summary.rateLimited} answered 429${summary.allowedRate === undefined ? '' : `; the provider allowed about ${summary.allowedRate}/s`})`
        : ''
    }, ${summary.durationSeconds}s${totals}`,
    counts,
    `review: ${summary.needsReview} row(s) need a person (CLOSE_MATCH / NO_MATCH without a decision); decided: ${summary.approved} APPROVED, ${summary.rejected} REJECTED`,
    `changes: ${CHANGE_VALUES.map((value) => `${value} ${summary.changes[value]}`).join(', ')}${
      summary.reusedAnswers > 0 ? `; ${summary.reusedAnswers} answer(s) reused from earlier batches (calls saved)` : ''
    }`,
    `endpoint: ${summary.endpoint === null ? 'not recorded (a batch made before endpoints were)' : describeEndpoint(summary.endpoint)}`,
    `columns read: ${describeColumnsRead(summary)}`,
    // Said at the start too, but that line has scrolled away by the end of a long run.
    ...summary.notes.map((note) => `note: ${note}`),
    `report: ${summary.report}`,
    ...(summary.changesReport === undefined ? [] : [`changed rows: ${summary.changesReport}`]),
    `summary: ${summaryPathFor(summary.report)}`,
  ].join('\n');
}
