import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { RedisUnavailableError } from '../errors.js';

/** A connection to one Redis server or to a Redis Cluster: every store, queue and lease takes either. */
export type RedisClient = Redis | Cluster;

/** One node of a cluster as REDIS_CLUSTER_NODES names it (a seed: the client learns the others from it). */
export interface RedisNode {
  host: string;
  port: number;
}

/** Credentials and TLS, the same for a single server and for every node of a cluster. */
export interface RedisSecurity {
  /** ACL user (Redis 6+); undefined means the `default` user. */
  username?: string | undefined;
  password?: string | undefined;
  /** PEM of a private CA that signed the server certificate (REDIS_TLS_CA_FILE); the system's CAs otherwise. */
  tlsCa?: string | undefined;
}

/** Where Redis is: one server by URL (`redis://`, `rediss://` for TLS), or a cluster by its seed nodes. */
export type RedisTarget =
  | ({ kind: 'server'; url: string } & RedisSecurity)
  | ({ kind: 'cluster'; nodes: RedisNode[]; tls: boolean } & RedisSecurity);

/** Hides a password in a redis://user:pass@host URL before it is shown anywhere. */
export const displayRedisUrl = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/** The target as people read it in messages: the URL without its password, or the cluster's seed nodes. */
export function describeRedis(target: RedisTarget): string {
  if (target.kind === 'server') return displayRedisUrl(target.url);
  return `${target.tls ? 'rediss' : 'redis'}://${target.nodes.map((node) => `${node.host}:${node.port}`).join(',')} (cluster)`;
}

/**
 * Connects and checks with a PING; an unreachable Redis is a systemic error naming the target (never its
 * password). BullMQ needs `maxRetriesPerRequest: null` so that its blocking commands survive reconnects.
 */
export async function connectRedis(target: RedisTarget, connectTimeoutMs = 5_000): Promise<RedisClient> {
  const redis = target.kind === 'server' ? serverClient(target, connectTimeoutMs) : clusterClient(target, connectTimeoutMs);
  let lastError: unknown;
  let nodeError: string | undefined;
  redis.on('error', (error) => (lastError = error));
  // A cluster says only "Failed to refresh slots cache"; why (a refused password, TLS) is in its nodes' errors.
  redis.on('node error', (error: Error, address: string) => (nodeError = `${address}: ${error.message}`));
  try {
    await withTimeout(redis.connect(), connectTimeoutMs);
    await withTimeout(redis.ping(), connectTimeoutMs);
  } catch (error) {
    redis.disconnect();
    const cause = lastError ?? error;
    const detail = (cause instanceof Error ? cause.message : String(cause)) + (nodeError === undefined ? '' : ` (node ${nodeError})`);
    throw new RedisUnavailableError(connectFailure(describeRedis(target), detail), { cause: error });
  }
  return redis;
}

function serverClient(target: Extract<RedisTarget, { kind: 'server' }>, connectTimeoutMs: number): Redis {
  // What the URL says wins: ioredis fills in options only where the URL is silent (REDIS_USERNAME/REDIS_PASSWORD).
  return new Redis(target.url, {
    ...commonOptions(target, connectTimeoutMs),
    ...(isTls(target.url) && target.tlsCa !== undefined && { tls: { ca: target.tlsCa } }),
  });
}

function clusterClient(target: Extract<RedisTarget, { kind: 'cluster' }>, connectTimeoutMs: number): Cluster {
  const options: ClusterOptions = {
    lazyConnect: true,
    redisOptions: {
      ...commonOptions(target, connectTimeoutMs),
      ...(target.tls && { tls: target.tlsCa === undefined ? {} : { ca: target.tlsCa } }),
    },
    // A slot map that cannot be fetched within this is an unreachable cluster, not a silent wait.
    slotsRefreshTimeout: connectTimeoutMs,
    // Managed clusters (ElastiCache, Memorystore) announce nodes by names whose certificates are issued for
    // those names: resolving them here would make TLS check an address against a certificate for a name.
    ...(target.tls && { dnsLookup: (address: string, callback: (error: null, address: string) => void) => callback(null, address) }),
  };
  return new Cluster(target.nodes, options);
}

function commonOptions(security: RedisSecurity, connectTimeoutMs: number): RedisOptions {
  return {
    maxRetriesPerRequest: null,
    // ioredis 6 speaks RESP3 unless told otherwise; the Lua commands, BullMQ and the replies this code reads were
    // written and tested against RESP2, so the wire protocol stays what it was under ioredis 5.
    protocol: 2,
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    ...(security.username !== undefined && { username: security.username }),
    ...(security.password !== undefined && { password: security.password }),
  };
}

const isTls = (url: string): boolean => /^rediss:\/\//i.test(url);

/** One line that says what to change: credentials, the CA, or where Redis is. */
function connectFailure(where: string, detail: string): string {
  if (/WRONGPASS|NOAUTH|invalid (username|password)|AUTH failed/i.test(detail)) {
    return `Redis at ${where} refused the credentials (${detail}): check the user and password in REDIS_URL or REDIS_USERNAME/REDIS_PASSWORD`;
  }
  if (/certificate|self[- ]signed|SSL|TLS|wrong version number/i.test(detail)) {
    return `TLS to Redis at ${where} failed (${detail}): check the address is a TLS port (rediss://) and, for a private CA, REDIS_TLS_CA_FILE`;
  }
  return `Redis is unreachable at ${where}: ${detail}`;
}

/** True when something answers PING at the URL within a short time. */
export async function redisAnswers(url: string): Promise<boolean> {
  try {
    const redis = await connectRedis({ kind: 'server', url }, 1_000);
    redis.disconnect();
    return true;
  } catch {
    return false;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
