import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/batch/retention.js';
import { UsageError } from '../../src/errors.js';

describe('prune --older-than durations', () => {
  it('reads a number and a unit: seconds, minutes, hours, days', () => {
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration('90m')).toBe(90 * 60_000);
    expect(parseDuration('12h')).toBe(12 * 3600_000);
    expect(parseDuration('30d')).toBe(30 * 24 * 3600_000);
    expect(parseDuration('1.5D')).toBe(36 * 3600_000);
    expect(parseDuration(' 7d ')).toBe(7 * 24 * 3600_000);
  });

  it.each(['', '30', 'd', '30 days', '-1d', '1w', '12hours', '1e3s'])('refuses %j as a usage error naming the accepted forms', (value) => {
    expect(() => parseDuration(value)).toThrow(UsageError);
    expect(() => parseDuration(value)).toThrow(`--older-than takes a duration: a number and a unit s, m, h or d (0s, 90m, 12h, 30d), not ${JSON.stringify(value)}`);
  });
});
