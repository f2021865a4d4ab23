import type { BatchRecord, BatchStore } from '../batch/batch-store.js';
import { referenceColumn } from '../csv/columns.js';
import { readDecidedRows, type DecidedRow } from '../batch/decided-rows.js';
import { localTime } from '../clock/local-time.js';
import { environmentOfQueue } from '../queue/inquiry-queue.js';
import { maskDigitRuns, VISIBLE_ACCOUNT_DIGITS } from '../logging/logger.js';
import { plainNormalised } from '../matching/normalise.js';
import type { NameMatching } from '../matching/compare-names.js';
import type { ResultValue } from '../report/row-result.js';
import { decidableFacts, parseDecisionValue, type DecisionState } from '../review/decision.js';
import type { DecisionStore } from '../review/decision-store.js';
import type { KnownAnswer } from '../review/review-file.js';
import { reviewRow, type ReviewRow } from './batch-views.js';

/** The rows the desk lists: those a person decides, those without a definitive answer, and the invalid ones (to fix at the source). */
export const LISTED_RESULTS: readonly ResultValue[] = ['CLOSE_MATCH', 'NO_MATCH', 'FAILED', 'ACCOUNT_INVALID', 'INPUT_INVALID'];

export interface DeskFilter {
  /** Results listed (a subset of LISTED_RESULTS). */
  results: ReadonlySet<ResultValue>;
  /** `decided`: a decision stands; `undecided`: CLOSE_MATCH / NO_MATCH a person still has to decide. */
  decided: 'all' | 'decided' | 'undecided';
  /** Words of a reference or a name (all must appear), or the last digits of the account number. */
  search: string;
}

/** A listed row: as the review list shows it, with whether it can be decided and the decision that stands. */
export interface DeskRow extends ReviewRow {
  decidable: boolean;
  decision: { decision: string; decidedBy: string; decidedAt: string; decidedAtShown: string; note: string } | null;
}

export interface DeskPage {
  rows: DeskRow[];
  /** Where the next page starts (a row index), null when the batch was read to its end. */
  next: number | null;
}

/** A decision the console could not record: the HTTP status says why. */
export class DecisionRefusedError extends Error {
  override name = 'DecisionRefusedError';
  constructor(
    message: string,
    readonly statusCode: 403 | 409 | 422,
  ) {
    super(message);
  }
}

/** Rows read per request at most: a page of a million-row batch with few mismatches stays cheap. */
const SCAN_ROWS = 5_000;
const SLICE_ROWS = 1_000;
const MAX_NOTE_CHARACTERS = 500;

/**
 * The review desk of the batch page: the rows a person looks at, filtered and searched, a slice of the batch
 * at a time (each slice's decisions read at once), and the decisions people make on them. A decision is made
 * on the facts the batch stored (the account as sent, the expected name, the holder name the bank gave), by
 * the person the console knows, and stands in every later report with the same facts.
 */
export class ReviewDesk {
  constructor(
    private readonly store: BatchStore,
    private readonly decisions: Pick<DecisionStore, 'judge' | 'record'>,
    private readonly nameMatching: NameMatching,
    private readonly timeZone: string,
    /** The last answer stored for each account in an environment (see knownAnswers): a decision is made on the current facts only. */
    private readonly knownAnswers: (environment: string, accountKeys: string[], endpoint: string) => Promise<Map<string, KnownAnswer>>,
  ) {}

