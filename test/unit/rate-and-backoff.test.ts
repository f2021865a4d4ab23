import { describe, expect, it } from 'vitest';
import { parseRate, ratePerSecond } from '../../src/config/rate.js';
import { ConfigError } from '../../src/errors.js';
import { spreadLimiter } from '../../src/queue/inquiry-queue.js';
import { jitteredBackoff } from '../../src/queue/inquiry-worker.js';

describe('parseRate', () => {
  it.each([
    ['20/s', { max: 20, perMs: 1000 }],
    ['20', { max: 20, perMs: 1000 }],
    ['600/min', { max: 600, perMs: 60_000 }],
    [' 50 / sec ', { max: 50, perMs: 1000 }],
  ])('%s', (text, rate) => expect(parseRate(text)).toEqual(rate));

  it.each(['0/s', '-1/s', 'fast', '20/h', ''])('refuses %j', (text) => expect(() => parseRate(text)).toThrow(ConfigError));
});

describe('spreadLimiter', () => {
  it.each(['1/s', '20/s', '30/s', '50/s', '200/s', '300/s', '1000/s', '7/min', '600/min'])(
    'never exceeds %s and uses at least 98%% of it, in windows of at least 1 ms',
    (text) => {
      const rate = parseRate(text);
      const limiter = spreadLimiter(rate);
      const achieved = (limiter.max * 1000) / limiter.duration;
      expect(limiter.duration).toBeGreaterThanOrEqual(1);
      expect(achieved).toBeLessThanOrEqual(ratePerSecond(rate) + 1e-9);
      expect(achieved).toBeGreaterThanOrEqual(0.98 * ratePerSecond(rate));
    },
  );

  it('spaces single calls for ordinary rates, so no sliding second holds more than the rate', () => {
    expect(spreadLimiter(parseRate('50/s'))).toEqual({ max: 1, duration: 20 });
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
