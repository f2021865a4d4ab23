import { RedisClientLimitError, RedisFullError, type SystemicError } from '../errors.js';
import { displayRedisUrl, type RedisClient } from './connection.js';

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
 * Redis has as many connections as its `maxclients` allows: it answers a new one with this and closes it.
 * ioredis mostly sees only the closed socket (EPIPE, ECONNRESET) and tries again for ever, so the pool of
 * inquiry workers says it in these words when a worker's connection does not open (clientLimit).
 */
export const CLIENT_LIMIT_REPLY = 'ERR max number of clients reached';

const isClientLimit = (error: unknown): boolean => error instanceof Error && error.message.startsWith(CLIENT_LIMIT_REPLY);

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
  if (isClientLimit(error)) {
    return new RedisClientLimitError(
      `Redis at ${displayRedisUrl(url)} refuses new connections: ${(error as Error).message}. Every process of beneficiary-check that checks files (run, worker, watch, schedule, serve) opens a connection for its commands and one for each of its inquiry workers' job fetches (docs/operations-and-deploy.md, Redis connections). Raise Redis's maxclients, or run fewer processes; then run the same command again`,
      { cause: error },
    );
  }
  return undefined;
}

/** Connections Redis holds and the most it takes (`INFO clients`); undefined when it does not say. */
export async function clientLimit(redis: Pick<RedisClient, 'info'>): Promise<{ connected: number; max: number } | undefined> {
  const info = await redis.info('clients');
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  const connected = field('connected_clients');
  const max = field('maxclients');
  return Number.isFinite(connected) && Number.isFinite(max) ? { connected, max } : undefined;
}
