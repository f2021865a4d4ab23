import { describe, expect, it } from 'vitest';
import { BatchNotFoundError } from '../../src/errors.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';
import { AnswerLanding } from '../../src/queue/answer-landing.js';
import type { CallCounts, CallField } from '../../src/queue/call-tally.js';
import type { InquiryJobData } from '../../src/queue/inquiry-queue.js';
import { JobAccounts } from '../../src/queue/job-accounts.js';
import { newJobSealKey, sealAccount } from '../../src/queue/job-seal.js';
import { recordingLogger } from './lifecycle-fakes.js';

const verified: InquiryOutcome = { verdict: 'VERIFIED', reason: '', holderName: 'BUDI SANTOSO', inquiryStatus: 'SUCCESS' };

function landing(record: (batchId: string, counts: CallCounts) => Promise<unknown> = async () => true) {
  const recorded: Array<[string, string, CallCounts]> = [];
  const counted: Array<[string, CallField, number]> = [];
  const landed: string[] = [];
  const metrics: string[] = [];
  const log = recordingLogger();
  const answers = new AnswerLanding({
    recordAnswer: async (batchId, accountKey, _outcome, counts) => {
      recorded.push([batchId, accountKey, counts]);
      return record(batchId, counts);
    },
    countCalls: async (batchId, field, by) => void counted.push([batchId, field, by]),
    landed: (batchId) => landed.push(batchId),
    metrics: { inquiryCall: () => metrics.push('call'), rateLimited: () => metrics.push('429'), internalError: () => metrics.push('bug') },
    logger: log.logger,
  });
  return { answers, recorded, counted, landed, metrics, lines: log.lines };
}

describe("AnswerLanding: an inquiry job's answer with its batch's call counts", () => {
  it("records the answer with its batch's pending counts, writes the other batches' counts, then wakes the waits", async () => {
    const w = landing();
    await w.answers.countCall('b1', 'calls');
    await w.answers.countCall('b1', 'calls');
    await w.answers.countCall('b2', 'rateLimited');
    await w.answers.land('b1', '014:001', verified);
    expect(w.recorded).toEqual([['b1', '014:001', [['calls', 2]]]]);
    expect(w.counted).toEqual([['b2', 'rateLimited', 1]]);
    expect(w.landed).toEqual(['b1']);
    expect(w.metrics).toEqual(['call', 'call', '429']);
  });

  it('keeps the counts of an answer whose write failed (written later), and throws', async () => {
    const w = landing(async () => {
      throw new Error('Connection is closed.');
    });
    await w.answers.countCall('b1', 'calls');
    await expect(w.answers.land('b1', '014:001', verified)).rejects.toThrow('Connection is closed.');
    expect(w.landed).toEqual([]);
    await w.answers.close();
    expect(w.counted).toEqual([['b1', 'calls', 1]]);
  });

  it('ends the job of a batch gone from Redis, saying so once per batch', async () => {
    const w = landing(async (batchId) => {
      throw new BatchNotFoundError(batchId);
    });
    await w.answers.land('b-gone', '014:5270123401', verified);
    await w.answers.land('b-gone', '014:5270123402', verified);
    expect(w.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(JSON.stringify(w.lines)).not.toContain('5270123401');
    expect(w.landed).toEqual(['b-gone', 'b-gone']);
  });
});

describe('JobAccounts: the accounts queued jobs carry sealed', () => {
  it('opens a sealed account with its batch key, read once per batch', async () => {
    const key = newJobSealKey();
    const reads: string[] = [];
    const accounts = new JobAccounts(async (batchId) => {
      reads.push(batchId);
      return key;
    });
    const job = (accountKey: string): InquiryJobData => ({ batchId: 'b1', sealedAccount: sealAccount(key, 'b1', accountKey) });
    expect(await accounts.open(job('014:001'))).toEqual(['014:001']);
    expect(await accounts.open(job('014:002'))).toEqual(['014:002']);
    expect(reads).toEqual(['b1']);
  });

  it("opens a group's accounts in order; a group with one value altered opens nothing (its job is dropped, the audit queues it again)", async () => {
    const key = newJobSealKey();
    const accounts = new JobAccounts(async () => key);
    const sealed = ['014:001', '014:002', '014:003'].map((accountKey) => sealAccount(key, 'b1', accountKey));
    expect(await accounts.open({ batchId: 'b1', sealedAccounts: sealed })).toEqual(['014:001', '014:002', '014:003']);
    expect(await accounts.open({ batchId: 'b1', sealedAccounts: [sealed[0]!, `${sealed[1]!.slice(0, -2)}xx`] })).toBeUndefined();
  });

  it('opens nothing once the batch and its key are gone, nor under another batch', async () => {
    const key = newJobSealKey();
    const gone = new JobAccounts(async () => undefined);
    expect(await gone.open({ batchId: 'b1', sealedAccount: sealAccount(key, 'b1', '014:001') })).toBeUndefined();
    const other = new JobAccounts(async () => key);
    expect(await other.open({ batchId: 'b2', sealedAccount: sealAccount(key, 'b1', '014:001') })).toBeUndefined();
  });

  it('keeps at most the given number of batch keys', async () => {
    const keys = new Map([
      ['b1', newJobSealKey()],
      ['b2', newJobSealKey()],
    ]);
    const reads: string[] = [];
    const accounts = new JobAccounts(async (batchId) => {
      reads.push(batchId);
      return keys.get(batchId);
    }, 1);
    const job = (batchId: string): InquiryJobData => ({ batchId, sealedAccount: sealAccount(keys.get(batchId)!, batchId, '014:001') });
    await accounts.open(job('b1'));
    await accounts.open(job('b2'));
    await accounts.open(job('b1'));
    expect(reads).toEqual(['b1', 'b2', 'b1']);
  });

  it('reads an account a job queued before sealing carries in clear', async () => {
    const accounts = new JobAccounts(async () => undefined);
    expect(await accounts.open({ batchId: 'b1', accountKey: '014:001' } as unknown as InquiryJobData)).toEqual(['014:001']);
  });
});
