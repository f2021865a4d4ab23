import type { JobType } from 'bullmq';
import { DURATION_FORMS, parseDuration } from '../config/duration.js';
import { BatchNotFoundError, BatchUnfinishedError, UsageError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import { openInquiryQueue } from '../queue/inquiry-queue.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import { scanKeys } from '../redis/scan.js';
import { batchKeyNames, dropContentEntry } from './batch-store.js';

/** `0s`, `90m`, `12h`, `30d`: the age of `prune --older-than`, in ms, written as every time setting is; anything else is a usage error (exit 2). */
export function parseAge(value: string, name = '--older-than'): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new UsageError(`${name} takes a duration, ${DURATION_FORMS}, not ${JSON.stringify(value)}`);
  return ms;
}

/** What a removal took away: enough for people to recognise the batch (its report on disk is the record). */
export interface RemovedBatch {
  batchId: string;
  sourceName: string;
  rows: number;
  /** When its last report was written; undefined for an unfinished batch deleted with `--force`. */
  finishedAt: number | undefined;
  /** Set for keys of a batch whose record was gone (an orphan): how many keys were removed. */
  orphanedKeys?: number;
  /** Set for queued jobs of a batch whose record was gone (expired, lost, deleted): how many were removed. */
  orphanedJobs?: number;
}

/** The index fields a removal needs, read for every listed batch in one pass. */
interface IndexedBatch extends RemovedBatch {
  contentHash: string;
  queueName: string;
  throwAwayQueue: boolean;
}

/**
 * Job states a batch's jobs are removed from: every one but active (a job a worker holds finishes on its
 * own). A finished batch may have jobs still queued too: a run that gave up wrote its report with FAILED rows.
 */
const JOB_STATES: JobType[] = ['failed', 'wait', 'delayed', 'prioritized', 'waiting-children'];
/** Job ids and keys are read and removed in slices, so that no single command holds Redis up. */
const SLICE = 1_000;

/**
 * Removing batches from Redis (retention: `prune`, `delete`). A batch goes with every key of its own
 * (UNLINK: freed in the background, never blocking Redis), its index entries and its BullMQ jobs; the
 * queue of a throw-away emulator run goes with the last batch that used it. Reports on disk stay.
 */
