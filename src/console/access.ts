import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { UsageError } from '../errors.js';
import { clientOf, FailedAttempts, FAILURE_REFILL_MS, FREE_FAILURES } from './failed-attempts.js';

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

/** The shortest CONSOLE_TOKEN accepted: 32 random characters are beyond guessing, even unthrottled. */
const MIN_TOKEN_LENGTH = 32;

/**
 * A CONSOLE_TOKEN that a person made up, a placeholder or a short one is refused at start (exit 2), saying
 * how to make one. Length and variety are what can be checked; randomness is the maker's part.
 */
export function checkConsoleToken(token: string | undefined): void {
  if (token === undefined) return;
  const make = 'make one with `openssl rand -hex 32`';
  if (/change.?me/i.test(token)) throw new UsageError(`CONSOLE_TOKEN is still a placeholder ("change-me"): ${make}`);
  if (token.length < MIN_TOKEN_LENGTH)
    throw new UsageError(`CONSOLE_TOKEN has ${token.length} characters; it needs at least ${MIN_TOKEN_LENGTH} random ones: ${make}`);
  if (new Set(token).size < 8)
    throw new UsageError(`CONSOLE_TOKEN repeats a few characters (${new Set(token).size} different ones): it must be random; ${make}`);
}

/**
 * The host a request was addressed to (its Host header without the port), lower case; undefined when it
 * has none. `[::1]:8080` -> `::1`, `localhost:8080` -> `localhost`.
 */
function requestedHost(hostHeader: string | undefined): string | undefined {
  const host = hostHeader?.trim().toLowerCase();
  if (host === undefined || host === '') return undefined;
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(host);
  if (bracketed) return bracketed[1];
  return host.replace(/:\d*$/, '');
}

/**
 * Without CONSOLE_TOKEN the console answers only requests addressed to this machine by a loopback name or
 * address. A page of another site that points its own name at 127.0.0.1 (DNS rebinding) sends its own
 * name in Host: refused, so the browser never reads a page, a report or the API, nor uploads.
 */
export const isAddressedToLoopback = (hostHeader: string | undefined): boolean => {
  const host = requestedHost(hostHeader);
  return host !== undefined && isLoopback(host);
};

/** A request the console does not answer: its status, headers and the message that says why. */
export interface AccessRefusal {
  status: 401 | 421 | 429;
  headers?: Record<string, string>;
  error: string;
}

/** What the access rules need of a request. */
type AccessRequest = Pick<FastifyRequest, 'url' | 'ip' | 'headers'>;

/**
 * The console's access rules, for every request but the probes (OPEN_PATHS). Without a token: only requests
 * addressed to a loopback name (421 otherwise). With one: the token (401 without it), and wrong tokens
 * counted per client address (429 past the allowance, see FailedAttempts); `warn` is told when an address
 * uses its allowance up.
 */
export function consoleAccess(
  token: string | undefined,
  warn: (message: string, client: string) => void,
): (request: AccessRequest) => AccessRefusal | undefined {
  const failedAttempts = new FailedAttempts();
  return (request): AccessRefusal | undefined => {
    if (OPEN_PATHS.has(request.url.split('?')[0]!)) return undefined;
    if (token === undefined) {
      if (isAddressedToLoopback(request.headers.host)) return undefined;
      return {
        status: 421,
        error: `this console has no CONSOLE_TOKEN, so it answers only requests addressed to this machine as localhost, 127.0.0.1 or [::1], not to ${JSON.stringify(request.headers.host ?? '')}: open it at http://127.0.0.1:<port>/, or set CONSOLE_TOKEN to reach it under another name`,
      };
    }
    const waitMs = failedAttempts.waitFor(request.ip);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      return {
        status: 429,
        headers: { 'retry-after': String(seconds) },
        error: `too many wrong tokens from this address: try again in ${seconds} s`,
      };
    }
    if (isAuthorized(request.headers.authorization, token)) return undefined;
    if (presentedToken(request.headers.authorization) !== undefined && failedAttempts.failed(request.ip)) {
      const client = clientOf(request.ip);
      warn(
        `console: ${FREE_FAILURES} wrong tokens or more from ${client}: its requests are refused (429) but one every ${FAILURE_REFILL_MS / 1000} s`,
        client,
      );
    }
    return {
      status: 401,
      headers: { 'www-authenticate': 'Basic realm="beneficiary-check", charset="UTF-8"' },
      error: 'this console needs CONSOLE_TOKEN: Authorization: Bearer <token>, or basic with the token as password',
    };
  };
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

/** The token a request presents (bearer, or basic password), whatever its worth; undefined when none. */
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
