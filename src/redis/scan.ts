import type { Cluster } from 'ioredis';
import type { RedisClient } from './connection.js';

/**
 * The keys matching a pattern, a slice at a time (SCAN: never blocks Redis). A cluster node scans only the
 * slots it holds, so on a cluster every master is scanned in turn: use this, never `redis.scan`, for any
 * sweep over the prefix.
 */
export async function* scanKeys(redis: RedisClient, pattern: string, sliceSize: number): AsyncGenerator<string[]> {
  const nodes = redis.isCluster ? (redis as Cluster).nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', sliceSize);
      cursor = next;
      if (found.length > 0) yield found;
    } while (cursor !== '0');
  }
}
