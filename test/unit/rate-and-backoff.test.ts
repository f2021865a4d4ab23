import { describe, expect, it } from 'vitest';
import { parseRate } from '../../src/config/rate.js';
import { ConfigError } from '../../src/errors.js';
import { inquiryJobId, inquiryJobRound, jobsPerAdd, queueCeiling } from '../../src/queue/inquiry-queue.js';
import { jitteredBackoff } from '../../src/queue/backoff.js';

describe('parseRate', () => {
  it.each([
    ['20/s', { max: 20, perMs: 1000 }],
    ['20', { max: 20, perMs: 1000 }],
    ['600/min', { max: 600, perMs: 60_000 }],
    [' 50 / sec ', { max: 50, perMs: 1000 }],
  ])('%s', (text, rate) => expect(parseRate(text)).toEqual(rate));

  it.each(['0/s', '-1/s', 'fast', '20/h', ''])('refuses %j', (text) => expect(() => parseRate(text)).toThrow(ConfigError));
});

describe('queueCeiling', () => {
  it('is the configured rate in its own window', () => {
    expect(queueCeiling(parseRate('50/s'))).toEqual({ max: 50, duration: 1000 });
    expect(queueCeiling(parseRate('600/min'))).toEqual({ max: 600, duration: 60_000 });
    expect(queueCeiling(parseRate('0.5/s'))).toEqual({ max: 1, duration: 1000 });
  });
});

describe('jobsPerAdd', () => {
  it('queues ten jobs a MULTI when calls are paced, fifty when the rate sends them unpaced', () => {
    expect(jobsPerAdd(parseRate('500/s'))).toBe(10);
    expect(jobsPerAdd(parseRate('6000/min'))).toBe(10);
    expect(jobsPerAdd(parseRate('1000/s'))).toBe(50);
    expect(jobsPerAdd(parseRate('1000000/s'))).toBe(50);
  });
});

describe('inquiryJobRound', () => {
  it("reads back the round a job id was made with, 0 for the first round's", () => {
    for (const round of [0, 1, 12]) expect(inquiryJobRound(inquiryJobId('b20261129-131014-6f783d', '014:0012345678', round))).toBe(round);
    expect(inquiryJobRound(undefined)).toBe(0);
  });
});

describe('jitteredBackoff', () => {
  it('doubles per attempt with jitter between half and the full step, capped at a minute', () => {
    expect(jitteredBackoff(2000, 1, () => 0)).toBe(1000);
    expect(jitteredBackoff(2000, 1, () => 1)).toBe(2000);
    expect(jitteredBackoff(2000, 3, () => 1)).toBe(8000);
    expect(jitteredBackoff(2000, 20, () => 1)).toBe(60_000);
  });
});
