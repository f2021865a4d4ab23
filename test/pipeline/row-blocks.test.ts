import { afterAll, describe, expect, it } from 'vitest';
import { BatchStore, decodeAnswer, encodeAnswer, ROWS_PER_BLOCK, type StoredRow } from '../../src/batch/batch-store.js';
import { AccountHistory } from '../../src/history/account-history.js';
import { encodeHistoryEntry } from '../../src/history/entry-codec.js';
import { redisKeys } from '../../src/redis/keys.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';

const prefix = testKeyPrefix();
const redis = testRedis();
const keys = redisKeys(prefix);
const store = new BatchStore(redis, keys, 3600_000);

afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

const row = (index: number): StoredRow =>
  index % 7 === 0
    ? { fields: [`B${index}`, 'x', '', 'ünïcödé, "quoted"'], accountKey: null, invalidReason: `line ${index + 2}: bank code is empty` }
    : {
        fields: [`B${index}`, '014', String(100_000 + index), `name ${index}`],
        accountKey: `014:${100_000 + (index % 600)}`,
        invalidReason: null,
      };

async function newBatch(batchId: string): Promise<number> {
  await store.create({
    batchId,
    sourceFile: '/x.csv',
    sourceName: 'x.csv',
    contentHash: batchId,
    queueName: 'q',
    endpoint: { environment: 'sandbox', address: 'http://q.test' },
    layout: { delimiter: ',' },
    header: ['a', 'b', 'c', 'd'],
    mapping: { bankCode: 1, accountNumber: 2, expectedName: undefined },
    replacedColumns: [],
    rowCount: 0,
    createdAt: Date.now(),
  });
  return store.startGeneration(batchId);
}

describe('rows stored in deflated blocks', () => {
  it('reads any range in file order across block boundaries, and counts what was stored', async () => {
    const generation = await newBatch('b-blocks');
    const total = 2 * ROWS_PER_BLOCK + 7;
    const rows = Array.from({ length: total }, (_, index) => row(index));
    const firstSeen: string[] = [];
    for (let start = 0; start < total; start += ROWS_PER_BLOCK)
      firstSeen.push(...(await store.appendRows('b-blocks', generation, rows.slice(start, start + ROWS_PER_BLOCK))).accountKeys);
    expect(new Set(firstSeen).size).toBe(firstSeen.length);
    expect(firstSeen).toHaveLength(new Set(rows.flatMap((r) => (r.accountKey === null ? [] : [r.accountKey]))).size);
    await store.markProduced('b-blocks', generation, 0);

    expect((await store.get('b-blocks')).rowCount).toBe(total);
    expect(await redis.llen(keys.rows('b-blocks'))).toBe(3);
    expect(await store.readRows('b-blocks', 0, total)).toEqual(rows);
    expect(await store.readRows('b-blocks', ROWS_PER_BLOCK - 2, 5)).toEqual(rows.slice(ROWS_PER_BLOCK - 2, ROWS_PER_BLOCK + 3));
    expect(await store.readRows('b-blocks', 2 * ROWS_PER_BLOCK, 1000)).toEqual(rows.slice(2 * ROWS_PER_BLOCK));
    expect(await store.readRows('b-blocks', total, 10)).toEqual([]);
    expect(await store.readRows('b-blocks', 3, 0)).toEqual([]);
  });

  it('refuses rows after a partial block (the row -> block arithmetic would break)', async () => {
    const generation = await newBatch('b-partial');
    await store.appendRows('b-partial', generation, [row(1), row(2)]);
    await expect(store.appendRows('b-partial', generation, [row(3)])).rejects.toThrow('rows appended after a partial block');
  });

  it('reads a batch stored one JSON row per element (before blocks)', async () => {
    await newBatch('b-legacy');
    await redis.hdel(keys.batch('b-legacy'), 'rowsPerBlock');
    await redis.rpush(
      keys.rows('b-legacy'),
      ...[row(1), row(2), row(7)].map((r) => JSON.stringify([r.fields, r.accountKey, r.invalidReason])),
    );
    expect(await store.readRows('b-legacy', 1, 5)).toEqual([row(2), row(7)]);
  });
});

