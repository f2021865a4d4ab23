import { RedisFullError, type SystemicError } from '../errors.js';
import { displayRedisUrl } from './connection.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
]);

/**
 * The connection failed (refused, reset, timed out, closed, Redis still loading its data, a cluster failing over): it passes when
 * Redis is back, and the connection's supervisor decides how long that may take. Not a bug, not a full Redis.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && CONNECTION_CODES.has(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  if (/^Connection is closed|^LOADING |Stream isn't writeable|^connect ETIMEDOUT/.test(error.message)) return true;
  // A cluster failing over (no master for a slot yet, slots moving) or with no node reachable: passes as above.
  return /^CLUSTERDOWN |^TRYAGAIN |^None of startup nodes is available|^Failed to refresh slots cache|^Cluster is disconnected|^Node is disconnected/.test(
    error.message,
  );
}

/** Redis answered that it is out of memory (`maxmemory` reached with the `noeviction` policy). */
export const isRedisFull = (error: unknown): boolean => error instanceof Error && /^OOM /.test(error.message);

/**
 * The typed error for a Redis answer that no retry mends, naming Redis, the cause and what to do; undefined
 * for anything else (a connection failure is the supervisor's; anything else stays what it is).
 */
export function typedRedisFailure(error: unknown, url: string): SystemicError | undefined {
  if (isRedisFull(error)) {
    return new RedisFullError(
      `Redis at ${displayRedisUrl(url)} is full: it refuses writes (OOM: used memory is above its maxmemory, policy noeviction). Raise maxmemory, or free room by deleting batches you no longer need; then run the same command again`,
      { cause: error },
    );
  }
  return undefined;
}