  async list(batchId: string, from: number, limit: number, filter: DeskFilter): Promise<DeskPage> {
    const batch = await this.store.get(batchId);
    const rows: DeskRow[] = [];
    let cursor = from;
    while (cursor < from + SCAN_ROWS) {
      const slice = await readDecidedRows(this.store, batch, cursor, SLICE_ROWS, this.nameMatching);
      const listed = slice.filter(
        (row) => row.answered && filter.results.has(row.decided.result) && matchesSearch(batch, row, filter.search),
      );
      const shown = await this.show(batch, listed);
      for (const row of listed) {
        const desk = shown.get(row.index)!;
        if (!decidedFilter(desk, filter.decided)) continue;
        rows.push(desk);
        if (rows.length >= limit) return { rows, next: row.index + 1 < batch.rowCount ? row.index + 1 : null };
      }
      cursor += slice.length;
      if (slice.length < SLICE_ROWS) return { rows, next: batch.producedAt === undefined ? cursor : null };
    }
    return { rows, next: cursor };
  }

  /**
   * Records `person`'s decision on row `row` (1-based) of the batch; returns the row as it stands now. `seen` is
   * the time (`decidedAt`, ISO) of the decision the person saw on the row, null or absent when they saw none: a
   * page older than somebody else's decision does not change it (409), nor does a batch older than the bank's
   * latest answer for the account decide on facts that are no longer the bank's.
   */
  async decide(
    batchId: string,
    row: number,
    written: { decision: unknown; note: unknown; seen?: unknown },
    person: string,
  ): Promise<DeskRow> {
    const decision = typeof written.decision === 'string' ? parseDecisionValue(written.decision) : undefined;
    if (decision === undefined) throw new DecisionRefusedError('decision must be APPROVED or REJECTED', 422);
    if (written.note !== undefined && typeof written.note !== 'string') throw new DecisionRefusedError('note must be text', 422);
    const seenAt =
      written.seen === undefined || written.seen === null
        ? undefined
        : typeof written.seen === 'string'
          ? Date.parse(written.seen)
          : Number.NaN;
    if (seenAt !== undefined && Number.isNaN(seenAt))
      throw new DecisionRefusedError(
        'seen must be the decidedAt of the decision the row showed (ISO time), or null when it showed none',
        422,
      );
    const note = (written.note ?? '').trim();
    if (note.length > MAX_NOTE_CHARACTERS) throw new DecisionRefusedError(`the note is longer than ${MAX_NOTE_CHARACTERS} characters`, 422);
    const batch = await this.store.get(batchId);
    const [decidedRow] =
      Number.isSafeInteger(row) && row >= 1 && row <= batch.rowCount
        ? await readDecidedRows(this.store, batch, row - 1, 1, this.nameMatching)
        : [];
    if (decidedRow === undefined) throw new DecisionRefusedError(`batch ${batchId} has no row ${row}`, 409);
    const facts = this.factsOf(batch, decidedRow);
    if (!decidedRow.answered || facts === undefined) {
      throw new DecisionRefusedError(
        `row ${row} is ${decidedRow.answered ? decidedRow.decided.result : 'not answered yet'}: only CLOSE_MATCH and NO_MATCH rows are decided`,
        409,
      );
    }
    const showTime = (at: number) => localTime(at, this.timeZone);
    const accountKey = decidedRow.row.accountKey!;
    const known = (await this.knownAnswers(facts.environment, [accountKey], batch.queueName)).get(accountKey);
    if (known === undefined || known.holderName !== facts.holderName) {
      throw new DecisionRefusedError(
        known === undefined
          ? `no answer for this account is stored for the ${facts.environment} environment any more: decide on a current batch`
          : known.holderName === undefined
            ? `the bank answered this account invalid since (checked ${showTime(known.answeredAt)}): there is no holder to decide on; see the latest batch`
            : `the bank's holder name for this account is now ${JSON.stringify(known.holderName)} (checked ${showTime(known.answeredAt)}), not ${JSON.stringify(facts.holderName)} as in this batch: decide on the latest batch`,
        409,
      );
    }
    const [outcome] = await this.decisions.record([{ facts, decision, decidedBy: person, note, seenAt, source: 'console', batchId, row }]);
    if (outcome?.status === 'stale') {
      const now = outcome.earlier;
      throw new DecisionRefusedError(
        now === undefined
          ? 'the decision this row showed no longer stands: load the row again'
          : `the decision on this row changed since the page showed it (now ${now.decision} by ${now.decidedBy}, ${showTime(now.decidedAt)}): load the row again`,
        409,
      );
    }
    return (await this.show(batch, [decidedRow])).get(decidedRow.index)!;
  }

