import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';

export interface Outage {
  /** When the first worker's breaker opened. */
  since: number;
  reason: string;
  lastFailureAt: number;
  /** A 429's hold: until then no call is made, so the outage is current even without a failure since the last answer. */
  holdUntil?: number | undefined;
  /**
   * When a worker on the queue last had an answer, for any batch (at most ANSWER_NOTE_MS old): a batch
   * waiting behind another's jobs has none of its own, and the provider answering those is no outage.
   */
  answeredAt?: number | undefined;
}

/** How often a process notes that the provider answered: a write a second, not one per answer. */
const ANSWER_NOTE_MS = 1_000;
/** The note outlives any outage budget: past it, no answer for a day is what it says. */
const ANSWER_NOTE_TTL_MS = 24 * 3600_000;

/**
 * Where workers post that the provider is failing, so `run` can show it in its progress and give up
 * after the outage budget instead of waiting forever.
 */
export class OutageBoard {
  private lastNotedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly queueName: string,
  ) {}

  /**
   * The provider answered a worker of this process now (wall time): noted for every process's wait, at
   * most once per ANSWER_NOTE_MS. Undefined when not written this time.
   */
  answered(now = Date.now()): Promise<void> | undefined {
    if (now - this.lastNotedAt < ANSWER_NOTE_MS) return undefined;
    this.lastNotedAt = now;
    return this.redis.set(this.keys.providerAnsweredAt(this.queueName), now, 'PX', ANSWER_NOTE_TTL_MS).then(() => undefined);
  }

  async report(since: number, reason: string, holdUntil?: number): Promise<void> {
    const key = this.keys.outage(this.queueName);
    await this.redis
      .multi()
      .hsetnx(key, 'since', since)
      .hset(key, { reason, lastFailureAt: Date.now(), holdUntil: holdUntil ?? 0 })
      .pexpire(key, 24 * 3600_000)
      .exec();
  }

  async clear(): Promise<void> {
    await this.redis.del(this.keys.outage(this.queueName));
  }

  async read(): Promise<Outage | undefined> {
    const fields = await this.redis.hgetall(this.keys.outage(this.queueName));
    if (fields.since === undefined) return undefined;
    // Apart: the two keys live in different cluster slots.
    const answeredAt = await this.redis.get(this.keys.providerAnsweredAt(this.queueName));
    const holdUntil = Number(fields.holdUntil ?? 0);
    return {
      since: Number(fields.since),
      reason: fields.reason ?? '',
      lastFailureAt: Number(fields.lastFailureAt ?? fields.since),
      ...(holdUntil > 0 && { holdUntil }),
      ...(answeredAt !== null && { answeredAt: Number(answeredAt) }),
    };
  }
}
