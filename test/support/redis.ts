import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RedisClient } from '../../src/redis/connection.js';
import { scanKeys } from '../../src/redis/scan.js';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix of its own for every test, so parallel test files and earlier runs never collide. */
export const testKeyPrefix = (): string => `bctest-${randomBytes(4).toString('hex')}`;

export function testRedis(): Redis {
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
}

/** Deletes every key under the prefix (one key per UNLINK: on a cluster the keys of a slice span slots). */
export async function deleteKeys(redis: RedisClient, prefix: string): Promise<void> {
  for await (const keys of scanKeys(redis, `${prefix}:*`, 1000)) await Promise.all(keys.map((key) => redis.unlink(key)));
}
