import type { EventEmitter } from 'node:events';
import { RedisUnavailableError, type SystemicError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import { displayRedisUrl } from './connection.js';
import { isConnectionFailure, isRedisFull, typedRedisFailure } from './failures.js';

/** What the supervisor needs of a connection (an ioredis client). */
export interface SupervisedConnection extends Pick<EventEmitter, 'on' | 'off'> {
  ping(): Promise<unknown>;
  disconnect(): void;
}

/** The connection's state, for health checks and for people. */
export interface RedisHealth {
  /** Answering now. */
  up: boolean;
  /** When Redis last answered (ms since the epoch, for people: durations are measured on the monotonic clock). */
  lastAnsweredAt: number;
  /** Why it does not answer (the last connection error), while it is down. */
  reason: string | undefined;
}

export interface SupervisorOptions {
  url: string;
  /** How long Redis may stay unreachable (REDIS_UNAVAILABLE_TIMEOUT): a shorter outage is ridden out. */
  unavailableTimeoutMs: number;
  /**
   * Past that time, `give_up` (one-shot commands: `run`, `status`, ...): `failure` rejects with a
   * RedisUnavailableError; `keep_retrying` (services: `worker`, `watch`, `schedule`): an error line, then a
   * reminder every `reminderMs`, and the work resumes when Redis is back.
   */
  whenUnavailable: 'give_up' | 'keep_retrying';
  logger: Logger;
  /** The monotonic clock silences are measured on (ms; performance.now): a step of the wall clock is no silence. */
  monotonic?: () => number;
  /** How often the connection is probed with PING (default 1 s). */
  heartbeatMs?: number;
  /** Services: how often "still unreachable" is logged (default 60 s). */
  reminderMs?: number;
}

/**
 * Watches one Redis connection on behalf of everything that uses it, because with
 * `maxRetriesPerRequest: null` (which BullMQ needs) ioredis queues commands for ever while Redis is away:
 *
 * - a PING every second tells when Redis last answered (a Redis that hangs closes nothing);
 * - losing it is logged once, its return once, and errors of the connection (and of the BullMQ objects and
 *   connections given `errorListener`) are not logged one by one at every reconnect attempt;
 * - past the budget a one-shot command fails with one typed line; a service keeps retrying and says so;
 * - a Redis answer that no retry mends (full) fails the command with its typed error (`fail`).
 */
export class RedisSupervisor {
  /** Rejects (once) with the typed error that must end the command; never resolves. */
  readonly failure: Promise<never>;
  private rejectFailure!: (error: SystemicError) => void;
  private failed: SystemicError | undefined;
  private readonly monotonic: () => number;
  /** When Redis last answered, on the monotonic clock, and on the wall clock for people. */
  private lastAnsweredAt: number;
  private lastAnsweredWallAt = Date.now();
  private connectionClosed = false;
  private reason: string | undefined;
  private down = false;
  private lastReminderAt: number | undefined;
  private pinging = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onClose = () => {
    this.connectionClosed = true;
    this.tick();
  };
  private readonly onReady = () => {
    this.connectionClosed = false;
    this.answered();
  };
  private readonly onError = (error: Error) => this.connectionError(error);

  constructor(
    private readonly connection: SupervisedConnection,
    private readonly options: SupervisorOptions,
  ) {
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.lastAnsweredAt = this.monotonic();
    this.failure = new Promise<never>((_, reject) => (this.rejectFailure = reject));
    // Nobody may be awaiting it yet: its rejection is read through `guard`, not left unhandled.
    this.failure.catch(() => undefined);
    connection.on('close', this.onClose);
    connection.on('ready', this.onReady);
    connection.on('error', this.onError);
    this.timer = setInterval(() => this.tick(), options.heartbeatMs ?? 1_000);
    this.timer.unref();
  }

  health(): RedisHealth {
    return { up: !this.down, lastAnsweredAt: this.lastAnsweredWallAt, reason: this.down ? this.reason : undefined };
  }

  /** The error that ended the command, once there is one. */
  get failedWith(): SystemicError | undefined {
    return this.failed;
  }

  /**
   * The `error` listener for every BullMQ Queue, Worker and QueueEvents, and for any other connection: a
   * connection failure is this supervisor's to report (once, not at every reconnect attempt), a full Redis
   * fails the command, anything else is logged as what it is.
   */
  errorListener(source: string): (error: Error) => void {
    return (error) => {
      if (isConnectionFailure(error)) return this.connectionError(error);
      const typed = typedRedisFailure(error, this.options.url);
      if (typed !== undefined) return this.fail(typed);
      this.options.logger.error({ err: error }, `${source}: ${error.message}`);
    };
  }

  /** Ends the command with a typed error (the first one wins). */
  fail(error: SystemicError): void {
    if (this.failed !== undefined) return;
    this.failed = error;
    this.rejectFailure(error);
  }

  /**
   * Runs a command's work under the supervisor: it ends with the supervisor's failure if that comes first,
   * and a Redis answer no retry mends (full) becomes its typed error.
   */
  async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await Promise.race([work, this.failure]);
    } catch (error) {
      if (this.failed !== undefined && (error === this.failed || isConnectionFailure(error) || isRedisFull(error))) throw this.failed;
      if (isConnectionFailure(error)) {
        throw new RedisUnavailableError(
          `Redis at ${displayRedisUrl(this.options.url)} failed: ${(error as Error).message}; run the same command again once it answers`,
          { cause: error },
        );
      }
      throw typedRedisFailure(error, this.options.url) ?? error;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.connection.off('close', this.onClose);
    this.connection.off('ready', this.onReady);
    this.connection.off('error', this.onError);
  }

  /** One heartbeat: probe, then decide whether Redis is down, back, or gone past the budget. */
  tick(): void {
    this.probe();
    const now = this.monotonic();
    const silentMs = now - this.lastAnsweredAt;
    // A hang closes nothing: no answer to the heartbeat for a while counts as down too.
    const isDown = this.connectionClosed || silentMs > Math.max(5 * (this.options.heartbeatMs ?? 1_000), 5_000);
    if (!isDown) return;
    const url = displayRedisUrl(this.options.url);
    const reason = this.reason ?? (this.connectionClosed ? 'connection closed' : `no answer to PING for ${seconds(silentMs)} s`);
    if (!this.down) {
      this.down = true;
      this.lastReminderAt = undefined;
      this.options.logger.warn(
        `Redis at ${url} is not answering (${reason}): waiting for it${this.options.whenUnavailable === 'give_up' ? ` for up to ${seconds(this.options.unavailableTimeoutMs)} s (REDIS_UNAVAILABLE_TIMEOUT)` : ''}`,
      );
    }
    if (silentMs < this.options.unavailableTimeoutMs) return;
    if (this.options.whenUnavailable === 'give_up') {
      if (this.failed !== undefined) return;
      this.fail(
        new RedisUnavailableError(
          `Redis at ${url} did not answer for ${seconds(silentMs)} s (${reason}); gave up after REDIS_UNAVAILABLE_TIMEOUT=${seconds(this.options.unavailableTimeoutMs)}s. Check that Redis runs and is reachable, then run the same command again`,
        ),
      );
      // Nothing more can be stored; stop reconnecting (commands already queued are abandoned, not retried).
      this.stop();
      this.connection.disconnect();
      return;
    }
    if (this.lastReminderAt === undefined || now - this.lastReminderAt >= (this.options.reminderMs ?? 60_000)) {
      this.lastReminderAt = now;
      this.options.logger.error(
        `Redis at ${url} has not answered for ${seconds(silentMs)} s (${reason}): still retrying; work resumes when it is back`,
      );
    }
  }

  private probe(): void {
    if (this.pinging) return;
    this.pinging = true;
    this.connection.ping().then(
      () => {
        this.pinging = false;
        this.answered();
      },
      (error: unknown) => {
        this.pinging = false;
        if (isConnectionFailure(error)) this.connectionError(error as Error);
      },
    );
  }

  private answered(): void {
    this.lastAnsweredAt = this.monotonic();
    this.lastAnsweredWallAt = Date.now();
    this.reason = undefined;
    if (!this.down || this.connectionClosed) return;
    this.down = false;
    this.options.logger.warn(`Redis at ${displayRedisUrl(this.options.url)} is answering again`);
  }

  private connectionError(error: Error): void {
    this.reason = error.message;
  }
}

