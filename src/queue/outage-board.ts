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

/** How often a process notes that the provider answered: a write a second, not one per answer. */
const ANSWER_NOTE_MS = 1_000;
/** The counter outlives any outage budget, and goes with the queue's last use. */
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
   * The provider answered a worker of this process: the queue's answer counter moves, at most once per
   * ANSWER_NOTE_MS (on this process's monotonic clock). A counter, not a time: a wait reads whether it
   * moved on its own clock, so another process's clock running ahead, or a step of the wall clock, says
   * nothing false. Undefined when not written this time.
   */
  answered(now = performance.now()): Promise<void> | undefined {
    if (now - this.lastNotedAt < ANSWER_NOTE_MS) return undefined;
    this.lastNotedAt = now;
    const key = this.keys.providerAnswers(this.queueName);
    // Two commands, not a MULTI: each rejects when it fails (a MULTI's reply carries its errors unthrown).
    return this.redis
      .incr(key)
      .then(() => this.redis.pexpire(key, ANSWER_NOTE_TTL_MS))
      .then(() => undefined);
  }

  /** The queue's answer counter (see answered); undefined before any answer, or when it holds no number. */
  async answers(): Promise<number | undefined> {
    const value = await this.redis.get(this.keys.providerAnswers(this.queueName));
    const count = Number(value);
    return value === null || !Number.isFinite(count) ? undefined : count;
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
    const holdUntil = Number(fields.holdUntil ?? 0);
    return {
      since: Number(fields.since),
      reason: fields.reason ?? '',
      lastFailureAt: Number(fields.lastFailureAt ?? fields.since),
      ...(holdUntil > 0 && { holdUntil }),
    };
  }
}
