import type { RedisClient } from '../redis/connection.js';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { ColumnMapping } from '../csv/columns.js';
import type { CsvLayout } from '../csv/reader.js';
import { OUTCOME_VALUE_COUNT, outcomeFromValues, outcomeValues, type InquiryOutcome } from '../provider/outcome.js';
import type { DefinitiveOutcome, HistoryEntry, HistoryWrite, PreviousAnswer } from '../history/account-history.js';
import { decodeHistoryEntry, encodeHistoryEntry } from '../history/entry-codec.js';
import { BatchNotFoundError } from '../errors.js';
import type { CallCounts } from '../queue/call-tally.js';
import { runCommand } from '../redis/commands/define.js';
import { newJobSealKey } from '../queue/job-seal.js';
import { inquiryGroups, keepingAccounts, singleInquiries, type InquiryGroup } from '../queue/inquiry-queue.js';
import {
  BATCH_APPEND_ROWS,
  BATCH_COMMIT_REVIEW_ROWS,
  BATCH_COUNT,
  BATCH_JOB_SEAL,
  BATCH_MARK_GIVEN_UP,
  BATCH_MARK_PRODUCED,
  BATCH_MARK_REPORTED,
  BATCH_FORGET_FAILED,
  BATCH_NEXT_ROUND,
  BATCH_SAVE_ANSWER,
  BATCH_SAVE_OUTCOME,
  BATCH_START_GENERATION,
  INDEX_DROP_CONTENT,
} from '../redis/commands/batch.js';
import type { RedisKeys } from '../redis/keys.js';
import type { Endpoint } from '../config/endpoint.js';

export interface BatchRecord {
  batchId: string;
  /** The file the batch was first made from (a later run of the same content may come from another path). */
  sourceFile: string;
  /** The name people know the input by (the file name dropped into the watched folder, say). */
  sourceName: string;
  contentHash: string;
  /** The inquiry queue, one per endpoint: the identity of the endpoint whose answers the batch holds. */
  queueName: string;
  /** That endpoint as people name it; undefined for a batch made before it was recorded. */
  endpoint: Endpoint | undefined;
  /**
   * The queue belongs to the built-in emulator of one `run` (its address, hence its name, is that run's own):
   * nobody else ever uses it, so it is removed with the last batch that names it.
   */
  throwAwayQueue: boolean;
  layout: CsvLayout;
  /**
   * A workbook's sheet read and its other sheets (`"Old" (hidden)`), which are not; undefined for a CSV, or
   * a batch made before it was recorded. Said wherever the batch is shown (fileNotes).
   */
  sheets: { read: string; notRead: string[] } | undefined;
  /** The input's columns the report repeats (without those of an earlier report: see readInputColumns). */
  header: string[];
  mapping: ColumnMapping;
  /** Columns of an earlier report the input carried: not read, not repeated (this batch's report writes its own). */
  replacedColumns: string[];
  /** Data rows: the inspected count until production ends, then the count of rows stored. */
  rowCount: number;
  createdAt: number;
  /** Set when every row is stored and every account queued; until then the batch cannot be complete. */
  producedAt: number | undefined;
  /** Distinct accounts to ask, as stored; final once producedAt is set. */
  accountCount: number;
  invalidCount: number;
  /** Inquiry HTTP calls made for the batch, retries included, over all its runs. */
  calls: number;
  rateLimited: number;
  /** Inquiry jobs that met a bug in this tool (their rows are FAILED saying so). */
  internalErrors: number;
  /**
   * Calls answered in the provider's protocol, over all its runs: VERIFIED, ACCOUNT_INVALID, or FAILED for
   * what the record says (a status other than SUCCESS...). A run whose calls got none had no usable answer
   * from the provider (see BatchLifecycle.check).
   */
  usableAnswers: number;
  /** The producer generation that may write rows (see BATCH_START_GENERATION). */
  generation: number;
  /** Bumped each time FAILED answers are forgotten to be asked again: part of the job ids of that round. */
  round: number;
  /** How many accounts each of its inquiry jobs asks (accountsPerJob), fixed when it is made; 1 for a batch made before. */
  accountsPerJob: number;
  /** Set when a report was written with every row answered: the batch is finished. */
  reportedAt: number | undefined;
  /** The last report written for it. */
  lastReport: string | undefined;
  /** Rows per `result` in that report (the console lists them without reading the batch). */
  reportCounts: Record<string, number> | undefined;
}

