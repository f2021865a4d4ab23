import { describe, expect, it } from 'vitest';
import { parseAge as parseDuration } from '../../src/batch/retention.js';
import { formatDuration, parseLegacyDuration } from '../../src/config/duration.js';
import { UsageError } from '../../src/errors.js';

describe('prune --older-than durations', () => {
  it('reads a number and a unit: seconds, minutes, hours, days', () => {
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration('90m')).toBe(90 * 60_000);
    expect(parseDuration('12h')).toBe(12 * 3600_000);
    expect(parseDuration('30d')).toBe(30 * 24 * 3600_000);
    expect(parseDuration('1.5D')).toBe(36 * 3600_000);
    expect(parseDuration(' 7d ')).toBe(7 * 24 * 3600_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('0')).toBe(0);
  });

  it.each(['', '30', 'd', '30 days', '-1d', '1w', '12hours', '1e3s'])('refuses %j as a usage error naming the accepted forms', (value) => {
    expect(() => parseDuration(value)).toThrow(UsageError);
    expect(() => parseDuration(value)).toThrow(
      `--older-than takes a duration, a number and a unit ms, s, m, h or d (500ms, 30s, 5m, 12h, 30d), not ${JSON.stringify(value)}`,
    );
  });
});

describe('durations written back', () => {
  it('in the shortest exact unit', () => {
    expect([0, 500, 1500, 2000, 60_000, 90_000, 3_600_000, 86_400_000, 30 * 86_400_000].map(formatDuration)).toEqual([
      '0',
      '500ms',
      '1500ms',
      '2s',
      '1m',
      '90s',
      '1h',
      '1d',
      '30d',
    ]);
  });

  it("reads a renamed setting's bare number in its old unit, and a duration as it is", () => {
    expect(parseLegacyDuration('15000', 'ms')).toBe(15_000);
    expect(parseLegacyDuration('0.5', 's')).toBe(500);
    expect(parseLegacyDuration('24', 'h')).toBe(86_400_000);
    expect(parseLegacyDuration('7', 'd')).toBe(7 * 86_400_000);
    expect(parseLegacyDuration('10s', 'd')).toBe(10_000);
    expect(parseLegacyDuration('soon', 's')).toBeUndefined();
  });
});
