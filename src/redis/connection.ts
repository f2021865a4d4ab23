import { Redis } from 'ioredis';
import { RedisUnavailableError } from '../errors.js';

/** Hides a password in a redis://user:pass@host URL before it is shown anywhere. */
export const displayRedisUrl = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/**
 * Connects and checks with a PING; an unreachable Redis is a systemic error naming the URL. BullMQ
 * needs `maxRetriesPerRequest: null` so that its blocking commands survive reconnects.
 */
export async function connectRedis(url: string, connectTimeoutMs = 5_000, password?: string): Promise<Redis> {
  // A password in the URL wins; `password` (REDIS_PASSWORD) fills in when the URL has none.
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, connectTimeout: connectTimeoutMs, ...(password !== undefined && !hasPassword(url) && { password }) });
  let lastError: unknown;
  redis.on('error', (error) => (lastError = error));
  try {
    await withTimeout(redis.connect(), connectTimeoutMs);
    await withTimeout(redis.ping(), connectTimeoutMs);
  } catch (error) {
    redis.disconnect();
    const detail = (lastError ?? error) instanceof Error ? ((lastError ?? error) as Error).message : String(lastError ?? error);
    throw new RedisUnavailableError(`Redis is unreachable at ${displayRedisUrl(url)}: ${detail}`, { cause: error });
  }
  return redis;
}

const hasPassword = (url: string): boolean => /\/\/[^@/]*:[^@/]+@/.test(url);

/** True when something answers PING at the URL within a short time. */
export async function redisAnswers(url: string): Promise<boolean> {
  try {
    const redis = await connectRedis(url, 1_000);
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
