import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { ColumnMapping } from '../csv/columns.js';
import type { Delimiter } from '../csv/delimiter.js';
import type { InquiryOutcome } from '../provider/outcome.js';
import { BatchNotFoundError } from '../errors.js';
import type { RedisKeys } from './keys.js';

export interface BatchRecord {
  batchId: string;
  sourceFile: string;
  contentHash: string;
  queueName: string;
  delimiter: Delimiter;
  header: string[];
  mapping: ColumnMapping;
  rowCount: number;
  createdAt: number;
  /** Set when every row is stored and every account queued; until then the batch cannot be complete. */
  producedAt: number | undefined;
  /** Distinct accounts to ask; final once producedAt is set. */
  accountCount: number;
  invalidCount: number;
  /** Inquiry HTTP calls made for the batch, retries included. */
  calls: number;
  rateLimited: number;
  completedAt: number | undefined;
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
  complete: boolean;
}

/** A batch id sorts by time and is readable in file names: b20261121-065203-3f9a1c. */
export function newBatchId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `b${stamp}-${randomBytes(3).toString('hex')}`;
}

/** Everything the tool keeps about a batch lives in Redis, so any process can continue or report it. */
export class BatchStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async create(record: Omit<BatchRecord, 'producedAt' | 'completedAt' | 'accountCount' | 'invalidCount' | 'calls' | 'rateLimited'>): Promise<void> {
    await this.redis
      .multi()
      .hset(this.keys.batch(record.batchId), {
        batchId: record.batchId,
        sourceFile: record.sourceFile,
        contentHash: record.contentHash,
        queueName: record.queueName,
        delimiter: record.delimiter,
        header: JSON.stringify(record.header),
        mapping: JSON.stringify(record.mapping),
        rowCount: record.rowCount,
        createdAt: record.createdAt,
        accountCount: 0,
        invalidCount: 0,
        calls: 0,
        rateLimited: 0,
      })
      .zadd(this.keys.batches(), record.createdAt, record.batchId)
      .hset(this.keys.batchesByContent(), record.contentHash, record.batchId)
      .exec();
  }

  async get(batchId: string): Promise<BatchRecord> {
    const fields = await this.redis.hgetall(this.keys.batch(batchId));
    if (fields.batchId === undefined) throw new BatchNotFoundError(batchId);
    const optionalNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));
    return {
      batchId: fields.batchId,
      sourceFile: fields.sourceFile ?? '',
      contentHash: fields.contentHash ?? '',
      queueName: fields.queueName ?? '',
      delimiter: fields.delimiter === ';' ? ';' : ',',
      header: JSON.parse(fields.header ?? '[]') as string[],
      mapping: JSON.parse(fields.mapping ?? '{}') as ColumnMapping,
      rowCount: Number(fields.rowCount ?? 0),
      createdAt: Number(fields.createdAt ?? 0),
      producedAt: optionalNumber(fields.producedAt),
      accountCount: Number(fields.accountCount ?? 0),
      invalidCount: Number(fields.invalidCount ?? 0),
      calls: Number(fields.calls ?? 0),
      rateLimited: Number(fields.rateLimited ?? 0),
      completedAt: optionalNumber(fields.completedAt),
    };
  }

  async findByContentHash(contentHash: string): Promise<string | undefined> {
    const batchId = await this.redis.hget(this.keys.batchesByContent(), contentHash);
    return batchId ?? undefined;
  }

  /** Newest first. */
  async list(limit = 50): Promise<string[]> {
    return this.redis.zrevrange(this.keys.batches(), 0, limit - 1);
  }

  /**
   * Appends rows in file order and registers their accounts; returns the account keys seen for the
   * first time in this batch, which are the only ones to ask.
   */
  async appendRows(batchId: string, rows: StoredRow[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const accountKeys = rows.flatMap((row) => (row.accountKey === null ? [] : [row.accountKey]));
    const pipeline = this.redis.pipeline().rpush(this.keys.rows(batchId), ...rows.map(encodeRow));
    for (const key of accountKeys) pipeline.sadd(this.keys.accounts(batchId), key);
    const replies = (await pipeline.exec()) ?? [];
    const firstSeen = new Set<string>();
    accountKeys.forEach((key, index) => {
      const [error, added] = replies[index + 1] ?? [];
      if (error) throw error;
      if (added === 1) firstSeen.add(key);
    });
    return [...firstSeen];
  }

  /** Drops stored rows and the account set, keeping outcomes: producing again then asks only what has no answer. */
  async resetRows(batchId: string): Promise<void> {
    await this.redis.del(this.keys.rows(batchId), this.keys.accounts(batchId));
  }

  async markProduced(batchId: string, counts: { rowCount: number; accountCount: number; invalidCount: number }): Promise<void> {
    await this.redis.hset(this.keys.batch(batchId), { ...counts, producedAt: Date.now() });
  }

  async markCompleted(batchId: string): Promise<void> {
    await this.redis.hsetnx(this.keys.batch(batchId), 'completedAt', Date.now());
  }

  async readRows(batchId: string, start: number, count: number): Promise<StoredRow[]> {
    const encoded = await this.redis.lrange(this.keys.rows(batchId), start, start + count - 1);
    return encoded.map(decodeRow);
  }

  /** Stores the first outcome for an account; a job that runs again cannot replace it. */
  async saveOutcome(batchId: string, accountKey: string, outcome: InquiryOutcome): Promise<boolean> {
    return (await this.redis.hsetnx(this.keys.outcomes(batchId), accountKey, JSON.stringify(outcome))) === 1;
  }

  async hasOutcome(batchId: string, accountKey: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.outcomes(batchId), accountKey)) === 1;
  }

  async getOutcomes(batchId: string, accountKeys: string[]): Promise<Map<string, InquiryOutcome>> {
    const outcomes = new Map<string, InquiryOutcome>();
    if (accountKeys.length === 0) return outcomes;
    const values = await this.redis.hmget(this.keys.outcomes(batchId), ...accountKeys);
    values.forEach((value, index) => {
      if (value !== null) outcomes.set(accountKeys[index]!, JSON.parse(value) as InquiryOutcome);
    });
    return outcomes;
  }

  async countCall(batchId: string, field: 'calls' | 'rateLimited'): Promise<void> {
    await this.redis.hincrby(this.keys.batch(batchId), field, 1);
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
    };
  }

  /** Account keys of the batch that have no outcome yet, streamed in slices. */
  async *unansweredAccounts(batchId: string, sliceSize = 500): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.sscan(this.keys.accounts(batchId), cursor, 'COUNT', sliceSize);
      cursor = next;
      if (keys.length === 0) continue;
      const answered = await this.redis.hmget(this.keys.outcomes(batchId), ...keys);
      const missing = keys.filter((_, index) => answered[index] === null);
      if (missing.length > 0) yield missing;
    } while (cursor !== '0');
  }

  /** Account keys whose outcome is FAILED, streamed in slices. */
  async *failedAccounts(batchId: string): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, entries] = await this.redis.hscan(this.keys.outcomes(batchId), cursor, 'COUNT', 500);
      cursor = next;
      const failed: string[] = [];
      for (let index = 0; index < entries.length; index += 2) {
        if ((JSON.parse(entries[index + 1]!) as InquiryOutcome).verdict === 'FAILED') failed.push(entries[index]!);
      }
      if (failed.length > 0) yield failed;
    } while (cursor !== '0');
  }

  async hasFailedOutcomes(batchId: string): Promise<boolean> {
    for await (const _ of this.failedAccounts(batchId)) return true;
    return false;
  }

  /** Removes FAILED outcomes so that the accounts are asked again; returns how many. */
  async forgetFailedOutcomes(batchId: string): Promise<number> {
    let forgotten = 0;
    for await (const failed of this.failedAccounts(batchId)) {
      await this.redis.hdel(this.keys.outcomes(batchId), ...failed);
      forgotten += failed.length;
    }
    if (forgotten > 0) await this.redis.hdel(this.keys.batch(batchId), 'completedAt');
    return forgotten;
  }
}

const encodeRow = (row: StoredRow): string => JSON.stringify([row.fields, row.accountKey, row.invalidReason]);

function decodeRow(encoded: string): StoredRow {
  const [fields, accountKey, invalidReason] = JSON.parse(encoded) as [string[], string | null, string | null];
  return { fields, accountKey, invalidReason };
}
