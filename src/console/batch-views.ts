import { batchState, type BatchProgress, type BatchRecord, type BatchState, type BatchStore } from '../batch/batch-store.js';
import { NEEDS_A_PERSON, readDecidedRows } from '../batch/decided-rows.js';
import { RowTally, zeroCounts, type ResultCounts } from '../batch/row-tally.js';
import { maskAccountNumber, maskDigitRuns } from '../logging/logger.js';
import type { NameMatching } from '../matching/compare-names.js';

/** A batch as the JSON API and the pages show it: no row data, so nothing to mask but the file name. */
export interface BatchView {
  batchId: string;
  source: { name: string; file: string };
  createdAt: string;
  rows: number;
  invalidRows: number;
  accounts: number | null;
  answered: number;
  /** Share of accounts answered, 0-100 (100 once an all-invalid file is stored). */
  percent: number;
  state: BatchState;
  /** Rows by result: the report's counts once reported, rows decided so far before (null where not read). */
  counts: ResultCounts | null;
  /** Inquiry calls made for the batch over all its runs. */
  calls: number;
  reportedAt: string | null;
  /** The last report written for the batch (a path on the machine that wrote it). */
  report: string | null;
}

/** A batch as the console shows it: counts always known (so far, or the report's). */
export type CountedBatchView = BatchView & { counts: ResultCounts };

/** One row a person must look at, as shown: account number masked, digit runs in free text masked. */
export interface ReviewRow {
  row: number;
  reference: string;
  bankCode: string;
  accountNumber: string;
  expectedName: string;
  result: string;
  nameScore: number | null;
  holderName: string;
  reason: string;
}

export interface ReviewPage {
  rows: ReviewRow[];
  /** Where the next page starts (a row index), null when the batch was read to its end. */
  next: number | null;
}

const TALLIES_KEPT = 50;
const TALLY_EVERY_MS = 1_000;
/** Rows read per review request at most: a page of a million-row batch with few mismatches stays cheap. */
const REVIEW_SCAN_ROWS = 5_000;
const REVIEW_SLICE_ROWS = 1_000;

/**
 * Reads batches for the console, straight from Redis. Counts of a batch in progress come from a running
 * tally per batch (see RowTally), advanced at most once a second whoever asks: polling pages never make
 * the console read a whole batch again.
 */
export class BatchViews {
  private readonly tallies = new Map<string, { tally: RowTally; advancedAt: number; advancing?: Promise<ResultCounts> }>();

  constructor(
    private readonly store: BatchStore,
    private readonly nameMatching: NameMatching,
  ) {}

  async list(limit: number): Promise<CountedBatchView[]> {
    const ids = await this.store.list(limit);
    return Promise.all(ids.map((batchId) => this.one(batchId)));
  }

  async one(batchId: string): Promise<CountedBatchView> {
    const [batch, progress] = await Promise.all([this.store.get(batchId), this.store.progress(batchId)]);
    const reported = batchState(progress) === 'reported' && batch.reportCounts !== undefined;
    return batchView(batch, progress, reported ? { ...zeroCounts(), ...batch.reportCounts } : await this.countsSoFar(batch));
  }

  /** Rows needing a person (CLOSE_MATCH, NO_MATCH, FAILED with an answer), from row `from`, `limit` at most. */
  async review(batchId: string, from: number, limit: number): Promise<ReviewPage> {
    const batch = await this.store.get(batchId);
    const rows: ReviewRow[] = [];
    let cursor = from;
    while (cursor < from + REVIEW_SCAN_ROWS) {
      const slice = await readDecidedRows(this.store, batch, cursor, REVIEW_SLICE_ROWS, this.nameMatching);
      for (const decidedRow of slice) {
        cursor = decidedRow.index + 1;
        if (decidedRow.answered && NEEDS_A_PERSON.has(decidedRow.decided.result)) rows.push(reviewRow(batch, decidedRow));
        if (rows.length >= limit) return { rows, next: cursor < batch.rowCount ? cursor : null };
      }
      if (slice.length < REVIEW_SLICE_ROWS) return { rows, next: batch.producedAt === undefined ? cursor : null };
    }
    return { rows, next: cursor };
  }

  private async countsSoFar(batch: BatchRecord): Promise<ResultCounts> {
    // A new round (FAILED rows asked again) or a new producer generation invalidates what was counted.
    const key = `${batch.batchId}:${batch.round}:${batch.generation}`;
    let entry = this.tallies.get(key);
    if (entry === undefined) {
      entry = { tally: new RowTally(this.store, batch, this.nameMatching), advancedAt: 0 };
      this.tallies.set(key, entry);
      while (this.tallies.size > TALLIES_KEPT) this.tallies.delete(this.tallies.keys().next().value!);
    }
    // One advance at a time per tally: two requests at once must not count the same rows twice.
    if (entry.advancing === undefined && Date.now() - entry.advancedAt >= TALLY_EVERY_MS) {
      const current = entry;
      current.advancedAt = Date.now();
      current.advancing = current.tally.advance().finally(() => (current.advancing = undefined));
    }
    return entry.advancing ?? entry.tally.snapshot;
  }
}

/** A batch as shown; `counts` as known to the caller (the report's, rows decided so far, or none). */
export function batchView<C extends ResultCounts | null>(batch: BatchRecord, progress: BatchProgress, counts: C): BatchView & { counts: C } {
  const percent = !progress.produced ? 0 : progress.accountCount === 0 ? 100 : Math.floor((progress.answered * 100) / progress.accountCount);
  return {
    batchId: batch.batchId,
    source: { name: batch.sourceName, file: batch.sourceFile },
    createdAt: new Date(batch.createdAt).toISOString(),
    rows: batch.rowCount,
    invalidRows: batch.invalidCount,
    accounts: progress.produced ? progress.accountCount : null,
    answered: progress.answered,
    percent,
    state: batchState(progress),
    counts,
    calls: batch.calls,
    reportedAt: batch.reportedAt === undefined ? null : new Date(batch.reportedAt).toISOString(),
    report: batch.lastReport ?? null,
  };
}

function reviewRow(batch: BatchRecord, { index, row, decided }: Awaited<ReturnType<typeof readDecidedRows>>[number]): ReviewRow {
  const { mapping } = batch;
  const cell = (column: number | undefined) => (column === undefined ? '' : (row.fields[column] ?? ''));
  // The first column the mapping does not use is usually the payer's own id for the row.
  const referenceColumn = batch.header.findIndex((_, column) => column !== mapping.bankCode && column !== mapping.accountNumber && column !== mapping.expectedName);
  return {
    row: index + 1,
    reference: maskDigitRuns(referenceColumn < 0 ? '' : cell(referenceColumn)),
    bankCode: cell(mapping.bankCode),
    accountNumber: maskAccountNumber(cell(mapping.accountNumber).trim()),
    expectedName: cell(mapping.expectedName),
    result: decided.result,
    nameScore: decided.nameScore ?? null,
    holderName: decided.outcome?.holderName ?? '',
    reason: maskDigitRuns(decided.reason),
  };
}
