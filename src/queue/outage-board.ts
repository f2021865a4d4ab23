import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';

export interface Outage {
  /** When the first worker's breaker opened. */
  since: number;
  reason: string;
  lastFailureAt: number;
  /** A 429's hold: until then no call is made, so the outage is current even without a failure since the last answer. */
  holdUntil?: number | undefined;
}

/**
 * Where workers post that the provider is failing, so `run` can show it in its progress and give up
 * after the outage budget instead of waiting forever.
 */
export class OutageBoard {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly queueName: string,
  ) {}

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
    const holdUntil = Number(fields.holdUntil ?? 0);
    return {
      since: Number(fields.since),
      reason: fields.reason ?? '',
      lastFailureAt: Number(fields.lastFailureAt ?? fields.since),
      ...(holdUntil > 0 && { holdUntil }),
    };
  }
}