export type NewBatch = Pick<
  BatchRecord,
  | 'batchId'
  | 'sourceFile'
  | 'sourceName'
  | 'contentHash'
  | 'queueName'
  | 'layout'
  | 'header'
  | 'mapping'
  | 'replacedColumns'
  | 'rowCount'
  | 'createdAt'
> &
  Partial<Pick<BatchRecord, 'throwAwayQueue' | 'accountsPerJob' | 'sheets'>> & { endpoint: Endpoint };

/** The accounts a slice of rows registered first (BatchStore.appendRows), in the order seen, and the first one's place in the batch's account order. */
export interface FirstSeen {
  accountKeys: string[];
  firstOrdinal: number;
}

/** A row as stored: its input fields, its account key when valid, its INPUT_INVALID reason when not. */
export interface StoredRow {
  fields: string[];
  accountKey: string | null;
  invalidReason: string | null;
}

export interface BatchProgress {
  rowCount: number;
  accountCount: number;
  answered: number;
  produced: boolean;
  /** Every account of a fully produced batch has an answer. */
  complete: boolean;
  reported: boolean;
  /** The batch's round (BatchRecord.round): it moves when its FAILED accounts are asked again. */
  round: number;
}

export type BatchState = 'reading' | 'checking' | 'answered' | 'reported';

/** Where a batch stands: rows still being stored, accounts being asked, every account answered, report written. */
export const batchState = (progress: BatchProgress): BatchState =>
  progress.reported ? 'reported' : progress.complete ? 'answered' : progress.produced ? 'checking' : 'reading';

/** A batch id sorts by time and is readable in file names: b20261121-065203-3f9a1c. */
export function newBatchId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `b${stamp}-${randomBytes(3).toString('hex')}`;
}

/** The producer's generation was replaced: it must stop writing (see BATCH_START_GENERATION). */
export class ProductionFencedError extends Error {
  override name = 'ProductionFencedError';
}

/** What the batch commands answer when the batch record is gone (see commands/batch.ts): nothing was written. */
const GONE = -1;

/**
 * Everything the tool keeps about a batch lives in Redis, so any process can continue or report it. Redis is
 * working state: every key of a batch expires `retentionMs` after the last write to it (a finished batch:
 * after its last report; the report on disk is the record), and nothing is written to a batch whose record
 * is gone, so no key of it is ever left without an expiry.
 */
