import { describe, expect, it } from 'vitest';
import { DEFAULT_CONCURRENCY, loadConfig, parseRate } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';
import {
  AdaptiveConcurrency,
  MAX_RAISE,
  shares,
  startingConcurrency,
  targetConcurrency,
  workerCount,
} from '../../src/queue/concurrency.js';

/** The concurrency once the rises have run their course (one call per answer in the product). */
function settled(concurrency: AdaptiveConcurrency): number {
  let last = concurrency.next();
  for (let now = concurrency.next(); now !== last; now = concurrency.next()) last = now;
  return last;
}

const rate = parseRate('500/s');

describe('targetConcurrency', () => {
  it('is rate × latency with a quarter more, within the bounds', () => {
    expect(targetConcurrency(rate, 100, { min: 16, max: 256 })).toBe(63);
    expect(targetConcurrency(parseRate('100/s'), 200, { min: 16, max: 256 })).toBe(25);
    expect(targetConcurrency(parseRate('6000/min'), 200, { min: 16, max: 256 })).toBe(25);
  });

  it('never leaves the bounds', () => {
    expect(targetConcurrency(parseRate('20/s'), 100, { min: 16, max: 256 })).toBe(16);
    expect(targetConcurrency(rate, 2_000, { min: 16, max: 256 })).toBe(256);
    expect(targetConcurrency(rate, 100, { min: 8, max: 8 })).toBe(8);
  });
});

describe('AdaptiveConcurrency', () => {
  it('starts at the target for a 100 ms work time, at most 64, and follows the average work time', () => {
    const concurrency = new AdaptiveConcurrency(rate, { min: 16, max: 256 });
    expect(concurrency.next()).toBe(63);
    for (let call = 0; call < 50; call += 1) concurrency.observe(20);
    expect(settled(concurrency)).toBe(16);
    expect(concurrency.peak).toBe(63);
    expect(new AdaptiveConcurrency(parseRate('20/s'), { min: 16, max: 256 }).next()).toBe(16);
    expect(new AdaptiveConcurrency(parseRate('1000000/s'), { min: 16, max: 256 }).next()).toBe(64);
    expect(new AdaptiveConcurrency(parseRate('1000000/s'), { min: 2, max: 2 }).next()).toBe(2);
    expect(startingConcurrency(parseRate('300/s'), { min: 16, max: 256 })).toBe(38);
  });

  it('rises MAX_RAISE slots a call at most, and falls at once', () => {
    const concurrency = new AdaptiveConcurrency(rate, { min: 16, max: 256 });
    concurrency.observe(200);
    const steps = [concurrency.next(), concurrency.next(), concurrency.next()];
    expect(steps).toEqual([63 + MAX_RAISE, 63 + 2 * MAX_RAISE, 63 + 3 * MAX_RAISE]);
    expect(settled(concurrency)).toBe(125);
    for (let call = 0; call < 100; call += 1) concurrency.observe(10);
    expect(concurrency.next()).toBe(16);
  });

  it('ignores small moves of the latency, and follows large ones down again', () => {
    const concurrency = new AdaptiveConcurrency(rate, { min: 16, max: 256 });
    concurrency.observe(100);
    expect(settled(concurrency)).toBe(63);
    concurrency.observe(110);
    expect(concurrency.next()).toBe(63);
    for (let call = 0; call < 100; call += 1) concurrency.observe(10);
    expect(concurrency.next()).toBe(16);
    expect(concurrency.peak).toBe(63);
  });

  it('does not take a slow outlier at face value', () => {
    const concurrency = new AdaptiveConcurrency(rate, { min: 16, max: 256 });
    for (let call = 0; call < 50; call += 1) concurrency.observe(100);
    concurrency.observe(15_000);
    expect(settled(concurrency)).toBe(82);
    for (let call = 0; call < 20; call += 1) concurrency.observe(15_000);
    expect(settled(concurrency)).toBe(256);
  });

  it('never goes above a --concurrency cap', () => {
    const concurrency = new AdaptiveConcurrency(rate, { min: 8, max: 8 });
    for (let call = 0; call < 50; call += 1) concurrency.observe(1_000);
    expect(concurrency.next()).toBe(8);
    expect(concurrency.peak).toBe(8);
  });

  it('skips samples that are not latencies', () => {
    const concurrency = new AdaptiveConcurrency(rate, { min: 16, max: 256 });
    concurrency.observe(Number.NaN);
    concurrency.observe(-5);
    expect(concurrency.workMs).toBeUndefined();
    expect(concurrency.next()).toBe(63);
  });
});

describe("a process's workers", () => {
  it('are two, one when the lower bound leaves one slot', () => {
    expect(workerCount({ min: 16, max: 256 })).toBe(2);
    expect(workerCount({ min: 2, max: 2 })).toBe(2);
    expect(workerCount({ min: 1, max: 1 })).toBe(1);
  });

  it('share the slots: every share within one of the others, adding up to the whole', () => {
    expect(shares(63, 2)).toEqual([32, 31]);
    expect(shares(63, 4)).toEqual([16, 16, 16, 15]);
    expect(shares(2, 2)).toEqual([1, 1]);
    for (const total of [4, 17, 64, 255]) {
      const split = shares(total, 3);
      expect(split.reduce((sum, each) => sum + each, 0)).toBe(total);
      expect(Math.max(...split) - Math.min(...split)).toBeLessThanOrEqual(1);
      expect(Math.min(...split)).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('--concurrency / INQUIRY_CONCURRENCY', () => {
  const env = { BC_ENV_FILE: 'none' };
  it('adapts between 16 and 256 when not given', () => expect(loadConfig({}, env).inquiry.concurrency).toEqual(DEFAULT_CONCURRENCY));
  it('is a hard cap when given, and fixes the figure below 16', () => {
    expect(loadConfig({ concurrency: '64' }, env).inquiry.concurrency).toEqual({ min: 16, max: 64 });
    expect(loadConfig({}, { ...env, INQUIRY_CONCURRENCY: '8' }).inquiry.concurrency).toEqual({ min: 8, max: 8 });
  });
  it('refuses what is not a positive whole number', () => expect(() => loadConfig({ concurrency: '0' }, env)).toThrow(ConfigError));
});
