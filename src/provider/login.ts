import type { LoginSettings, ProviderSettings } from '../config/index.js';
import { LoginRejectedError, LoginUnavailableError } from '../errors.js';
import { describeNetworkError, type HttpClient, isNetworkError } from './http.js';

export interface AccessToken {
  token: string;
  /** Epoch ms after which the provider refuses the token. */
  expiresAt: number;
}

/** Fallback when the provider says nothing about the lifetime: the published example's hour. */
const DEFAULT_LIFETIME_SECONDS = 3600;

/** Reads `data.access_token`-style dotted paths from a JSON answer. */
export function readPath(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), value);
}

/** The `exp` claim of a JWT, in epoch ms, or undefined for a token that is not a readable JWT. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Interprets a login answer. The token's lifetime comes from `expires_in` or the JWT `exp`, whichever
 * ends first. Any answer without a token is a rejection carrying the provider's message, whatever its shape.
 */
export function readLoginAnswer(settings: LoginSettings, statusCode: number, body: unknown, now = Date.now()): AccessToken {
  const rawMessage = readPath(body, 'message');
  const message = typeof rawMessage === 'string' && rawMessage.trim() !== '' ? rawMessage.trim() : `HTTP ${statusCode}`;
  if (statusCode >= 500 || statusCode === 429 || statusCode === 408) throw new LoginUnavailableError(`provider answered HTTP ${statusCode}: ${message}`);
  const token = readPath(body, settings.tokenPath);
  if (statusCode !== 200 || readPath(body, 'error') === true || typeof token !== 'string' || token === '') {
    throw new LoginRejectedError(message, statusCode);
  }
  const expiresIn = Number(readPath(body, settings.expiresInPath));
  const candidates = [Number.isFinite(expiresIn) && expiresIn > 0 ? now + expiresIn * 1000 : undefined, jwtExpiry(token)].filter(
    (value): value is number => value !== undefined,
  );
  return { token, expiresAt: candidates.length > 0 ? Math.min(...candidates) : now + DEFAULT_LIFETIME_SECONDS * 1000 };
}

/** One login call. Throws LoginRejectedError for credential problems, LoginUnavailableError for ones that may pass. */
export async function login(http: HttpClient, provider: ProviderSettings): Promise<AccessToken> {
  const { login: settings } = provider;
  const fields = { [settings.usernameField]: provider.username ?? '', [settings.passwordField]: provider.password ?? '' };
  let answer;
  try {
    answer = await http.post(`${provider.baseUrl}/api/login`, settings.bodyFormat === 'form' ? { form: fields } : { json: fields });
  } catch (error) {
    if (isNetworkError(error)) throw new LoginUnavailableError(`cannot reach ${provider.baseUrl}: ${describeNetworkError(error)}`, { cause: error });
    throw error;
  }
  return readLoginAnswer(settings, answer.statusCode, answer.body);
}