export class BatchStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    /** BATCH_RETENTION. */
    private readonly retentionMs: number,
  ) {}

  async create(record: NewBatch): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.batch(record.batchId), {
        batchId: record.batchId,
        sourceFile: record.sourceFile,
        sourceName: record.sourceName,
        contentHash: record.contentHash,
        queueName: record.queueName,
        endpoint: JSON.stringify(record.endpoint),
        ...(record.throwAwayQueue === true && { throwAwayQueue: 1 }),
        layout: JSON.stringify(record.layout),
        ...(record.sheets !== undefined && { sheets: JSON.stringify(record.sheets) }),
        header: JSON.stringify(record.header),
        mapping: JSON.stringify(record.mapping),
        ...(record.replacedColumns.length > 0 && { replacedColumns: JSON.stringify(record.replacedColumns) }),
        rowCount: record.rowCount,
        createdAt: record.createdAt,
        accountCount: 0,
        invalidCount: 0,
        calls: 0,
        rateLimited: 0,
        generation: 0,
        round: 0,
        ...(record.accountsPerJob !== undefined && record.accountsPerJob > 1 && { accountsPerJob: record.accountsPerJob }),
      })
      .pexpire(this.keys.batch(record.batchId), this.retentionMs)
      .exec();
    // The index keys live outside the batch's slot, so they are written apart (after the record exists).
    await this.redis.zadd(this.keys.batches(), record.createdAt, record.batchId);
    await this.redis.hset(this.keys.batchesByContent(), contentAtEndpoint(record.queueName, record.contentHash), record.batchId);
  }

  async get(batchId: string): Promise<BatchRecord> {
    const fields = await this.redis.hgetall(this.keys.batch(batchId));
    if (fields.batchId === undefined) throw new BatchNotFoundError(batchId);
    const optionalNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));
    return {
      batchId: fields.batchId,
      sourceFile: fields.sourceFile ?? '',
      sourceName: fields.sourceName ?? '',
      contentHash: fields.contentHash ?? '',
      queueName: fields.queueName ?? '',
      endpoint: fields.endpoint === undefined ? undefined : (JSON.parse(fields.endpoint) as Endpoint),
      throwAwayQueue: fields.throwAwayQueue === '1',
      layout: JSON.parse(fields.layout ?? '{"delimiter":","}') as CsvLayout,
      sheets: fields.sheets === undefined ? undefined : (JSON.parse(fields.sheets) as BatchRecord['sheets']),
      header: JSON.parse(fields.header ?? '[]') as string[],
      mapping: JSON.parse(fields.mapping ?? '{}') as ColumnMapping,
      replacedColumns: JSON.parse(fields.replacedColumns ?? '[]') as string[],
      rowCount: Number(fields.rowCount ?? 0),
      createdAt: Number(fields.createdAt ?? 0),
      producedAt: optionalNumber(fields.producedAt),
      accountCount: Number(fields.accountCount ?? 0),
      invalidCount: Number(fields.invalidCount ?? 0),
      calls: Number(fields.calls ?? 0),
      rateLimited: Number(fields.rateLimited ?? 0),
      internalErrors: Number(fields.internalErrors ?? 0),
      usableAnswers: Number(fields.usableAnswers ?? 0),
      generation: Number(fields.generation ?? 0),
      round: Number(fields.round ?? 0),
      accountsPerJob: Number(fields.accountsPerJob ?? 1),
      reportedAt: optionalNumber(fields.reportedAt),
      lastReport: fields.lastReport,
      reportCounts: fields.reportCounts === undefined ? undefined : (JSON.parse(fields.reportCounts) as Record<string, number>),
    };
  }

  /**
   * The latest batch made from this content at this endpoint (`queueName`), if it is still in Redis (an
   * entry of an expired one is dropped). An entry written before the index named the endpoint is taken
   * only when its batch is of this endpoint.
   */
  async latestByContent(queueName: string, contentHash: string): Promise<string | undefined> {
    const [current, legacy] = await this.redis.hmget(this.keys.batchesByContent(), contentAtEndpoint(queueName, contentHash), contentHash);
    for (const batchId of [current, legacy]) {
      if (batchId === null || batchId === undefined) continue;
      const found = await this.redis.hget(this.keys.batch(batchId), 'queueName');
      if (found === null) await dropContentEntry(this.redis, this.keys, queueName, contentHash, batchId);
      else if (found === queueName) return batchId;
    }
    return undefined;
  }

  /** Newest first; entries of batches that expired meanwhile are dropped from the index on the way. */
  async list(limit = 50): Promise<string[]> {
    const listed: string[] = [];
    for (let start = 0; listed.length < limit; ) {
      const ids = await this.redis.zrevrange(this.keys.batches(), start, start + limit - listed.length - 1);
      if (ids.length === 0) break;
      const exists = await Promise.all(ids.map((id) => this.redis.exists(this.keys.batch(id))));
      const expired = ids.filter((_, index) => exists[index] === 0);
      listed.push(...ids.filter((_, index) => exists[index] === 1));
      if (expired.length > 0) await this.redis.zrem(this.keys.batches(), ...expired);
      start += ids.length - expired.length;
    }
    return listed;
  }

  /** The queues (provider endpoints) the batches in Redis were checked on. */
  async endpoints(): Promise<Set<string>> {
    const ids = await this.redis.zrange(this.keys.batches(), 0, '-1');
    const found = new Set<string>();
    for (let start = 0; start < ids.length; start += 1_000) {
      const names = await Promise.all(ids.slice(start, start + 1_000).map((id) => this.redis.hget(this.keys.batch(id), 'queueName')));
      for (const name of names) if (name !== null) found.add(name);
    }
    return found;
  }

  /** Takes the next producer generation, dropping the rows of any earlier production. */
  async startGeneration(batchId: string): Promise<number> {
    const generation = await runCommand<number>(this.redis, BATCH_START_GENERATION, this.batchKeys(batchId), [
      ROWS_PER_BLOCK,
      this.retentionMs,
    ]);
    if (generation === GONE) throw new BatchNotFoundError(batchId);
    return generation;
  }

  /**
   * Appends rows in file order and registers their accounts; returns the account keys seen for the
   * first time in this batch, which are the only ones to ask, in the order seen, and the first one's
   * ordinal in the batch's account order (see InquiryGroup). Throws ProductionFencedError when a newer
   * generation took production over.
   */
  async appendRows(batchId: string, generation: number, rows: StoredRow[]): Promise<FirstSeen> {
    if (rows.length === 0) return { accountKeys: [], firstOrdinal: 0 };
    if (rows.length > ROWS_PER_BLOCK) throw new Error(`at most ${ROWS_PER_BLOCK} rows are appended at a time, not ${rows.length}`);
    const reply = await runCommand<[number, string[]?, number?]>(this.redis, BATCH_APPEND_ROWS, this.batchKeys(batchId), [
      generation,
      this.retentionMs,
      await encodeBlock(rows),
      rows.length,
      ...rows.flatMap((row) => (row.accountKey === null ? [] : [row.accountKey])),
    ]);
    if (reply[0] === GONE) throw new BatchNotFoundError(batchId);
    if (reply[0] !== 1) throw new ProductionFencedError(`batch ${batchId} is being produced by another process`);
    return { accountKeys: reply[1] ?? [], firstOrdinal: reply[2] ?? 0 };
  }

  async markProduced(batchId: string, generation: number, invalidCount: number): Promise<void> {
    const marked = await runCommand<number>(this.redis, BATCH_MARK_PRODUCED, this.batchKeys(batchId), [
      generation,
      invalidCount,
      Date.now(),
    ]);
    if (marked === GONE) throw new BatchNotFoundError(batchId);
    if (marked !== 1) throw new ProductionFencedError(`batch ${batchId} is being produced by another process`);
  }

  /**
   * The batch is finished: a report with every row answered was written. Returns the finish time when this
   * call finished it, undefined when it was finished already (a report written again, a second process
   * that joined the same batch): one finish, one completion notice. Every key of the batch now expires
   * after the retention, counted from this (last) report; all in one script of one slot.
   */
  async markReported(batchId: string, reportPath: string, counts: Record<string, number>): Promise<number | undefined> {
    const now = Date.now();
    const finished = await runCommand<number>(this.redis, BATCH_MARK_REPORTED, batchKeyNames(this.keys, batchId), [
      now,
      reportPath,
      JSON.stringify(counts),
      this.retentionMs,
    ]);
    if (finished === GONE) throw new BatchNotFoundError(batchId);
    return finished === 1 ? now : undefined;
  }

  /** Rows `start` to `start + count - 1` in file order (fewer at the end of what is stored). */
  async readRows(batchId: string, start: number, count: number): Promise<StoredRow[]> {
    if (count <= 0) return [];
    const perBlock = Number((await this.redis.hget(this.keys.batch(batchId), 'rowsPerBlock')) ?? 0);
    if (perBlock === 0) {
      // A batch produced before rows were stored in blocks: one JSON row per element.
      const encoded = await this.redis.lrange(this.keys.rows(batchId), start, start + count - 1);
      return encoded.map((row) => decodeRow(JSON.parse(row) as EncodedRow));
    }
    const first = Math.floor(start / perBlock);
    const blocks = await this.redis.lrangeBuffer(this.keys.rows(batchId), first, Math.floor((start + count - 1) / perBlock));
    const rows = (await Promise.all(blocks.map(decodeBlock))).flat();
    const skip = start - first * perBlock;
    return rows.slice(skip, skip + count);
  }

  /**
   * Stores the first outcome for an account, with `previous` (what the history said before it) when it
   * is a definitive answer; a job that runs again cannot replace either. A definitive answer (not reused)
   * that finds the outcome FAILED is kept as the account's late answer, which its next round takes (see
   * forgetFailedOutcomes). `counts` (the process's call counts of the batch) are added in the same script.
   * True when the answer was stored or kept late. Throws BatchNotFoundError, having written nothing, when
   * the batch is gone.
   */
  async writeAnswer(
    batchId: string,
    accountKey: string,
    outcome: InquiryOutcome,
    previous?: PreviousAnswer,
    counts: CallCounts = [],
  ): Promise<boolean> {
    const reused = previous?.reused === true ? 1 : 0;
    const keys = [
      this.keys.outcomes(batchId),
      this.keys.batch(batchId),
      this.keys.rows(batchId),
      this.keys.accounts(batchId),
      this.keys.lateAnswers(batchId),
      this.keys.accountOrder(batchId),
    ];
    return stored(
      batchId,
      await runCommand<number>(this.redis, BATCH_SAVE_OUTCOME, keys, [
        accountKey,
        encodeAnswer({ outcome, previous }),
        reused,
        this.retentionMs,
        ...counts.flat(),
      ]),
    );
  }

  /**
   * A definitive answer in one round trip (standalone Redis only: the history bucket is in another cluster
   * slot): stores the first outcome for the account with its history entry as it was, then records `write`
   * as the new entry (BATCH_SAVE_ANSWER); an outcome FAILED keeps it as a late answer instead, and the
   * history records it (see writeAnswer). False, and nothing written, when the account had an outcome;
   * BatchNotFoundError, nothing written, when the batch is gone.
   */
  async writeAnswerWithHistory(
    batchId: string,
    accountKey: string,
    outcome: DefinitiveOutcome,
    write: HistoryWrite,
    counts: CallCounts = [],
  ): Promise<boolean> {
    return stored(
      batchId,
      await runCommand<number>(
        this.redis,
        BATCH_SAVE_ANSWER,
        [
          this.keys.outcomes(batchId),
          write.key,
          this.keys.batch(batchId),
          this.keys.rows(batchId),
          this.keys.accounts(batchId),
          this.keys.lateAnswers(batchId),
          this.keys.accountOrder(batchId),
        ],
        [
          accountKey,
          JSON.stringify(outcomeValues(outcome)),
          write.field,
          write.answeredAt,
          write.keepMs,
          write.entry,
          this.retentionMs,
          ...counts.flat(),
        ],
      ),
    );
  }

  async getOutcomes(batchId: string, accountKeys: string[]): Promise<Map<string, InquiryOutcome>> {
    const answers = await this.getAnswers(batchId, accountKeys);
    return new Map([...answers].map(([accountKey, answer]) => [accountKey, answer.outcome]));
  }

  /** The outcomes of these accounts with the history each was decided against (for the `change` column). */
  async getAnswers(batchId: string, accountKeys: string[]): Promise<Map<string, StoredAnswer>> {
    const answers = new Map<string, StoredAnswer>();
    if (accountKeys.length === 0) return answers;
    const values = await this.redis.hmget(this.keys.outcomes(batchId), ...accountKeys);
    values.forEach((value, index) => {
      if (value !== null) answers.set(accountKeys[index]!, decodeAnswer(value));
    });
    return answers;
  }

  /**
   * Replaces the batch's list of rows a person decides (keys.reviewRows), written a slice at a time under a
   * temporary name and renamed into place once the report is whole: readers see the last whole list.
   */
  reviewRowsWriter(batchId: string): ReviewRowsWriter {
    const final = this.keys.reviewRows(batchId);
    const temporary = `${final}:writing:${randomBytes(4).toString('hex')}`;
    let written = 0;
    return {
      add: async (entries) => {
        if (entries.length === 0) return;
        // A writer that dies leaves its list behind: it expires by itself.
        await this.redis
          .multi()
          .rpush(temporary, ...entries.map((entry) => JSON.stringify(entry)))
          .pexpire(temporary, UNFINISHED_LIST_MS)
          .exec();
        written += entries.length;
      },
      commit: async () => {
        const reply = await runCommand<number>(
          this.redis,
          BATCH_COMMIT_REVIEW_ROWS,
          [this.keys.batch(batchId), temporary, final],
          [this.retentionMs, written],
        );
        if (reply === GONE) throw new BatchNotFoundError(batchId);
      },
      discard: async () => void (await this.redis.unlink(temporary)),
    };
  }

  /** Entries `start` to `start + count - 1` of the rows a person decides, as the last report wrote them; undefined when no report wrote the list. */
  async readReviewRows(batchId: string, start: number, count: number): Promise<ReviewRowEntry[] | undefined> {
    const key = this.keys.reviewRows(batchId);
    const [encoded, reported] = await Promise.all([
      this.redis.lrange(key, start, start + count - 1),
      this.redis.hexists(this.keys.batch(batchId), 'reviewRowsWritten'),
    ]);
    if (encoded.length === 0 && reported === 0) return undefined;
    return encoded.map((entry) => JSON.parse(entry) as ReviewRowEntry);
  }

  /** Accounts of the batch answered from history instead of asked: inquiry calls saved. */
  async reusedAnswers(batchId: string): Promise<number> {
    return Number((await this.redis.hget(this.keys.batch(batchId), 'reusedAnswers')) ?? 0);
  }

  /** The batch's key for the account numbers of its queued jobs (see job-seal.ts), made on first use; undefined when the batch is gone. */
  async jobSeal(batchId: string): Promise<string | undefined> {
    const key = await runCommand<string | null>(this.redis, BATCH_JOB_SEAL, [this.keys.batch(batchId)], [newJobSealKey()]);
    return key ?? undefined;
  }

  /** Adds `by` calls to one counter of the batch (the workers add them in bulk, see CallTally); nothing once the batch is gone. */
  async countCalls(batchId: string, field: 'calls' | 'rateLimited' | 'internalErrors' | 'usableAnswers', by: number): Promise<void> {
    await runCommand<number>(this.redis, BATCH_COUNT, [this.keys.batch(batchId)], [field, by]);
  }

  async progress(batchId: string): Promise<BatchProgress> {
    const [record, answered] = await Promise.all([this.get(batchId), this.redis.hlen(this.keys.outcomes(batchId))]);
    const produced = record.producedAt !== undefined;
    return {
      rowCount: record.rowCount,
      accountCount: record.accountCount,
      answered,
      produced,
      complete: produced && answered >= record.accountCount,
      reported: record.reportedAt !== undefined,
      round: record.round,
    };
  }

  /**
   * Account keys of the batch that have no outcome yet, streamed in slices, by the job that asks them
   * (InquiryGroup): every unanswered account of a group comes in the same slice, so that a group is queued
   * with all of them (its job's id takes one add; a second add of the group is a no-op).
   */
  async *unansweredInquiries(batchId: string, sliceSize = 512): AsyncGenerator<InquiryGroup[]> {
    const perJob = Number((await this.redis.hget(this.keys.batch(batchId), 'accountsPerJob')) ?? 1);
    if (perJob === 1) {
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.sscan(this.keys.accounts(batchId), cursor, 'COUNT', sliceSize);
        cursor = next;
        if (keys.length === 0) continue;
        const missing = await this.withoutOutcome(batchId, keys);
        if (missing.length > 0) yield singleInquiries(missing);
      } while (cursor !== '0');
      return;
    }
    // In the account order, whole groups a slice.
    const perSlice = perJob * Math.max(1, Math.floor(sliceSize / perJob));
    for (let start = 0; ; start += perSlice) {
      const keys = await this.redis.lrange(this.keys.accountOrder(batchId), start, start + perSlice - 1);
      if (keys.length === 0) return;
      const missing = new Set(await this.withoutOutcome(batchId, keys));
      const groups = keepingAccounts(inquiryGroups(keys, start, perJob), (accountKey) => missing.has(accountKey));
      if (groups.length > 0) yield groups;
    }
  }

  private async withoutOutcome(batchId: string, accountKeys: string[]): Promise<string[]> {
    const answered = await this.redis.hmget(this.keys.outcomes(batchId), ...accountKeys);
    return accountKeys.filter((_, index) => answered[index] === null);
  }

  /** Account keys whose outcome is FAILED, streamed in slices. */
  async *failedAccounts(batchId: string): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, entries] = await this.redis.hscan(this.keys.outcomes(batchId), cursor, 'COUNT', 500);
      cursor = next;
      const failed: string[] = [];
      for (let index = 0; index < entries.length; index += 2) {
        if (decodeAnswer(entries[index + 1]!).outcome.verdict === 'FAILED') failed.push(entries[index]!);
      }
      if (failed.length > 0) yield failed;
    } while (cursor !== '0');
  }

  async countFailedOutcomes(batchId: string): Promise<number> {
    let count = 0;
    for await (const failed of this.failedAccounts(batchId)) count += failed.length;
    return count;
  }

  /**
   * Writes `outcome` (FAILED: the wait gave up on them) for the accounts that have no outcome, one script
   * for the slice, but only while the batch is in `round`, the round the wait that gave up belongs to:
   * false, nothing written, when it moved on (another run took the batch up to ask its FAILED accounts
   * again, and those accounts are its to answer now). BatchNotFoundError when the batch is gone.
   */
  async markGivenUp(batchId: string, round: number, accountKeys: string[], outcome: InquiryOutcome): Promise<boolean> {
    const reply = await runCommand<number>(
      this.redis,
      BATCH_MARK_GIVEN_UP,
      [
        this.keys.outcomes(batchId),
        this.keys.batch(batchId),
        this.keys.rows(batchId),
        this.keys.accounts(batchId),
        this.keys.accountOrder(batchId),
      ],
      [round, this.retentionMs, encodeAnswer({ outcome }), ...accountKeys],
    );
    if (reply === GONE) throw new BatchNotFoundError(batchId);
    return reply === 1;
  }

  /**
   * Moves the batch to its next round, to ask its FAILED accounts again (see forgetFailedOutcomes), and
   * returns the round. First, before any FAILED answer is removed: a job of the round before that runs
   * meanwhile finds its round over (BATCH_CALL_NEEDED), not an account without an answer to call for.
   */
  async nextRound(batchId: string): Promise<number> {
    const round = await runCommand<number>(this.redis, BATCH_NEXT_ROUND, [this.keys.batch(batchId)], []);
    if (round === GONE) throw new BatchNotFoundError(batchId);
    return round;
  }

  /**
   * Removes FAILED outcomes so that the accounts are asked again, in the new round nextRound moved the
   * batch to (fresh job ids: the failed jobs of the last round are kept for inspection); the batch is
   * unfinished again. An account whose late answer came after its FAILED (a call on its way when the last
   * run gave up) takes that answer instead and is not asked, nor paid for, again. Returns how many are to
   * be asked again, and how many took their late answer. Every account without an answer is then queued
   * in the new round by the caller.
   */
  async forgetFailedOutcomes(batchId: string): Promise<{ forgotten: number; lateAnswers: number }> {
    const keys = [this.keys.outcomes(batchId), this.keys.lateAnswers(batchId), this.keys.batch(batchId)];
    let forgotten = 0;
    let lateAnswers = 0;
    for await (const failed of this.failedAccounts(batchId)) {
      const [removed, replaced] = await runCommand<number[]>(this.redis, BATCH_FORGET_FAILED, keys, failed);
      if (removed === GONE) throw new BatchNotFoundError(batchId);
      forgotten += removed!;
      lateAnswers += replaced!;
    }
    if (forgotten + lateAnswers > 0) {
      // Unfinished again (its report is to be written anew): it lives the retention from now, as an
      // unfinished batch does from each write.
      const transaction = this.redis.multi().hdel(this.keys.batch(batchId), 'reportedAt');
      for (const batchKey of batchKeyNames(this.keys, batchId)) transaction.pexpire(batchKey, this.retentionMs);
      await transaction.exec();
    }
    return { forgotten, lateAnswers };
  }

  private batchKeys(batchId: string): string[] {
    return [this.keys.batch(batchId), this.keys.rows(batchId), this.keys.accounts(batchId), this.keys.accountOrder(batchId)];
  }
}

