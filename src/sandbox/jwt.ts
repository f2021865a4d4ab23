import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

const b64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');
const HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

/**
 * Real HS256 tokens, so clients that decode `exp` to schedule a refresh work against the emulator.
 * Revocation is a set of live jtis: a token stays valid only while its jti is in it.
 */
export class TokenIssuer {
  private readonly secret = randomBytes(32);
  private live = new Map<string, { exp: number; token: string }>();

  issue(subject: string, lifetimeSeconds: number, nowMs = Date.now()): IssuedToken {
    const iat = Math.floor(nowMs / 1000);
    // Rounded up, so a token lives at least the `expires_in` the login answer promises.
    const exp = Math.ceil(nowMs / 1000) + lifetimeSeconds;
    const jti = randomUUID();
    const body = `${HEADER}.${b64url(JSON.stringify({ sub: subject, iat, exp, jti }))}`;
    this.pruneExpired(nowMs);
    const token = `${body}.${this.sign(body)}`;
    this.live.set(jti, { exp, token });
    return { token, expiresIn: lifetimeSeconds };
  }

  isValid(token: string, nowMs = Date.now()): boolean {
    const parts = token.split('.');
    if (parts.length !== 3) return false;
    const [header, payload, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.sign(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    const claims = parseClaims(payload);
    if (!claims) return false;
    return claims.exp * 1000 > nowMs && this.live.has(claims.jti);
  }

  /** The tokens issued and still valid (tests check that no copy of one is kept where it must not be). */
  issued(nowMs = Date.now()): string[] {
    this.pruneExpired(nowMs);
    return [...this.live.values()].map((entry) => entry.token);
  }

  revokeAll(): void {
    this.live.clear();
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }

  private pruneExpired(nowMs: number): void {
    for (const [jti, { exp }] of this.live) if (exp * 1000 <= nowMs) this.live.delete(jti);
  }
}

function parseClaims(payload: string): { exp: number; jti: string } | null {
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof claims !== 'object' || claims === null) return null;
    const { exp, jti } = claims as Record<string, unknown>;
    return typeof exp === 'number' && typeof jti === 'string' ? { exp, jti } : null;
  } catch {
    return null;
  }
}
