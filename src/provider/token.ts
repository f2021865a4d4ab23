import type { RedisClient } from '../redis/connection.js';
import type { ProviderSettings } from '../config/index.js';
import { LoginRejectedError, LoginUnavailableError, SystemicError, TokenRejectedError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import { runCommand } from '../redis/commands/define.js';
import { TOKEN_DELETE_IF_SAME } from '../redis/commands/token.js';
import { shortDigest, type RedisKeys } from '../redis/keys.js';
import { Lease } from '../redis/lease.js';
import type { AccessToken } from './login.js';
import { tokenSeal, type TokenSeal } from './token-seal.js';

/**
 * The token as this process holds it: when it expires and when to refresh it, on this process's monotonic
 * clock (performance.now), so a step of the wall clock neither makes a good token look expired nor keeps an
 * expired one in use.
 */
interface LocalToken {
  token: string;
  expiresAt: number;
  refreshAt: number;
}

/**
 * What Redis holds: the token sealed (see token-seal.ts), a keyed id of it, and how long before its expiry it
 * is refreshed. When it expires is the key's own TTL (read with PTTL, on Redis's clock): every process, on
 * whatever machine and with whatever wall clock, sees the same remaining lifetime and refreshes at the same moment.
 */
interface SealedToken {
  sealed: string;
  id: string;
  marginMs: number;
}

export interface LoginFailureRecord {
  message: string;
  /** true for credential problems: retrying the same login cannot help. */
  rejected: boolean;
  at: number;
  /** A fresh token refused for one account of this batch: it stops that batch only (see ProviderClient). */
  batchId?: string | undefined;
  /**
   * A keyed digest of the credentials that failed (TokenSeal.id: it names them without revealing them): a
   * process with other credentials (the password put right) does not take this failure for its own.
   * Absent in records written before it: those count for everyone, as then.
   */
  credentials?: string | undefined;
}

/** What the credentials' digest is taken of (see LoginFailureRecord.credentials). */
const CREDENTIALS_PROBE = 'the credentials of a failed login';

/** Narrow callbacks for the metrics: what the session did, nothing about how it is counted. */
export interface TokenSessionEvents {
  login(outcome: 'success' | 'failure'): void;
  /** A token replaced before it expired (`expiring`), or dropped because the provider refused it (`refused`). */
  refresh(reason: 'expiring' | 'refused'): void;
}

const NO_EVENTS: TokenSessionEvents = { login: () => undefined, refresh: () => undefined };

const LOCK_POLL_MS = 50;
/** How long a process keeps using a still-valid token while another process fetches its successor. */
const STALE_GRACE_MS = 200;
/** A clock this far off the provider's is worth a warning (a few seconds are the network and rounding). */
const CLOCK_SKEW_WARNING_MS = 60_000;
/** How many tokens the process remembers as accepted by the provider (see `accepted`). */
const ACCEPTED_REMEMBERED = 4;

/**
 * The identity a token belongs to: environment, base address and username. Sandbox and production
 * tokens, or two accounts at one provider, never share a cache entry.
 */
export const tokenIdentity = (provider: Pick<ProviderSettings, 'environment' | 'baseUrl' | 'username'>): string =>
  `${provider.environment}:${shortDigest(`${provider.baseUrl ?? ''}|${provider.username ?? ''}`)}`;

/**
 * One access token for every worker of every process, kept in Redis with its lifetime.
 *
 * - A token is refreshed `margin` before it expires, so a steady run never meets a 401.
 * - Only one process logs in at a time (a lease, renewed while the login runs: a slow login does not let a
 *   second one start); inside a process one in-flight promise serves every caller. Processes that lose the race wait for the winner's token, or keep
 *   using the current one while it is still valid.
 * - A 401 drops the cached token only if it is still the one that failed (compare-and-delete).
 */
export class SharedTokenSession {
  private local: LocalToken | undefined;
  private inFlight: Promise<LocalToken> | undefined;
  private readonly identity: string;
  private readonly seal: TokenSeal;
  private unreadableWarned = false;
  /** Ids of the last tokens the provider answered an inquiry with (see `accepted`). */
  private readonly acceptedIds: string[] = [];
  /** The last token given an id, and its id: every answer asks for the id of the token in use (an HMAC each). */
  private lastId: { token: string; id: string } | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly provider: ProviderSettings,
    private readonly performLogin: () => Promise<AccessToken>,
    private readonly logger: Logger,
    private readonly loginTimeoutMs: number,
    private readonly events: TokenSessionEvents = NO_EVENTS,
  ) {
    this.identity = tokenIdentity(provider);
    this.seal = tokenSeal(provider.password ?? '', `${this.identity}|${provider.baseUrl ?? ''}|${provider.username ?? ''}`);
  }

  /** A token valid now. Logs in only when no process holds a fresh one. */
  async token(): Promise<string> {
    if (this.local && performance.now() < this.local.refreshAt) return this.local.token;
    this.inFlight ??= this.obtain().finally(() => (this.inFlight = undefined));
    return (await this.inFlight).token;
  }

  /** Called after a 401 with the token that was refused. */
  async invalidate(refusedToken: string): Promise<void> {
    if (this.local?.token === refusedToken) this.local = undefined;
    const dropped = await runCommand<number>(this.redis, TOKEN_DELETE_IF_SAME, [this.keys.token(this.identity)], [this.idOf(refusedToken)]);
    if (dropped === 1) this.events.refresh('refused');
  }

  /**
   * The provider answered an inquiry made with `token` in its own protocol: it accepts that token. A 401 for
   * one account with a token accepted for others is about that account, not the token (ProviderClient).
   */
  accepted(token: string): void {
    const id = this.idOf(token);
    if (this.acceptedIds.includes(id)) return;
    this.acceptedIds.push(id);
    if (this.acceptedIds.length > ACCEPTED_REMEMBERED) this.acceptedIds.shift();
  }

  /** Whether the provider answered an inquiry of this process made with `token`. */
  wasAccepted(token: string): boolean {
    return this.acceptedIds.includes(this.idOf(token));
  }

  private idOf(token: string): string {
    if (this.lastId?.token !== token) this.lastId = { token, id: this.seal.id(token) };
    return this.lastId.id;
  }

  /** The failure posted for this identity, unless it was met with other credentials than this process's. */
  async lastLoginFailure(): Promise<LoginFailureRecord | undefined> {
    const stored = await this.redis.get(this.keys.loginFailure(this.identity));
    if (stored === null) return undefined;
    const record = JSON.parse(stored) as LoginFailureRecord;
    return record.credentials === undefined || record.credentials === this.credentials() ? record : undefined;
  }

  private credentials(): string {
    return this.seal.id(CREDENTIALS_PROBE);
  }

  /**
   * Posts a login or token failure for every process to see (`run` stops on a rejected one). Credential
   * problems and fresh tokens refused by the provider cannot pass by retrying: they count as rejected.
   */
  async recordFailure(error: SystemicError, batchId?: string): Promise<void> {
    const record: LoginFailureRecord = {
      message: error.message,
      rejected: error instanceof LoginRejectedError || error instanceof TokenRejectedError,
      at: Date.now(),
      ...(batchId !== undefined && { batchId }),
      credentials: this.credentials(),
    };
    await this.redis.set(this.keys.loginFailure(this.identity), JSON.stringify(record), 'PX', 10 * 60_000);
  }

  private async obtain(): Promise<LocalToken> {
    const deadline = performance.now() + this.loginTimeoutMs * 2 + 5_000;
    for (;;) {
      const cached = await this.readShared();
      const now = performance.now();
      if (cached && now < cached.refreshAt) return (this.local = cached);
      const lock = new Lease(this.redis, this.keys.tokenLock(this.identity), { ttlMs: this.loginTimeoutMs + 5_000 });
      if ((await lock.acquire()) === undefined) {
        // Lost only when Redis cannot renew it for a whole lifetime: another process may then log in too,
        // which costs one more login and nothing else (both tokens are valid).
        lock.keepAlive((error) => this.logger.warn(`${error.message}: another process may log in as well`));
        try {
          // Another process may have logged in between our read and our lock.
          const again = await this.readShared();
          if (again && performance.now() < again.refreshAt) return (this.local = again);
          const fresh = await this.loginAndShare();
          if (again !== undefined) this.events.refresh('expiring');
          return (this.local = fresh);
        } finally {
          await lock.release();
        }
      }
      // Someone else is logging in: a token still valid is good enough until theirs arrives.
      if (cached && now < cached.expiresAt)
        return (this.local = { ...cached, refreshAt: Math.min(now + STALE_GRACE_MS, cached.expiresAt) });
      if (now > deadline) throw new LoginUnavailableError('timed out waiting for another process to log in');
      await sleep(LOCK_POLL_MS);
    }
  }

  private async readShared(): Promise<LocalToken | undefined> {
    const key = this.keys.token(this.identity);
    const [[, stored], [, remainingMs]] = (await this.redis.multi().get(key).pttl(key).exec()) as [
      [unknown, string | null],
      [unknown, number],
    ];
    const readAt = performance.now();
    if (stored === null || remainingMs <= 0) return undefined;
    const { sealed, marginMs } = JSON.parse(stored) as Partial<SealedToken>;
    const token = sealed === undefined ? undefined : this.seal.open(sealed);
    if (token === undefined || typeof marginMs !== 'number') {
      // Sealed with another password (it was changed), by an older version, or altered: log in again.
      if (!this.unreadableWarned)
        this.logger.info('the token stored in Redis cannot be opened with the current H2H_PASSWORD (changed?): logging in again');
      this.unreadableWarned = true;
      return undefined;
    }
    return { token, expiresAt: readAt + remainingMs, refreshAt: readAt + remainingMs - marginMs };
  }

  private async loginAndShare(): Promise<LocalToken> {
    const failureKey = this.keys.loginFailure(this.identity);
    let fresh: AccessToken;
    try {
      fresh = await this.performLogin();
    } catch (error) {
      this.events.login('failure');
      if (error instanceof SystemicError) await this.recordFailure(error);
      throw error;
    }
    this.events.login('success');
    const answeredAt = performance.now();
    const { lifetimeMs, clockSkewMs } = fresh;
    // The margin shrinks for short-lived tokens: a twentieth of the lifetime at most (3 min of an hour).
    const marginMs = Math.min(this.provider.login.refreshMarginSeconds * 1000, lifetimeMs / 20);
    const sealed: SealedToken = { sealed: this.seal.seal(fresh.token), id: this.seal.id(fresh.token), marginMs };
    await this.redis
      .multi()
      .set(this.keys.token(this.identity), JSON.stringify(sealed), 'PX', Math.ceil(lifetimeMs))
      .del(failureKey)
      .exec();
    this.logger.info({ environment: this.provider.environment, expiresInS: Math.round(lifetimeMs / 1000) }, 'logged in to the provider');
    if (clockSkewMs !== undefined && Math.abs(clockSkewMs) >= CLOCK_SKEW_WARNING_MS) {
      this.logger.warn(
        { clockSkewS: Math.round(clockSkewMs / 1000) },
        `this machine's clock is about ${describeSkew(clockSkewMs)} ${clockSkewMs > 0 ? 'ahead of' : 'behind'} the provider's (read from the token's issue time): ` +
          "the token's lifetime is counted from the provider's answer, so the checks go on; set this machine's clock right (NTP): times in reports and logs depend on it",
      );
    }
    return { token: fresh.token, expiresAt: answeredAt + lifetimeMs, refreshAt: answeredAt + lifetimeMs - marginMs };
  }
}

/** 7_200_000 -> "2 h", 90_000 -> "2 min" (whole units, the largest that fits). */
function describeSkew(ms: number): string {
  const seconds = Math.abs(ms) / 1000;
  if (seconds >= 3600) return `${Math.round(seconds / 3600)} h`;
  if (seconds >= 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds)} s`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
