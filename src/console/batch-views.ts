import { batchState, type BatchProgress, type BatchRecord, type BatchState, type BatchStore } from '../batch/batch-store.js';
import type { DecidedRow } from '../batch/decided-rows.js';
import { countReview } from '../batch/review-counts.js';
import { fileNotes } from '../batch/file-notes.js';
import type { Endpoint } from '../config/endpoint.js';
import { referenceColumn } from '../csv/columns.js';
import { RowTally, zeroCounts, type ResultCounts } from '../batch/row-tally.js';
import { maskAccountNumber, maskDigitRuns } from '../logging/logger.js';
import type { NameMatching } from '../matching/compare-names.js';
import type { ReviewCounts } from '../review/decision.js';
import type { DecisionStore } from '../review/decision-store.js';

/** A batch as the JSON API and the pages show it: no row data; its file names and paths are free text, masked. */
export interface BatchView {
  batchId: string;
  source: { name: string; file: string };
  /** Where the batch's answers come from (null: a batch made before it was recorded). */
  endpoint: Endpoint | null;
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
  /** What the reading of its file did that a person must know (fileNotes): other sheets not read, a header alone, an encoding. */
  notes: string[];
  /** The last report written for the batch (a path on the machine that wrote it). */
  report: string | null;
  /**
   * What a person still has to do in a reported batch, against the decisions standing now: CLOSE_MATCH /
   * NO_MATCH rows without one (`needsReview`), and those decided. Null before the report (or for a batch
   * reported before decisions were kept).
   */
  review: ReviewCounts | null;
}

/** A batch as the console shows it: counts always known (so far, or the report's). */
export type CountedBatchView = BatchView & { counts: ResultCounts };

/** One row a person must look at, as shown: account number masked, every other cell masked as free text. */
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

const TALLIES_KEPT = 50;
const TALLY_EVERY_MS = 1_000;

/**
 * Reads batches for the console, straight from Redis. Counts of a batch in progress come from a running
 * tally per batch (see RowTally), advanced at most once a second whoever asks: polling pages never make
 * the console read a whole batch again.
 */
export class BatchViews {
  private readonly tallies = new Map<string, { tally: RowTally; advancedAt: number; advancing?: Promise<ResultCounts> }>();
  /** Review counts per batch, counted again only when a decision was recorded since (or the batch reported again). */
  private readonly reviews = new Map<string, { version: string; counts: Promise<ReviewCounts | undefined> }>();

  constructor(
    private readonly store: BatchStore,
    private readonly decisions: Pick<DecisionStore, 'judge' | 'version'>,
    private readonly nameMatching: NameMatching,
  ) {}

  async list(limit: number): Promise<CountedBatchView[]> {
    const [ids, version] = await Promise.all([this.store.list(limit), this.decisions.version()]);
    return Promise.all(ids.map((batchId) => this.one(batchId, version)));
  }

  async one(batchId: string, decisionsVersion?: string): Promise<CountedBatchView> {
    const [batch, progress] = await Promise.all([this.store.get(batchId), this.store.progress(batchId)]);
    const reported = batchState(progress) === 'reported' && batch.reportCounts !== undefined;
    if (!reported) return batchView(batch, progress, await this.countsSoFar(batch));
    const review = await this.reviewCounts(batch, decisionsVersion ?? (await this.decisions.version()));
    return batchView(batch, progress, { ...zeroCounts(), ...batch.reportCounts }, review ?? null);
  }

  private reviewCounts(batch: BatchRecord, decisionsVersion: string): Promise<ReviewCounts | undefined> {
    const version = `${decisionsVersion}|${batch.reportedAt}`;
    const cached = this.reviews.get(batch.batchId);
    if (cached?.version === version) return cached.counts;
    const counts = countReview(this.store, this.decisions, batch);
    // A failed count is not kept: the next request tries again.
    counts.catch(() => this.reviews.delete(batch.batchId));
    this.reviews.delete(batch.batchId);
    this.reviews.set(batch.batchId, { version, counts });
    while (this.reviews.size > TALLIES_KEPT) this.reviews.delete(this.reviews.keys().next().value!);
    return counts;
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
export function batchView<C extends ResultCounts | null>(
  batch: BatchRecord,
  progress: BatchProgress,
  counts: C,
  review: ReviewCounts | null = null,
): BatchView & { counts: C } {
  const percent = !progress.produced
    ? 0
    : progress.accountCount === 0
      ? 100
      : Math.floor((progress.answered * 100) / progress.accountCount);
  return {
    batchId: batch.batchId,
    source: { name: maskDigitRuns(batch.sourceName), file: maskDigitRuns(batch.sourceFile) },
    endpoint: batch.endpoint ?? null,
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
    notes: fileNotes(batch).map(maskDigitRuns),
    report: batch.lastReport === undefined ? null : maskDigitRuns(batch.lastReport),
    review,
  };
}

/** One row as the review list shows it: account number masked, digit runs in free text masked. */
export function reviewRow(batch: BatchRecord, { index, row, decided }: DecidedRow): ReviewRow {
  const { mapping } = batch;
  const cell = (column: number | undefined) => (column === undefined ? '' : (row.fields[column] ?? ''));
  return {
    row: index + 1,
    reference: maskDigitRuns(cell(referenceColumn(batch.header, mapping))),
    bankCode: maskDigitRuns(cell(mapping.bankCode)),
    accountNumber: maskAccountNumber(cell(mapping.accountNumber).trim()),
    expectedName: maskDigitRuns(cell(mapping.expectedName)),
    result: decided.result,
    nameScore: decided.nameScore ?? null,
    holderName: maskDigitRuns(decided.outcome?.holderName ?? ''),
    reason: maskDigitRuns(decided.reason),
  };
}