export class BatchRetention {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly logger: Logger,
  ) {}

  /**
   * Removes finished batches whose last report is at least `olderThanMs` old; unfinished batches are never
   * pruned (they are work in progress, or work to resume). Index entries of expired batches are dropped,
   * and orphans are removed whatever their age: keys of a batch whose record is gone (see `orphans`).
   */
  async prune(olderThanMs: number, now: number): Promise<RemovedBatch[]> {
    const batches = await this.indexedBatches();
    const removable = batches.filter((batch) => batch.finishedAt !== undefined && batch.finishedAt <= now - olderThanMs);
    const removed: RemovedBatch[] = [];
    for (const batch of removable) {
      await this.remove(batch);
      removed.push(removedView(batch));
    }
    await this.dropThrowAwayQueues(removable, batches);
    for (const [batchId, keys] of await this.orphans()) removed.push(await this.removeOrphan(batchId, keys));
    removed.push(...(await this.removeOrphanedJobs()));
    return removed;
  }

  /** Removes one batch; an unfinished one only with `force` (its rows would otherwise be lost to `resume`); an orphan's keys too. */
  async delete(batchId: string, options: { force: boolean }): Promise<RemovedBatch> {
    const batches = await this.indexedBatches();
    const batch = batches.find((candidate) => candidate.batchId === batchId) ?? (await this.readBatch(batchId));
    if (batch === undefined) {
      const orphaned = (await this.orphans()).get(batchId);
      const jobs = (await this.removeOrphanedJobs(batchId))[0];
      if (orphaned !== undefined)
        return { ...(await this.removeOrphan(batchId, orphaned)), ...(jobs !== undefined && { orphanedJobs: jobs.orphanedJobs }) };
      if (jobs !== undefined) return jobs;
      throw new BatchNotFoundError(batchId);
    }
    if (batch.finishedAt === undefined && !options.force) {
      throw new BatchUnfinishedError(
        `batch ${batchId} is not finished (no report with every row answered yet): \`resume ${batchId}\` to finish it, or \`delete ${batchId} --force\` to remove it with its queued jobs`,
      );
    }
    await this.remove(batch);
    await this.dropThrowAwayQueues([batch], batches);
    return removedView(batch);
  }

  /**
   * Keys of batches whose record is gone, by batch id: written by a version of the tool before every write
   * checked for the record (after Redis lost the batch, a late answer or count made its keys again, with
   * account numbers and holder names, no expiry, and no index naming them). The record (with its batchId)
   * is written first and alone, so a batch being created is never taken for one.
   */
  private async orphans(): Promise<Map<string, string[]>> {
    const byBatch = new Map<string, string[]>();
    for await (const found of scanKeys(this.redis, this.keys.batchPattern(), SLICE)) {
      for (const key of found) {
        const batchId = this.keys.batchIdOf(key);
        if (batchId !== undefined) byBatch.set(batchId, [...(byBatch.get(batchId) ?? []), key]);
      }
    }
    for (const batchId of [...byBatch.keys()])
      if ((await this.redis.hexists(this.keys.batch(batchId), 'batchId')) === 1) byBatch.delete(batchId);
    return byBatch;
  }

  private async removeOrphan(batchId: string, keys: string[]): Promise<RemovedBatch> {
    // One hash tag, one slot: one UNLINK.
    await this.redis.unlink(...keys);
    await this.redis.zrem(this.keys.batches(), batchId);
    this.logger.debug({ batchId, keys: keys.length }, 'orphaned keys of a batch removed');
    return { batchId, sourceName: '', rows: 0, finishedAt: undefined, orphanedKeys: keys.length };
  }

  /** Every batch the index lists that still exists; entries of expired batches are dropped on the way. */
  private async indexedBatches(): Promise<IndexedBatch[]> {
    const ids = await this.redis.zrange(this.keys.batches(), 0, '-1');
    const found: IndexedBatch[] = [];
    for (let start = 0; start < ids.length; start += SLICE) {
      const slice = ids.slice(start, start + SLICE);
      const read = await Promise.all(slice.map((id) => this.readBatch(id)));
      const expired = slice.filter((_, index) => read[index] === undefined);
      if (expired.length > 0) await this.redis.zrem(this.keys.batches(), ...expired);
      for (const batch of read) if (batch !== undefined) found.push(batch);
    }
    return found;
  }

  private async readBatch(batchId: string): Promise<IndexedBatch | undefined> {
    const [sourceName, rowCount, reportedAt, contentHash, queueName, throwAwayQueue] = await this.redis.hmget(
      this.keys.batch(batchId),
      'sourceName',
      'rowCount',
      'reportedAt',
      'contentHash',
      'queueName',
      'throwAwayQueue',
    );
    if (queueName === null || queueName === undefined) return undefined;
    return {
      batchId,
      sourceName: sourceName ?? '',
      rows: Number(rowCount ?? 0),
      finishedAt: reportedAt === null ? undefined : Number(reportedAt),
      contentHash: contentHash ?? '',
      queueName,
      throwAwayQueue: throwAwayQueue === '1',
    };
  }

  private async remove(batch: IndexedBatch): Promise<void> {
    await this.removeJobs(batch.queueName, batch.batchId);
    // One UNLINK of keys in one slot (one hash tag): the big ones are freed by a background thread.
    await this.redis.unlink(...batchKeyNames(this.keys, batch.batchId));
    await this.redis.zrem(this.keys.batches(), batch.batchId);
    await dropContentEntry(this.redis, this.keys, batch.queueName, batch.contentHash, batch.batchId);
    this.logger.debug({ batchId: batch.batchId }, 'batch removed from Redis');
  }

  /** The batch's jobs (ids `${batchId}.…`) through BullMQ's own API, so its indexes stay consistent. Returns how many went. */
  private async removeJobs(queueName: string, batchId: string): Promise<number> {
    const ids = (await this.queuedJobs(queueName)).get(batchId) ?? [];
    return this.removeJobIds(queueName, ids);
  }

  private async removeJobIds(queueName: string, ids: string[]): Promise<number> {
    const queue = openInquiryQueue(this.redis, this.keys, queueName, this.logger);
    try {
      let removed = 0;
      // A job a worker holds right now cannot be removed (remove answers 0): it finishes on its own.
      for (const id of ids) removed += await queue.remove(id);
      return removed;
    } finally {
      await queue.close();
    }
  }

  /** The ids of a queue's jobs in JOB_STATES, by batch id (a job id is `${batchId}.…`). */
  private async queuedJobs(queueName: string): Promise<Map<string, string[]>> {
    const queue = openInquiryQueue(this.redis, this.keys, queueName, this.logger);
    try {
      const byBatch = new Map<string, string[]>();
      for (let start = 0; ; start += SLICE) {
        const ids = await queue.getRanges(JOB_STATES, start, start + SLICE - 1, true);
        for (const id of ids) {
          const batchId = id.slice(0, id.indexOf('.'));
          byBatch.set(batchId, [...(byBatch.get(batchId) ?? []), id]);
        }
        if (ids.length < SLICE) break;
      }
      return byBatch;
    } finally {
      await queue.close();
    }
  }

  /**
   * Queued jobs of batches whose record is gone (expired after the retention, lost by a Redis restart,
   * deleted while a worker held them), in every inquiry queue; only `onlyBatchId`'s when given. Their account
   * numbers are sealed with the batch's key, gone with the record: unreadable, but removed all the same.
   */
  private async removeOrphanedJobs(onlyBatchId?: string): Promise<RemovedBatch[]> {
    const counts = new Map<string, number>();
    for await (const found of scanKeys(this.redis, this.keys.inquiryQueueMetaPattern(), SLICE)) {
      for (const metaKey of found) {
        const queueName = this.keys.inquiryQueueOfMeta(metaKey);
        if (queueName === undefined) continue;
        for (const [batchId, ids] of await this.queuedJobs(queueName)) {
          if (onlyBatchId !== undefined && batchId !== onlyBatchId) continue;
          if ((await this.redis.hexists(this.keys.batch(batchId), 'batchId')) === 1) continue;
          counts.set(batchId, (counts.get(batchId) ?? 0) + (await this.removeJobIds(queueName, ids)));
        }
      }
    }
    return [...counts].map(([batchId, orphanedJobs]) => ({ batchId, sourceName: '', rows: 0, finishedAt: undefined, orphanedJobs }));
  }

  /** Throw-away emulator queues no remaining batch uses: obliterated, with their pacer, outage and history keys. */
  private async dropThrowAwayQueues(removed: IndexedBatch[], before: IndexedBatch[]): Promise<void> {
    const gone = new Set(removed.map((batch) => batch.batchId));
    const stillUsed = new Set(before.filter((batch) => !gone.has(batch.batchId)).map((batch) => batch.queueName));
    const queueNames = new Set(
      removed.filter((batch) => batch.throwAwayQueue && !stillUsed.has(batch.queueName)).map((batch) => batch.queueName),
    );
    for (const queueName of queueNames) {
      const queue = openInquiryQueue(this.redis, this.keys, queueName, this.logger);
      try {
        await queue.obliterate({ force: true });
        // Obliterate leaves the global limiter's counter, which lives up to a rate window after the last job taken.
        await this.redis.unlink(queue.keys.limiter!);
      } finally {
        await queue.close();
      }
      // Apart: the two keys live in different cluster slots.
      await this.redis.unlink(this.keys.pacer(queueName));
      await this.redis.unlink(this.keys.outage(queueName));
      await this.redis.unlink(this.keys.providerAnswers(queueName));
      // The emulator's address was this run's own: no later batch can meet these answers again.
      await this.unlinkMatching(this.keys.accountHistoryPattern(queueName));
      this.logger.debug({ queue: queueName }, 'throw-away emulator queue removed');
    }
  }

  /** One key at a time (each in its own slot on a cluster), a SCAN slice at a time on every master. */
  private async unlinkMatching(pattern: string): Promise<void> {
    for await (const found of scanKeys(this.redis, pattern, SLICE)) await Promise.all(found.map((key) => this.redis.unlink(key)));
  }
}

const removedView = ({ batchId, sourceName, rows, finishedAt }: IndexedBatch): RemovedBatch => ({ batchId, sourceName, rows, finishedAt });