const UNFINISHED_LIST_MS = 24 * 3600_000;

/** A row a person decides, as listed with the report: its 1-based row, its account as sent, the names compared. */
/**
 * A report row a person decides, or (`matchRejected` 1) a MATCH row a REJECTED decision stood on when the report was
 * written (matchRowFacts): counted while that rejection stands, as a `rejected` row, never as one to review.
 */
export type ReviewRowEntry = [row: number, accountKey: string, expectedName: string, holderName: string, matchRejected?: 1];

export interface ReviewRowsWriter {
  add(entries: readonly ReviewRowEntry[]): Promise<void>;
  /** Puts the list in place (an empty one removes the last). */
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** A save command's reply: stored (1) or kept as a late answer (2), the account had an outcome (0), or the batch is gone (thrown). */
function stored(batchId: string, reply: number): boolean {
  if (reply === GONE) throw new BatchNotFoundError(batchId);
  return reply >= 1;
}

/** Every key of one batch (one hash tag, one slot): what expires with it and what deleting it removes. */
export const batchKeyNames = (keys: RedisKeys, batchId: string): string[] => [
  keys.batch(batchId),
  keys.rows(batchId),
  keys.accounts(batchId),
  keys.accountOrder(batchId),
  keys.outcomes(batchId),
  keys.lateAnswers(batchId),
  keys.reviewRows(batchId),
];

/**
 * A file's batch is found by its content at one endpoint (the inquiry queue name): the same file at another
 * endpoint is another batch, which asks every account there. Also the name of the content's lease.
 */
export const contentAtEndpoint = (queueName: string, contentHash: string): string => `${queueName}/${contentHash}`;

/**
 * Removes the content index entry, only while it still names this batch (a newer batch of that content keeps
 * its own); an entry of the index before it named the endpoint too.
 */
export async function dropContentEntry(
  redis: RedisClient,
  keys: RedisKeys,
  queueName: string,
  contentHash: string,
  batchId: string,
): Promise<void> {
  for (const field of [contentAtEndpoint(queueName, contentHash), contentHash])
    await runCommand<number>(redis, INDEX_DROP_CONTENT, [keys.batchesByContent()], [field, batchId]);
}

/**
 * Rows are stored in blocks of this many, one list element each: the JSON of the block's rows, deflated
 * (exports repeat a lot from row to row: partner names, addresses, notes). Every block but the last of a
 * production is full, so row i is in element floor(i / ROWS_PER_BLOCK); the batch record names the block
 * size it was produced with (rowsPerBlock), and a batch without it has one JSON row per element.
 */
export const ROWS_PER_BLOCK = 500;

type EncodedRow = [string[], string | null, string | null];

const decodeRow = ([fields, accountKey, invalidReason]: EncodedRow): StoredRow => ({ fields, accountKey, invalidReason });

/** Compressed on libuv's thread pool: the event loop (and the workers of `run` on it) is not held up. */
const deflateRawAsync = promisify(deflateRaw);
const inflateRawAsync = promisify(inflateRaw);

const encodeBlock = async (rows: StoredRow[]): Promise<Buffer> =>
  deflateRawAsync(Buffer.from(JSON.stringify(rows.map((row): EncodedRow => [row.fields, row.accountKey, row.invalidReason]))));

const decodeBlock = async (block: Buffer): Promise<StoredRow[]> =>
  (JSON.parse((await inflateRawAsync(block)).toString('utf8')) as EncodedRow[]).map(decodeRow);

/** An account's outcome in a batch, and for a definitive answer what the history held before it. */
export interface StoredAnswer {
  outcome: InquiryOutcome;
  /** Undefined for a FAILED outcome (it changes nothing) and for answers stored before history was kept. */
  previous?: PreviousAnswer | undefined;
}

/**
 * An answer as stored: the outcome's values (outcomeValues), then, for a definitive answer, the history
 * entry before it (null: none) and 1 when the answer was reused from that entry. The entry is written in
 * the history's own encoding (a string: BATCH_SAVE_ANSWER copies it from the history as it is); an object
 * (written before that) and an answer object (before this encoding) still read.
 */
export const encodeAnswer = ({ outcome, previous }: StoredAnswer): string =>
  JSON.stringify([
    ...outcomeValues(outcome),
    ...(previous === undefined ? [] : [previous.entry === null ? null : encodeHistoryEntry(previous.entry), previous.reused ? 1 : 0]),
  ]);

export function decodeAnswer(encoded: string): StoredAnswer {
  const parsed = JSON.parse(encoded) as InquiryOutcome | unknown[];
  if (!Array.isArray(parsed)) return { outcome: parsed };
  const answer: StoredAnswer = { outcome: outcomeFromValues(parsed) };
  if (parsed.length > OUTCOME_VALUE_COUNT) {
    const entry = parsed[OUTCOME_VALUE_COUNT] as string | HistoryEntry | null;
    answer.previous = {
      entry: typeof entry === 'string' ? (decodeHistoryEntry(entry) ?? null) : entry,
      reused: parsed[OUTCOME_VALUE_COUNT + 1] === 1,
    };
  }
  return answer;
}
