import type { NameMatching } from '../matching/compare-names.js';
import { decideRowResult, RESULT_VALUES, type ResultValue } from '../report/row-result.js';
import type { BatchRecord, BatchStore } from './batch-store.js';
import { readDecidedRows } from './decided-rows.js';

export type ResultCounts = Record<ResultValue, number>;

export const zeroCounts = (): ResultCounts => Object.fromEntries(RESULT_VALUES.map((value) => [value, 0])) as ResultCounts;

/** A row read before its account had an answer: looked at again (by its account) on the next advance. */
interface PendingRow {
  accountKey: string;
  expectedName: string | undefined;
}

export interface TallySettings {
  /** Rows read from Redis per advance at most. */
  window: number;
  /** Rows without an answer kept in memory at most; past it the tally waits for answers before reading on. */
  maxPending: number;
  /**
   * Rows read, or waiting rows looked up again, per Redis round trip. The tally shares its event loop with
   * `run`'s workers: deciding a row (name matching) costs 30-80 µs, so a whole window decided in one go
   * held the workers' replies back for 50-120 ms once a second, which the provider saw as a gap in the calls.
   * 200 rows a step still held them 20-50 ms once a second: a paced run (200/s) lost a send or more in each,
   * about 2% of its rate. 50 rows hold them a few ms, for a few more HMGETs of 50 fields a second.
   */
  step: number;
}

/**
 * A small `maxPending`: the queue answers in file order, so rows read far ahead of the answers are only
 * looked up again, every second, until they are answered (5,000 of them cost a 5,000-field HMGET a second).
 */
const DEFAULT_TALLY: TallySettings = { window: 2_000, maxPending: 500, step: 50 };

/**
 * Counts of results "so far" for a batch in progress, without reading the whole batch on every poll. The
 * tally walks the rows once, in file order, a window per advance: a row whose account is answered is
 * decided (as the report decides it) and counted; a row still waiting is remembered by its account and
 * looked up again on the next advance. Answers come roughly in file order (the queue is FIFO), so the
 * waiting rows stay few; at most `maxPending` are held, then the walk waits for them. When the batch is
 * answered the counts equal the report's.
 *
 * A tally belongs to one round of a batch: FAILED answers forgotten to be asked again (a new round) make
 * it stale, so callers key it by batch id and round.
 */
export class RowTally {
  private cursor = 0;
  private pending: PendingRow[] = [];
  private readonly counts = zeroCounts();

  constructor(
    private readonly store: Pick<BatchStore, 'readRows' | 'getOutcomes'>,
    private readonly batch: Pick<BatchRecord, 'batchId' | 'mapping'>,
    private readonly nameMatching: NameMatching,
    private readonly settings: TallySettings = DEFAULT_TALLY,
  ) {}

  /** Rows decided so far, by result. */
  get snapshot(): ResultCounts {
    return { ...this.counts };
  }

  /** Reads what was answered since the last advance; returns the counts so far. */
  async advance(): Promise<ResultCounts> {
    await this.recheckPending();
    let budget = this.settings.window;
    while (budget > 0 && this.pending.length < this.settings.maxPending) {
      const count = Math.min(budget, this.settings.maxPending - this.pending.length, this.settings.step);
      const slice = await readDecidedRows(this.store, this.batch, this.cursor, count, this.nameMatching);
      if (slice.length === 0) break;
      for (const { row, decided, answered } of slice) {
        if (answered) this.counts[decided.result] += 1;
        else this.pending.push({ accountKey: row.accountKey!, expectedName: this.expectedName(row.fields) });
      }
      this.cursor += slice.length;
      budget -= slice.length;
    }
    return this.snapshot;
  }

  private async recheckPending(): Promise<void> {
    const stillPending: PendingRow[] = [];
    for (let from = 0; from < this.pending.length; from += this.settings.step) {
      const rows = this.pending.slice(from, from + this.settings.step);
      const outcomes = await this.store.getOutcomes(this.batch.batchId, [...new Set(rows.map((row) => row.accountKey))]);
      for (const row of rows) {
        const outcome = outcomes.get(row.accountKey);
        if (outcome === undefined) stillPending.push(row);
        else this.counts[decideRowResult(null, outcome, row.expectedName, this.nameMatching).result] += 1;
      }
    }
    this.pending = stillPending;
  }

  private expectedName(fields: string[]): string | undefined {
    const column = this.batch.mapping.expectedName;
    return column === undefined ? undefined : fields[column];
  }
}
