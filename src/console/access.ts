import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { UsageError } from '../errors.js';

/** Routes an orchestrator probes without credentials: they say nothing about any batch. */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** 127.0.0.0/8, ::1 and `localhost`: only this machine can reach the console there. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '::ffff:127.0.0.1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/**
 * The console shows personal data (names, masked accounts, full reports): on any address but loopback it
 * starts only with CONSOLE_TOKEN set.
 */
export function checkBind(host: string, token: string | undefined): void {
  if (token === undefined && !isLoopback(host)) {
    throw new UsageError(
      `refusing to serve the console on ${host} without CONSOLE_TOKEN: it shows personal data and full reports. Set CONSOLE_TOKEN (a long random string), or bind to 127.0.0.1`,
    );
  }
}

/** Digests first, so the comparison takes the same time whatever the length or content of the guess. */
const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * The token from `Authorization: Bearer <token>` or HTTP basic with the token as password (any user
 * name: browsers ask for both), compared in constant time.
 */
export function isAuthorized(authorization: string | undefined, token: string): boolean {
  const presented = presentedToken(authorization);
  return timingSafeEqual(digest(presented ?? ''), digest(token)) && presented !== undefined;
}

function presentedToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const [scheme, value] = authorization.trim().split(/\s+/, 2);
  if (value === undefined) return undefined;
  if (scheme!.toLowerCase() === 'bearer') return value;
  if (scheme!.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  return separator < 0 ? undefined : decoded.slice(separator + 1);
}
