import { describe, expect, it } from 'vitest';
import { RedisClockBound } from '../../src/queue/redis-clock.js';

/** Redis's clock runs 1,000,000 ms ahead of this process's in these tests. */
const AHEAD = 1_000_000;

describe('RedisClockBound', () => {
  it('knows nothing before a reply', () => expect(new RedisClockBound().latest(5)).toBeUndefined());

  it('never puts a moment earlier on Redis clock than it is, whatever the round trips', () => {
    const clock = new RedisClockBound();
    // Redis ran each command somewhere inside its round trip (ask at `asked`, run `toRedis` ms later).
    for (const [asked, toRedis] of [
      [0, 12],
      [40, 0.2],
      [90, 30],
    ] as const)
      clock.observe(asked, asked + toRedis + AHEAD);
    for (const local of [100, 500, 5_000]) expect(clock.latest(local)!).toBeGreaterThanOrEqual(local + AHEAD);
  });

  it('is as tight as the quickest round trip, not the slowest', () => {
    const clock = new RedisClockBound();
    clock.observe(0, 25 + AHEAD);
    expect(clock.latest(100)! - (100 + AHEAD)).toBeCloseTo(25, 0);
    clock.observe(10, 10.3 + AHEAD);
    expect(clock.latest(100)! - (100 + AHEAD)).toBeLessThan(0.5);
    // A slow one later does not loosen it.
    clock.observe(20, 50 + AHEAD);
    expect(clock.latest(100)! - (100 + AHEAD)).toBeLessThan(0.5);
  });

  it('allows for the clocks drifting apart as time passes since the bound was set', () => {
    const clock = new RedisClockBound();
    clock.observe(0, AHEAD);
    // Redis's clock ran 500 ppm fast for a minute: 30 ms ahead of where the bound last saw it.
    expect(clock.latest(60_000)!).toBeGreaterThanOrEqual(60_000 + AHEAD + 30);
  });
});
