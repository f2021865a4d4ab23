import type { LoginSettings, ProviderSettings } from '../config/index.js';
import { LoginRejectedError, LoginUnavailableError } from '../errors.js';
import { describeNetworkError, type HttpClient, isNetworkError } from './http.js';

export interface AccessToken {
  token: string;
  /**
   * How long the token lives, counted from when its answer was read (ms): what the provider itself says,
   * never an instant on this machine's clock, so a wrong local clock does not shorten or stretch it.
   */
  lifetimeMs: number;
  /** How far this machine's clock is ahead of the provider's (ms; negative: behind), when the answer tells. */
  clockSkewMs?: number | undefined;
}

/** Fallback when the provider says nothing about the lifetime: the published example's hour. */
const DEFAULT_LIFETIME_SECONDS = 3600;

/** Reads `data.access_token`-style dotted paths from a JSON answer. */
export function readPath(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
      value,
    );
}

/** The `iat` and `exp` claims of a JWT, in epoch ms (each undefined when absent, or for a token that is not a readable JWT). */
export function jwtTimes(token: string): { issuedAt?: number | undefined; expiresAt?: number | undefined } {
  const payload = token.split('.')[1];
  if (payload === undefined) return {};
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iat?: unknown; exp?: unknown };
    const ms = (claim: unknown) => (typeof claim === 'number' && Number.isFinite(claim) ? claim * 1000 : undefined);
    return { issuedAt: ms(claims.iat), expiresAt: ms(claims.exp) };
  } catch {
    return {};
  }
}

/**
 * Interprets a login answer. The token's lifetime is the shortest the provider states about it relative to
 * its issue: `expires_in`, and the JWT's `exp - iat` (both on the provider's own clock). Only a JWT with an
 * `exp` and nothing else is read against this machine's clock (`exp - now`). The `iat` (or, without one,
 * `exp` against `expires_in`) tells how far this machine's clock is off the provider's: a clock 2 h ahead
 * is this machine's fault, and harmless here. Any answer without a token is a rejection carrying the
 * provider's message, whatever its shape.
 */
export function readLoginAnswer(settings: LoginSettings, statusCode: number, body: unknown, now = Date.now()): AccessToken {
  const rawMessage = readPath(body, 'message');
  const message = typeof rawMessage === 'string' && rawMessage.trim() !== '' ? rawMessage.trim() : `HTTP ${statusCode}`;
  if (statusCode >= 500 || statusCode === 429 || statusCode === 408)
    throw new LoginUnavailableError(`provider answered HTTP ${statusCode}: ${message}`);
  const token = readPath(body, settings.tokenPath);
  if (statusCode !== 200 || readPath(body, 'error') === true || typeof token !== 'string' || token === '') {
    throw new LoginRejectedError(message, statusCode);
  }
  const expiresInSeconds = Number(readPath(body, settings.expiresInPath));
  const expiresIn = Number.isFinite(expiresInSeconds) && expiresInSeconds > 0 ? expiresInSeconds * 1000 : undefined;
  const { issuedAt, expiresAt } = jwtTimes(token);
  const stated = [expiresIn, issuedAt !== undefined && expiresAt !== undefined ? expiresAt - issuedAt : undefined].filter(
    (value): value is number => value !== undefined,
  );
  const clockSkewMs =
    issuedAt !== undefined ? now - issuedAt : expiresAt !== undefined && expiresIn !== undefined ? now + expiresIn - expiresAt : undefined;
  if (stated.length === 0 && expiresAt !== undefined && expiresAt <= now) {
    throw new LoginRejectedError(
      `the provider issued a token whose exp (${new Date(expiresAt).toISOString()}) is before this machine's clock (${new Date(now).toISOString()}) and said nothing else about its lifetime: either this machine's clock is ahead (check NTP) or the provider issues expired tokens`,
      200,
    );
  }
  const lifetimeMs = stated.length > 0 ? Math.min(...stated) : expiresAt !== undefined ? expiresAt - now : DEFAULT_LIFETIME_SECONDS * 1000;
  if (lifetimeMs <= 0)
    throw new LoginRejectedError('the provider issued a token that has already expired (its exp is not after its iat)', 200);
  return { token, lifetimeMs, clockSkewMs };
}

/** One login call. Throws LoginRejectedError for credential problems, LoginUnavailableError for ones that may pass. */
export async function login(http: HttpClient, provider: ProviderSettings): Promise<AccessToken> {
  const { login: settings } = provider;
  const fields = { [settings.usernameField]: provider.username ?? '', [settings.passwordField]: provider.password ?? '' };
  let answer;
  try {
    answer = await http.post(`${provider.baseUrl}/api/login`, settings.bodyFormat === 'form' ? { form: fields } : { json: fields });
  } catch (error) {
    if (isNetworkError(error))
      throw new LoginUnavailableError(`cannot reach ${provider.baseUrl}: ${describeNetworkError(error)}`, { cause: error });
    throw error;
  }
  return readLoginAnswer(settings, answer.statusCode, answer.body);
}