  /** The rows as shown, with the decisions of all of them read at once. */
  private async show(batch: BatchRecord, rows: DecidedRow[]): Promise<Map<number, DeskRow>> {
    const showTime = (at: number) => localTime(at, this.timeZone);
    const states = await this.decisions.judge(
      rows.map((row) => this.factsOf(batch, row)),
      showTime,
    );
    return new Map(rows.map((row, index) => [row.index, deskRow(batch, row, states[index], showTime)]));
  }

  private factsOf(batch: BatchRecord, { row, decided }: DecidedRow) {
    const expectedName = batch.mapping.expectedName === undefined ? undefined : row.fields[batch.mapping.expectedName];
    return decidableFacts(environmentOfQueue(batch.queueName), {
      result: decided.result,
      accountKey: row.accountKey,
      expectedName,
      holderName: decided.outcome?.holderName,
    });
  }
}

function deskRow(batch: BatchRecord, row: DecidedRow, state: DecisionState | undefined, showTime: (at: number) => string): DeskRow {
  const shown = reviewRow(batch, row);
  const standing = state?.kind === 'stands' ? state.decision : undefined;
  return {
    ...shown,
    reason: state?.kind === 'void' ? maskDigitRuns([row.decided.reason, state.note].filter((part) => part).join('; ')) : shown.reason,
    decidable: state !== undefined,
    decision:
      standing === undefined
        ? null
        : {
            decision: standing.decision,
            // Free text, masked as the page's other cells are: a note may quote an account number.
            decidedBy: maskDigitRuns(standing.decidedBy),
            decidedAt: new Date(standing.decidedAt).toISOString(),
            decidedAtShown: showTime(standing.decidedAt),
            note: maskDigitRuns(standing.note),
          },
  };
}

function decidedFilter(row: DeskRow, decided: DeskFilter['decided']): boolean {
  if (decided === 'decided') return row.decision !== null;
  if (decided === 'undecided') return row.decidable && row.decision === null;
  return true;
}

/**
 * A search of all digits is the end of the account number (what people read off a masked list or a
 * transfer slip), or digits of a reference; anything else is words that must all appear in the reference, the expected name or the
 * holder name, folded as names are (case, accents, punctuation).
 */
/**
 * The account matches the digits the list shows of it (the last four, or fewer), or the whole number: never a
 * longer end of it, or every search would be a way to read the hidden digits one at a time (a search for
 * `5022`, then `15022`, `615022`... answered yes or no by the rows listed).
 */
const accountMatches = (account: string, digits: string): boolean =>
  digits.length <= VISIBLE_ACCOUNT_DIGITS ? account.endsWith(digits) : account === digits;

function matchesSearch(batch: BatchRecord, { row, decided }: DecidedRow, search: string): boolean {
  const query = search.trim();
  if (query === '') return true;
  const cell = (column: number | undefined) => (column === undefined ? '' : (row.fields[column] ?? ''));
  const { mapping } = batch;
  // What the list shows of them, digit runs masked: a search must not find the digits a cell hides (a reference
  // holding an account number, `pay 0060009876543 now`, would otherwise give them away one query at a time).
  const haystack = plainNormalised(
    maskDigitRuns([cell(referenceColumn(batch.header, mapping)), cell(mapping.expectedName), decided.outcome?.holderName ?? ''].join(' ')),
  );
  if (/^\d+$/.test(query)) return accountMatches(cell(mapping.accountNumber).replace(/\D/g, ''), query) || haystack.includes(query);
  return plainNormalised(query)
    .split(' ')
    .every((word) => haystack.includes(word));
}