describe('outcomes stored without field names, with the history they were decided against', () => {
  const full = {
    verdict: 'VERIFIED',
    reason: '',
    holderName: 'DEWI WIBOWO',
    bankName: 'MANDIRI',
    fee: '6500',
    inquiryStatus: 'SUCCESS',
    inquiryId: '9520',
    checkedAt: '2026-11-23T01:36:10.851126Z',
  } as const;
  const before = {
    outcome: { ...full, holderName: 'DEWI W' },
    batchId: 'b-old',
    answeredAt: 1_800_000_000_000,
    result: 'CLOSE_MATCH',
  } as const;

  it('round-trips every field, leaves absent ones absent, and still reads the object form', () => {
    expect(decodeAnswer(encodeAnswer({ outcome: full }))).toEqual({ outcome: full });
    expect(encodeAnswer({ outcome: full }).length).toBeLessThan(JSON.stringify(full).length * 0.6);
    const failed = { verdict: 'FAILED', reason: 'no answer after 3 attempt(s)' } as const;
    expect(decodeAnswer(encodeAnswer({ outcome: failed }))).toEqual({ outcome: failed });
    expect(decodeAnswer(JSON.stringify(full))).toEqual({ outcome: full });
    expect(decodeAnswer(encodeAnswer({ outcome: full, previous: { entry: null, reused: false } }))).toEqual({
      outcome: full,
      previous: { entry: null, reused: false },
    });
    expect(decodeAnswer(encodeAnswer({ outcome: full, previous: { entry: before, reused: true } }))).toEqual({
      outcome: full,
      previous: { entry: before, reused: true },
    });
  });

  it('keeps the first outcome and its snapshot of an account, and counts reused answers on the batch', async () => {
    await newBatch('b-answers');
    expect(await store.writeAnswer('b-answers', '014:1', full, { entry: before, reused: true })).toBe(true);
    expect(await store.writeAnswer('b-answers', '014:1', { verdict: 'FAILED', reason: 'late' }, { entry: null, reused: false })).toBe(
      false,
    );
    expect(await store.writeAnswer('b-answers', '014:2', full, { entry: null, reused: false })).toBe(true);
    expect(await store.writeAnswer('b-answers', '014:3', { verdict: 'FAILED', reason: 'no answer' })).toBe(true);
    const answers = await store.getAnswers('b-answers', ['014:1', '014:2', '014:3', '014:4']);
    expect(answers.get('014:1')).toEqual({ outcome: full, previous: { entry: before, reused: true } });
    expect(answers.get('014:2')).toEqual({ outcome: full, previous: { entry: null, reused: false } });
    expect(answers.get('014:3')).toEqual({ outcome: { verdict: 'FAILED', reason: 'no answer' } });
    expect(answers.has('014:4')).toBe(false);
    expect(await store.reusedAnswers('b-answers')).toBe(1);
    // One key of the batch (its hash tag) holds both: removed and expired with it.
    expect(await redis.keys(`${prefix}:batch:{b-answers}:*`)).toEqual([keys.outcomes('b-answers')]);
  });

  it('in one script (standalone Redis): the outcome with the history entry as it was, then the answer as the new entry, once', async () => {
    const DAY = 24 * 3600_000;
    let now = before.answeredAt + DAY;
    const history = new AccountHistory(redis, keys, 30 * DAY, () => now);
    const endpoint = 'inquiries-sandbox-onescript';
    await history.record(endpoint, '014:5', before);
    await newBatch('b-one');
    const answer = { outcome: full, batchId: 'b-one', answeredAt: now };
    expect(await store.writeAnswerWithHistory('b-one', '014:5', full, history.writeOf(endpoint, '014:5', answer))).toBe(true);
    // The script builds the value encodeAnswer would have written (the entry in the history's own encoding).
    const stored = await redis.hget(keys.outcomes('b-one'), '014:5');
    expect(JSON.parse(stored!)).toEqual(JSON.parse(encodeAnswer({ outcome: full, previous: { entry: before, reused: false } })));
    expect((await store.getAnswers('b-one', ['014:5'])).get('014:5')).toEqual({
      outcome: full,
      previous: { entry: { ...before }, reused: false },
    });
    expect((await history.getMany(endpoint, ['014:5'])).get('014:5')).toEqual({ ...answer, result: undefined });

    // A job that runs again changes neither the outcome, its snapshot nor the history.
    const again = { outcome: { ...full, holderName: 'SOMEBODY ELSE' }, batchId: 'b-one', answeredAt: now + 5 };
    expect(await store.writeAnswerWithHistory('b-one', '014:5', again.outcome, history.writeOf(endpoint, '014:5', again))).toBe(false);
    expect(await redis.hget(keys.outcomes('b-one'), '014:5')).toBe(stored);
    expect((await history.getMany(endpoint, ['014:5'])).get('014:5')?.outcome.holderName).toBe('DEWI WIBOWO');

    // No entry before, and an entry past the history's life, are both "nothing before".
    await newBatch('b-two');
    const first = { outcome: full, batchId: 'b-two', answeredAt: now };
    expect(await store.writeAnswerWithHistory('b-two', '014:6', full, history.writeOf(endpoint, '014:6', first))).toBe(true);
    now += 31 * DAY;
    const late = { outcome: full, batchId: 'b-two', answeredAt: now };
    expect(await store.writeAnswerWithHistory('b-two', '014:5', full, history.writeOf(endpoint, '014:5', late))).toBe(true);
    const answers = await store.getAnswers('b-two', ['014:5', '014:6']);
    expect(answers.get('014:6')?.previous).toEqual({ entry: null, reused: false });
    expect(answers.get('014:5')?.previous).toEqual({ entry: null, reused: false });
    expect((await history.getMany(endpoint, ['014:5'])).get('014:5')?.answeredAt).toBe(now);
  });

  it('a wait that gave up writes FAILED in one script per slice, only in its own round, keeping every answer there is', async () => {
    await newBatch('b-gave-up');
    const failed = { verdict: 'FAILED', reason: 'no answer from the provider since ...' } as const;
    expect(await store.writeAnswer('b-gave-up', '014:30', full, { entry: null, reused: false })).toBe(true);
    expect(await store.markGivenUp('b-gave-up', 0, ['014:30', '014:31', '014:32'], failed)).toBe(true);
    const answers = await store.getAnswers('b-gave-up', ['014:30', '014:31', '014:32', '014:33']);
    expect(answers.get('014:30')?.outcome).toEqual(full);
    expect(answers.get('014:31')).toEqual({ outcome: failed });
    expect(answers.get('014:32')).toEqual({ outcome: failed });
    // A rerun moved the batch on: the rest of the give-up writes nothing into its round.
    expect(await store.nextRound('b-gave-up')).toBe(1);
    expect(await store.markGivenUp('b-gave-up', 0, ['014:33'], failed)).toBe(false);
    expect((await store.getAnswers('b-gave-up', ['014:33'])).has('014:33')).toBe(false);
    expect(await redis.pttl(keys.outcomes('b-gave-up'))).toBeGreaterThan(0);
  });

  it('an answer that comes after the FAILED of its account is kept late, and the next round takes it instead of asking again', async () => {
    // A call on its way when `run` gave up on an outage: the report said FAILED; the provider answered after.
    const DAY = 24 * 3600_000;
    const now = before.answeredAt + DAY;
    const history = new AccountHistory(redis, keys, 30 * DAY, () => now);
    const endpoint = 'inquiries-sandbox-late';
    await history.record(endpoint, '014:21', before);
    await newBatch('b-late');
    const failed = { verdict: 'FAILED', reason: 'no answer from the provider since ...' } as const;
    for (const account of ['014:20', '014:21', '014:22', '014:23', '014:24'])
      expect(await store.writeAnswer('b-late', account, failed)).toBe(true);
    // Both ways of storing an answer keep it late; the history records it (it is the provider's answer).
    expect(await store.writeAnswer('b-late', '014:20', full, { entry: null, reused: false })).toBe(true);
    const answer = { outcome: full, batchId: 'b-late', answeredAt: now };
    expect(await store.writeAnswerWithHistory('b-late', '014:21', full, history.writeOf(endpoint, '014:21', answer))).toBe(true);
    expect((await history.getMany(endpoint, ['014:21'])).get('014:21')?.answeredAt).toBe(now);
    // Neither a reused answer nor another FAILED is a late answer; the first late answer stands.
    expect(await store.writeAnswer('b-late', '014:22', full, { entry: before, reused: true })).toBe(false);
    expect(await store.writeAnswer('b-late', '014:23', { verdict: 'FAILED', reason: 'again' })).toBe(false);
    // The report as written stands until the next round: every outcome is still FAILED.
    const stillFailed = await store.getAnswers('b-late', ['014:20', '014:21', '014:22', '014:23', '014:24']);
    expect([...stillFailed.values()].every((stored) => stored.outcome.verdict === 'FAILED')).toBe(true);

    expect(await store.forgetFailedOutcomes('b-late')).toEqual({ forgotten: 3, lateAnswers: 2 });
    const answers = await store.getAnswers('b-late', ['014:20', '014:21', '014:22', '014:23', '014:24']);
    expect(answers.get('014:20')).toEqual({ outcome: full, previous: { entry: null, reused: false } });
    // The snapshot is what the history held before the late answer, as for an answer in time.
    expect(answers.get('014:21')).toEqual({ outcome: full, previous: { entry: { ...before }, reused: false } });
    expect([...answers.keys()].sort()).toEqual(['014:20', '014:21']);
    expect(await redis.exists(keys.lateAnswers('b-late'))).toBe(0);
    expect(await store.reusedAnswers('b-late')).toBe(0);

    // An answer in the new round is stored as any first answer.
    expect(await store.writeAnswer('b-late', '014:22', full, { entry: null, reused: false })).toBe(true);
    expect((await store.getAnswers('b-late', ['014:22'])).get('014:22')?.outcome).toEqual(full);
  });

  it('in one script: an entry in the earlier encoding (JSON outcome) is the snapshot as it was, and only within its life', async () => {
    const DAY = 24 * 3600_000;
    const history = new AccountHistory(redis, keys, 30 * DAY, () => before.answeredAt);
    const endpoint = 'inquiries-sandbox-json-entry';
    const json = `${before.answeredAt}|b-old|CLOSE_MATCH|["VERIFIED","","DEWI W","MANDIRI","6500","SUCCESS","9520","2026-11-23T01:36:10.851126Z"]`;
    await newBatch('b-json');
    for (const [account, answeredAt, snapshot] of [
      ['014:7', before.answeredAt + DAY, before],
      ['014:8', before.answeredAt + 31 * DAY, null],
    ] as const) {
      const { key, field } = history.writeOf(endpoint, account, { outcome: full, batchId: 'b-json', answeredAt });
      await redis.hset(key, field, json);
      expect(
        await store.writeAnswerWithHistory(
          'b-json',
          account,
          full,
          history.writeOf(endpoint, account, { outcome: full, batchId: 'b-json', answeredAt }),
        ),
      ).toBe(true);
      expect((await store.getAnswers('b-json', [account])).get(account)).toEqual({
        outcome: full,
        previous: { entry: snapshot, reused: false },
      });
      expect(await redis.hget(key, field)).toBe(history.writeOf(endpoint, account, { outcome: full, batchId: 'b-json', answeredAt }).entry);
    }
  });

  it('still reads a snapshot stored as an object (before the history encoding)', () => {
    const old = JSON.stringify([...JSON.parse(encodeAnswer({ outcome: full })), before, 0]);
    expect(decodeAnswer(old)).toEqual({ outcome: full, previous: { entry: before, reused: false } });
    expect(JSON.parse(encodeAnswer({ outcome: full, previous: { entry: before, reused: true } })).at(-2)).toBe(encodeHistoryEntry(before));
  });
});
