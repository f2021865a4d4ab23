import { afterAll, describe, expect, it } from 'vitest';
import { createInquiryProcessor, type InquiryJobDependencies } from '../../jobs/inquiry.js';
import { parseRate } from '../../src/config/index.js';
import { CircuitBreaker } from '../../src/provider/circuit-breaker.js';
import type { InquiryJobData } from '../../src/queue/inquiry-queue.js';
import { SendPacer } from '../../src/queue/pacer.js';
import { redisKeys } from '../../src/redis/keys.js';
import { runCommand } from '../../src/redis/commands/define.js';
import { PACER_CONFIRM_SLOT, PACER_RESERVE_SLOT } from '../../src/redis/commands/pacer.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { recordingLogger } from '../unit/lifecycle-fakes.js';
import type { Job } from 'bullmq';

/** The pre-call Lua (PACER_PRE_CALL) on the real Redis: the outcome check and the slot in one EVALSHA. */
const redis = testRedis();
const prefixes: string[] = [];

function world(rate = '5/s') {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  const keys = redisKeys(prefix);
  const pacerKey = keys.pacer('inquiry');
  return { keys, pacerKey, outcomes: keys.outcomes('b1'), pacer: new SendPacer(redis, pacerKey, parseRate(rate)) };
}

/** The slots the pacer handed out so far: its next free slot, and the sends its window guard recorded. */
const pacerState = async (key: string) => ({ next: await redis.hget(key, 'next'), sends: await redis.hget(key, 'wi') });

afterAll(async () => {
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('the pre-call command against Redis', () => {
  it('an answered account takes no slot', async () => {
    const w = world();
    await redis.hset(w.outcomes, '014:0012345678', 'VERIFIED');
    const pre = await w.pacer.preCall(w.outcomes, '014:0012345678');
    expect(pre.answered).toBe(true);
    expect(await redis.exists(w.pacerKey)).toBe(0);
  });

  it('an unanswered account gets its slot in the same command: the first goes at once, the next one a slot later', async () => {
    const w = world('5/s');
    const first = await w.pacer.preCall(w.outcomes, '014:0000000001');
    expect(first.answered).toBe(false);
    // The slot was reserved by the pre-call itself: the first one is due now and already recorded.
    expect((await pacerState(w.pacerKey)).sends).toBe('1');
    const ticket = await first.nextSlot();
    expect(ticket.rateInForce).toBe(5);
    const second = await w.pacer.preCall(w.outcomes, '014:0000000002');
    expect(second.answered).toBe(false);
    const nextBefore = Number((await pacerState(w.pacerKey)).next);
    await second.nextSlot();
    // Waiting for the reserved slot took no other slot; it confirmed (recorded) its send.
    expect(Number((await pacerState(w.pacerKey)).next)).toBe(nextBefore);
    expect((await pacerState(w.pacerKey)).sends).toBe('2');
  });

  it('a job that runs twice asks the provider once, and its second run takes no slot', async () => {
    const w = world('50/s');
    const asked: string[] = [];
    const { logger } = recordingLogger();
    const deps: InquiryJobDependencies = {
      preCall: (batchId, accountKey) => w.pacer.preCall(w.keys.outcomes(batchId), accountKey),
      saveOutcome: async (batchId, accountKey) => redis.hsetnx(w.keys.outcomes(batchId), accountKey, 'VERIFIED'),
      observeWork: () => undefined,
      countCall: async () => undefined,
      inquire: async (account, hooks) => {
        await hooks.waitForTurn();
        await hooks.onSend();
        asked.push(account.accountNumber);
        return { kind: 'answer', outcome: { verdict: 'VERIFIED', reason: '', holderName: 'BUDI SANTOSO' } };
      },
      holdSending: async () => undefined,
      holdEveryWorker: async () => {
        throw new Error('no hold expected');
      },
      breaker: new CircuitBreaker(),
      reportOutage: async () => undefined,
      clearOutage: async () => undefined,
      logger,
    };
    const process = createInquiryProcessor(deps);
    const job = { id: 'b1.014:0012345678', data: { batchId: 'b1', accountKey: '014:0012345678' }, opts: { attempts: 3 }, attemptsMade: 0 } as unknown as Job<InquiryJobData>;
    await process(job);
    const after = await pacerState(w.pacerKey);
    await process(job);
    expect(asked).toEqual(['0012345678']);
    expect(await pacerState(w.pacerKey)).toEqual(after);
  });

  it('unpaced (from 1000/s): the pre-call is the outcome check alone and takes no slot', async () => {
    const w = world('2000/s');
    const pre = await w.pacer.preCall(w.outcomes, '014:0012345678');
    expect(pre.answered).toBe(false);
    expect(await redis.exists(w.pacerKey)).toBe(0);
  });

  it('a send recorded but read too late moves its own record to now instead of taking a second window position', async () => {
    const w = world('5/s');
    const [, wait, epoch, recordedAt, , , , , ring] = await runCommand<string[]>(redis, PACER_RESERVE_SLOT, [w.pacerKey], [202, 5, 1015, 1000]);
    expect([wait, ring]).toEqual(['0', '0']);
    // The confirm of a late reply: the same position, a later time, no new position taken.
    const [next, movedTo, sameRing] = await runCommand<string[]>(redis, PACER_CONFIRM_SLOT, [w.pacerKey], [epoch!, 5, 1015, ring!, recordedAt!]);
    expect([next, sameRing]).toEqual(['0', '0']);
    expect(Number(movedTo)).toBeGreaterThanOrEqual(Number(recordedAt));
    expect(await redis.hmget(w.pacerKey, 'wi', 'w0', 'w1')).toEqual(['1', movedTo, null]);
    // A record that is not there (overwritten since, or never made) is no licence: the guard admits anew.
    const [again, , newRing] = await runCommand<string[]>(redis, PACER_CONFIRM_SLOT, [w.pacerKey], [epoch!, 5, 1015, ring!, '1']);
    expect([again, newRing]).toEqual(['0', '1']);
    expect(await redis.hget(w.pacerKey, 'wi')).toBe('2');
  });
});
