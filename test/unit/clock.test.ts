import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, settledWithin, sleep, timerDelay } from '../../src/clock/clock.js';

describe('timerDelay: the one clamp of delays that come from outside', () => {
  it('keeps what a timer can hold, and clamps the rest into it', () => {
    expect(timerDelay(1_500)).toBe(1_500);
    expect(timerDelay(0)).toBe(0);
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(Number.NaN)).toBe(0);
    expect(timerDelay(30 * 24 * 3600_000)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
    expect(MAX_TIMER_MS).toBe(2_147_483_647);
  });

  it('a sleep of 30 days is a timer of 24.8 days, not one that fires at once with a TimeoutOverflowWarning', async () => {
    const warnings: string[] = [];
    const listen = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', listen);
    try {
      const stop = new AbortController();
      const slept = sleep(30 * 24 * 3600_000, stop.signal);
      expect(await settledWithin(slept, 50)).toBe(false);
      stop.abort();
      await slept;
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', listen);
    }
  });
});

describe('settledWithin', () => {
  it('tells whether the work finished in time, and throws its failure', async () => {
    expect(await settledWithin(Promise.resolve('done'), 1_000)).toBe(true);
    expect(await settledWithin(new Promise(() => undefined), 10)).toBe(false);
    await expect(settledWithin(Promise.reject(new Error('closing failed')), 1_000)).rejects.toThrow('closing failed');
  });
});
