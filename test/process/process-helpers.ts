import { readdir } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import { redisKeys } from '../../src/redis/keys.js';

/** The accounts a batch has an answer for (account keys), in the only batch under the prefix. */
export async function answeredAccounts(redis: Redis, prefix: string): Promise<string[]> {
  const keys = redisKeys(prefix);
  const [batchId] = await redis.zrange(keys.batches(), 0, '-1');
  return batchId === undefined ? [] : redis.hkeys(keys.outcomes(batchId));
}

/** Files of a folder that a report writer left behind half-written. */
export async function temporaryFiles(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => /\.tmp/.test(name));
}

/** A stack frame line: a raw stack dump that bypassed the one-line error and the logger. */
export const STACK_FRAME = /^\s+at .+\(.+:\d+:\d+\)$|^\s+at .+:\d+:\d+$/m;

/** Lines of a CLI's stderr that start with the program's own error prefix. */
export const errorLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('beneficiary-check:'));
