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

/** The token and when to refresh it, so every process refreshes at the same moment. */
interface StoredToken extends AccessToken {
  refreshAt: number;
}

/** What Redis holds: the token sealed (see token-seal.ts), a keyed id of it, and the times in clear. */
interface SealedToken {
  sealed: string;
  id: string;
  expiresAt: number;
  refreshAt: number;
}

export interface LoginFailureRecord {
  message: string;
  /** true for credential problems: retrying the same login cannot help. */
  rejected: boolean;
  at: number;
}

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
  private local: StoredToken | undefined;
  private inFlight: Promise<StoredToken> | undefined;
  private readonly identity: string;
  private readonly seal: TokenSeal;
  private unreadableWarned = false;

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
    const now = Date.now();
    if (this.local && now < this.local.refreshAt) return this.local.token;
    this.inFlight ??= this.obtain().finally(() => (this.inFlight = undefined));
    return (await this.inFlight).token;
  }

  /** Called after a 401 with the token that was refused. */
  async invalidate(refusedToken: string): Promise<void> {
    if (this.local?.token === refusedToken) this.local = undefined;
    const dropped = await runCommand<number>(this.redis, TOKEN_DELETE_IF_SAME, [this.keys.token(this.identity)], [this.seal.id(refusedToken)]);
    if (dropped === 1) this.events.refresh('refused');
  }

  async lastLoginFailure(): Promise<LoginFailureRecord | undefined> {
    const stored = await this.redis.get(this.keys.loginFailure(this.identity));
    return stored === null ? undefined : (JSON.parse(stored) as LoginFailureRecord);
  }

  /**
   * Posts a login or token failure for every process to see (`run` stops on a rejected one). Credential
   * problems and fresh tokens refused by the provider cannot pass by retrying: they count as rejected.
   */
  async recordFailure(error: SystemicError): Promise<void> {
    const record: LoginFailureRecord = {
      message: error.message,
      rejected: error instanceof LoginRejectedError || error instanceof TokenRejectedError,
      at: Date.now(),
    };
    await this.redis.set(this.keys.loginFailure(this.identity), JSON.stringify(record), 'PX', 10 * 60_000);
  }

  private async obtain(): Promise<StoredToken> {
    const deadline = Date.now() + this.loginTimeoutMs * 2 + 5_000;
    for (;;) {
      const cached = await this.readShared();
      const now = Date.now();
      if (cached && now < cached.refreshAt) return (this.local = cached);
      const lock = new Lease(this.redis, this.keys.tokenLock(this.identity), { ttlMs: this.loginTimeoutMs + 5_000 });
      if ((await lock.acquire()) === undefined) {
        // Lost only when Redis cannot renew it for a whole lifetime: another process may then log in too,
        // which costs one more login and nothing else (both tokens are valid).
        lock.keepAlive((error) => this.logger.warn(`${error.message}: another process may log in as well`));
        try {
          // Another process may have logged in between our read and our lock.
          const again = await this.readShared();
          if (again && Date.now() < again.refreshAt) return (this.local = again);
          const fresh = await this.loginAndShare();
          if (again !== undefined) this.events.refresh('expiring');
          return (this.local = fresh);
        } finally {
          await lock.release();
        }
      }
      // Someone else is logging in: a token still valid is good enough until theirs arrives.
      if (cached && now < cached.expiresAt) return (this.local = { ...cached, refreshAt: Math.min(now + STALE_GRACE_MS, cached.expiresAt) });
      if (now > deadline) throw new LoginUnavailableError('timed out waiting for another process to log in');
      await sleep(LOCK_POLL_MS);
    }
  }

  private async readShared(): Promise<StoredToken | undefined> {
    const stored = await this.redis.get(this.keys.token(this.identity));
    if (stored === null) return undefined;
    const { sealed, expiresAt, refreshAt } = JSON.parse(stored) as Partial<SealedToken>;
    const token = sealed === undefined ? undefined : this.seal.open(sealed);
    if (token === undefined || expiresAt === undefined || refreshAt === undefined) {
      // Sealed with another password (it was changed), by an older version, or altered: log in again.
      if (!this.unreadableWarned) this.logger.info('the token stored in Redis cannot be opened with the current H2H_PASSWORD (changed?): logging in again');
      this.unreadableWarned = true;
      return undefined;
    }
    return { token, expiresAt, refreshAt };
  }

  private async loginAndShare(): Promise<StoredToken> {
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
    const now = Date.now();
    const lifetimeMs = fresh.expiresAt - now;
    if (lifetimeMs <= 0) throw new LoginRejectedError('the provider issued a token that has already expired', 200);
    // The margin shrinks for short-lived tokens: a twentieth of the lifetime at most (3 min of an hour).
    const marginMs = Math.min(this.provider.login.refreshMarginSeconds * 1000, lifetimeMs / 20);
    const stored: StoredToken = { ...fresh, refreshAt: fresh.expiresAt - marginMs };
    const sealed: SealedToken = { sealed: this.seal.seal(fresh.token), id: this.seal.id(fresh.token), expiresAt: stored.expiresAt, refreshAt: stored.refreshAt };
    await this.redis.multi().set(this.keys.token(this.identity), JSON.stringify(sealed), 'PX', Math.ceil(lifetimeMs)).del(failureKey).exec();
    this.logger.info({ environment: this.provider.environment, expiresInS: Math.round(lifetimeMs / 1000) }, 'logged in to the provider');
    return stored;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
