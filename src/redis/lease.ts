import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock/clock.js';
import { isGoneProcess, thisPlace } from '../host/process.js';
import { LEASE_ACQUIRE, LEASE_RELEASE, LEASE_RENEW, LEASE_TAKE_OVER } from './commands/lease.js';
import { runCommand, type RedisClient } from './commands/define.js';

/** Who holds a lease: the owner id, where it runs, since when, and what the caller added (a job id, a folder). */
export interface LeaseHolder {
  owner: string;
  host: string;
  /** Where `pid` means something (see ProcessPlace); absent from leases of other platforms. */
  pidNamespace?: string | undefined;
  pid: number;
  since: number;
  [detail: string]: unknown;
}

export interface LeaseOptions {
  ttlMs: number;
  /** Defaults to a fresh id; a caller that must take its own lease up again after a restart passes a stable one. */
  owner?: string;
  /** Written into the lease for whoever finds it held (a job id, a folder path). */
  details?: Record<string, unknown>;
  clock?: Clock;
}

/** The lease was lost while its work was going on: taken over after it expired, or not renewable in time. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/**
 * One exclusive, expiring claim in Redis, used for everything that must have a single owner: the token
 * refresh, the watcher of a folder, the nightly run, the producer of a file's batch.
 *
 * - `acquire()` takes it when it is free or already ours, or when its holder's process is gone (it ran on
 *   this host, in this pid namespace, and no longer exists: a `kill -9` or a crash must not keep the work
 *   waiting for the expiry); otherwise it names the holder.
 * - `keepAlive()` renews it every third of its lifetime. When a renewal finds it taken, or no renewal
 *   succeeded for a whole lifetime (Redis gone, a stalled process), the lease is lost: `signal` aborts with
 *   a LeaseLostError and the work it guarded must stop or hand itself back.
 * - `release()` frees it only while it is still ours.
 */
export class Lease {
  readonly owner: string;
  private readonly lost = new AbortController();
  private renewTimer: NodeJS.Timeout | undefined;
  /** On the monotonic clock: a step of the wall clock neither loses the lease nor keeps it beyond its lifetime. */
  private lastRenewedAt = 0;
  private readonly clock: Clock;

  constructor(
    private readonly redis: RedisClient,
    readonly key: string,
    private readonly options: LeaseOptions,
  ) {
    this.owner = options.owner ?? randomUUID();
    this.clock = options.clock ?? systemClock;
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  /** Aborted (with a LeaseLostError as its reason) when the lease is lost. */
  get signal(): AbortSignal {
    return this.lost.signal;
  }

  /** Undefined when the lease is now ours; else who holds it. */
  async acquire(): Promise<LeaseHolder | undefined> {
    const value: LeaseHolder = { ...this.options.details, owner: this.owner, ...thisPlace, pid: process.pid, since: this.clock.now() };
    const encoded = JSON.stringify(value);
    let current = await runCommand<string | null>(this.redis, LEASE_ACQUIRE, [this.key], [this.owner, encoded, this.options.ttlMs]);
    if (current !== null) {
      const holder = parseHolder(current);
      if (!isGoneProcess(holder, holder.pid)) return holder;
      current = await runCommand<string | null>(this.redis, LEASE_TAKE_OVER, [this.key], [holder.owner, encoded, this.options.ttlMs]);
      if (current !== null) return parseHolder(current);
    }
    this.lastRenewedAt = this.clock.monotonic();
    return undefined;
  }

  /**
   * Waits for the lease, telling `onHeld` who holds it (on every poll, so it can report); gives up when
   * `signal` aborts (resolving false).
   */
  async acquireWhenFree(options: { pollMs: number; signal?: AbortSignal; onHeld?: (holder: LeaseHolder) => void }): Promise<boolean> {
    for (;;) {
      if (options.signal?.aborted) return false;
      const holder = await this.acquire();
      if (holder === undefined) return true;
      options.onHeld?.(holder);
      await this.clock.sleep(options.pollMs, options.signal);
    }
  }

  /** Renews the lease until it is released; `onLost` is told once if it is lost. */
  keepAlive(onLost?: (error: LeaseLostError) => void): void {
    if (this.renewTimer !== undefined) return;
    const lose = (error: LeaseLostError) => {
      this.stopRenewing();
      if (this.lost.signal.aborted) return;
      this.lost.abort(error);
      onLost?.(error);
    };
    this.renewTimer = setInterval(
      () => {
        this.renew().then(
          (renewed) => {
            if (!renewed) lose(new LeaseLostError(`lease ${this.key} was taken over by another process after it expired`));
          },
          (error: unknown) => {
            if (this.clock.monotonic() - this.lastRenewedAt >= this.options.ttlMs) {
              lose(
                new LeaseLostError(
                  `lease ${this.key} could not be renewed for ${this.options.ttlMs} ms: ${error instanceof Error ? error.message : String(error)}`,
                ),
              );
            }
          },
        );
      },
      Math.max(10, Math.floor(this.options.ttlMs / 3)),
    );
    this.renewTimer.unref();
  }

  async renew(): Promise<boolean> {
    const renewed = (await runCommand<number>(this.redis, LEASE_RENEW, [this.key], [this.owner, this.options.ttlMs])) === 1;
    if (renewed) this.lastRenewedAt = this.clock.monotonic();
    return renewed;
  }

  async release(): Promise<void> {
    this.stopRenewing();
    await runCommand<number>(this.redis, LEASE_RELEASE, [this.key], [this.owner]);
  }

  /** Stops renewing without releasing: the lease expires by itself (work handed back keeps others off until then). */
  abandon(): void {
    this.stopRenewing();
  }

  /** Who holds the lease now, if anyone. */
  async holder(): Promise<LeaseHolder | undefined> {
    const value = await this.redis.get(this.key);
    return value === null ? undefined : parseHolder(value);
  }

  private stopRenewing(): void {
    clearInterval(this.renewTimer);
    this.renewTimer = undefined;
  }
}

function parseHolder(value: string): LeaseHolder {
  try {
    return JSON.parse(value) as LeaseHolder;
  } catch {
    return { owner: value, host: '?', pid: 0, since: 0 };
  }
}

/** "pid 1234 on host-a since 2026-11-22T02:00:00.000Z" */
export const describeHolder = (holder: LeaseHolder): string =>
  `pid ${holder.pid} on ${holder.host} since ${new Date(holder.since).toISOString()}`;
