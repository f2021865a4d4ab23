import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountHistory, type HistoryEntry } from '../../src/history/account-history.js';
import { redisKeys } from '../../src/redis/keys.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';

const DAY = 24 * 3600_000;
const ENDPOINT = 'inquiries-sandbox-0123456789abcdef';
const answer = (batchId: string, answeredAt: number, holderName = 'BUDI SANTOSO'): HistoryEntry => ({
  outcome: {
    verdict: 'VERIFIED',
    reason: '',
    holderName,
    bankName: 'BCA',
    fee: '6500',
    inquiryStatus: 'SUCCESS',
    inquiryId: '17',
    checkedAt: '2026-11-21T06:52:03.123456Z',
  },
  batchId,
  answeredAt,
});

describe('account history in Redis', () => {
  let redis: Redis;
  let prefix: string;
  let history: AccountHistory;
  let now = 1_000;

  beforeAll(() => {
    redis = testRedis();
    prefix = testKeyPrefix();
    history = new AccountHistory(redis, redisKeys(prefix), 30 * DAY, () => now);
  });
  const entryOf = async (endpoint: string, accountKey: string) => (await history.getMany(endpoint, [accountKey])).get(accountKey);
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('keeps an entry as one field of one of 65,536 buckets per endpoint, both named by a digest, living ACCOUNT_HISTORY_RETENTION from the last answer', async () => {
    await history.record(ENDPOINT, '014:0012345678', answer('b1', 1000));
    const keys = await redis.keys(`${prefix}:history:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${prefix}:history:${ENDPOINT}:[0-9a-f]{4}$`));
    const fields = await redis.hkeys(keys[0]!);
    expect(fields).toHaveLength(1);
    expect(fields[0]).toMatch(/^[\w-]{16}$/);
    expect(`${keys[0]} ${fields[0]} ${await redis.hget(keys[0]!, fields[0]!)}`).not.toContain('0012345678');
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(30 * DAY - 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * DAY);
    expect(await entryOf(ENDPOINT, '014:0012345678')).toEqual({ ...answer('b1', 1000), result: undefined });
  });

  it('never uses an entry older than ACCOUNT_HISTORY_RETENTION, and drops it from its bucket at the next write there', async () => {
    const stale = '014:stale-1';
    await history.record(ENDPOINT, stale, answer('b-stale', 1000));
    const { key, field } = redisKeys(prefix).accountHistory(ENDPOINT, stale);
    now = 1000 + 30 * DAY - 1;
    expect((await entryOf(ENDPOINT, stale))?.batchId).toBe('b-stale');
    now = 1000 + 30 * DAY + 1;
    expect(await entryOf(ENDPOINT, stale)).toBeUndefined();
    // Another account of the same bucket answered later sweeps the stale entry away.
    const neighbour = Array.from({ length: 200_000 }, (_, index) => `014:n${index}`).find(
      (account) => redisKeys(prefix).accountHistory(ENDPOINT, account).key === key,
    )!;
    await history.record(ENDPOINT, neighbour, answer('b-new', now));
    expect(await redis.hexists(key, field)).toBe(0);
    expect((await entryOf(ENDPOINT, neighbour))?.batchId).toBe('b-new');
    now = 1_000;
  });

  it('never mixes endpoints: another address or environment has no history for the account', async () => {
    expect(await entryOf('inquiries-production-0123456789abcdef', '014:0012345678')).toBeUndefined();
    expect(await entryOf('inquiries-sandbox-fedcba9876543210', '014:0012345678')).toBeUndefined();
  });

  it('keeps the later answer when two batches answer the same account at once', async () => {
    await history.record(ENDPOINT, '014:5270123456', answer('b-late', 2000, 'LATER'));
    await history.record(ENDPOINT, '014:5270123456', answer('b-early', 1500, 'EARLIER'));
    expect((await entryOf(ENDPOINT, '014:5270123456'))?.batchId).toBe('b-late');
    await history.record(ENDPOINT, '014:5270123456', answer('b-next', 3000, 'NEXT'));
    expect((await entryOf(ENDPOINT, '014:5270123456'))?.outcome.holderName).toBe('NEXT');
  });

  it("adds a batch's reported verdict only while the entry is that batch's answer, keeping its TTL", async () => {
    await history.record(ENDPOINT, '008:1234509876', answer('b2', 1000));
    const { key } = redisKeys(prefix).accountHistory(ENDPOINT, '008:1234509876');
    await redis.pexpire(key, 5 * DAY);
    await history.recordResults(ENDPOINT, 'b2', new Map([['008:1234509876', 'MATCH']]));
    await history.recordResults(ENDPOINT, 'b-other', new Map([['008:1234509876', 'NO_MATCH']]));
    expect((await entryOf(ENDPOINT, '008:1234509876'))?.result).toBe('MATCH');
    expect(await redis.pttl(key)).toBeLessThanOrEqual(5 * DAY);
    // A new answer starts afresh: no verdict until its own report.
    await history.record(ENDPOINT, '008:1234509876', answer('b3', 2000));
    expect((await entryOf(ENDPOINT, '008:1234509876'))?.result).toBeUndefined();
  });

  it("records a slice's verdicts in one call, each only where the entry is still that batch's answer", async () => {
    const accounts = Array.from({ length: 40 }, (_, index) => `009:77000${index}`);
    for (const [index, account] of accounts.entries())
      await history.record(ENDPOINT, account, answer(index % 4 === 0 ? 'b-later' : 'b-slice', 1000));
    await history.recordResults(
      ENDPOINT,
      'b-slice',
      new Map(accounts.map((account, index) => [account, index % 2 === 0 ? 'MATCH' : 'NO_MATCH'])),
    );
    for (const [index, account] of accounts.entries())
      expect((await entryOf(ENDPOINT, account))?.result).toBe(index % 4 === 0 ? undefined : index % 2 === 0 ? 'MATCH' : 'NO_MATCH');
    // An empty slice sends nothing.
    await history.recordResults(ENDPOINT, 'b-slice', new Map());
  });

  it('still reads, outdates, sweeps and completes entries written in the earlier encoding (JSON outcome)', async () => {
    const legacy = (account: string, answeredAt: number, batchId: string) => {
      const { key, field } = redisKeys(prefix).accountHistory(ENDPOINT, account);
      return redis.hset(
        key,
        field,
        `${answeredAt}|${batchId}||["VERIFIED","","BUDI SANTOSO","BCA","6500","SUCCESS","17","2026-11-21T06:52:03.123456Z"]`,
      );
    };
    await legacy('014:legacy-1', 1000, 'b-json');
    expect(await entryOf(ENDPOINT, '014:legacy-1')).toEqual({ ...answer('b-json', 1000), result: undefined });
    // The script keeps the earlier encoding for its result (by name), and compares times across encodings.
    await history.recordResults(ENDPOINT, 'b-json', new Map([['014:legacy-1', 'CLOSE_MATCH']]));
    const { key, field } = redisKeys(prefix).accountHistory(ENDPOINT, '014:legacy-1');
    expect(await redis.hget(key, field)).toMatch(/^1000\|b-json\|CLOSE_MATCH\|\["VERIFIED"/);
    expect((await entryOf(ENDPOINT, '014:legacy-1'))?.result).toBe('CLOSE_MATCH');
    await history.record(ENDPOINT, '014:legacy-1', answer('b-older', 999, 'OLDER'));
    expect((await entryOf(ENDPOINT, '014:legacy-1'))?.batchId).toBe('b-json');
    await history.record(ENDPOINT, '014:legacy-1', answer('b-compact', 1001, 'NEWER'));
    expect(await redis.hget(key, field)).toMatch(/^V\|rt\|b-compact\|/);
    expect((await entryOf(ENDPOINT, '014:legacy-1'))?.outcome.holderName).toBe('NEWER');
    // A neighbour in the earlier encoding past the history's life is swept at the next write to its bucket.
    const neighbour = Array.from({ length: 200_000 }, (_, index) => `014:l${index}`).find(
      (account) => redisKeys(prefix).accountHistory(ENDPOINT, account).key === key,
    )!;
    await legacy(neighbour, 1, 'b-ancient');
    now = 2 + 30 * DAY;
    await history.record(ENDPOINT, '014:legacy-1', answer('b-late', now));
    expect(await redis.hexists(key, redisKeys(prefix).accountHistory(ENDPOINT, neighbour).field)).toBe(0);
    now = 1_000;
  });
});