const seconds = (ms: number): number => Math.round(ms / 1000);

/** The supervisor of each connection, so that whatever is built on a connection reports to it. */
const supervisors = new WeakMap<object, RedisSupervisor>();

/** Starts supervising a connection; everything made on it (BullMQ objects, the settle loop) then shares its budget. */
export function superviseRedis(connection: SupervisedConnection, options: SupervisorOptions): RedisSupervisor {
  const supervisor = new RedisSupervisor(connection, options);
  supervisors.set(connection, supervisor);
  return supervisor;
}

/**
 * The `error` listener for a BullMQ Queue, Worker or QueueEvents made on `connection` (every one needs one:
 * without it an error is thrown out of an event handler and ends the process with a raw stack). It goes to
 * the connection's supervisor; a connection nobody supervises (tests, benchmarks) logs every error.
 */
export function redisErrors(connection: object, source: string, logger: Logger): (error: Error) => void {
  const supervisor = supervisors.get(connection);
  if (supervisor !== undefined) return supervisor.errorListener(source);
  return (error) => logger.error({ err: error }, `${source}: ${error.message}`);
}

/** The health of a supervised connection, for health checks; undefined when nobody supervises it. */
export const redisHealth = (connection: object): RedisHealth | undefined => supervisors.get(connection)?.health();
