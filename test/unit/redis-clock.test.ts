import { describe, expect, it } from 'vitest';
import { RedisClockBound } from '../../src/queue/redis-clock.js';

/** Redis's clock runs 1,000,000 ms ahead of this process's in these tests. */
const AHEAD = 1_000_000;

/** A command asked at `asked` that Redis ran `toRedis` ms later and whose reply came `back` ms after that, on a clock `ahead` of ours. */
const reply = (clock: RedisClockBound, asked: number, toRedis: number, back = 0.2, ahead = AHEAD) =>
  clock.observe(asked, asked + toRedis + back, asked + toRedis + ahead);

describe('RedisClockBound', () => {
  it('knows nothing before a reply', () => expect(new RedisClockBound().latest(5)).toBeUndefined());

  it('never puts a moment earlier on Redis clock than it is, whatever the round trips', () => {
    const clock = new RedisClockBound();
    reply(clock, 0, 12);
    reply(clock, 40, 0.2);
    reply(clock, 90, 30, 25);
    for (const local of [100, 500, 5_000]) expect(clock.latest(local)!).toBeGreaterThanOrEqual(local + AHEAD);
  });

  it('is as tight as the quickest round trip, not the slowest', () => {
    const clock = new RedisClockBound();
    reply(clock, 0, 25);
    expect(clock.latest(100)! - (100 + AHEAD)).toBeCloseTo(25, 0);
    reply(clock, 10, 0.3);
    expect(clock.latest(100)! - (100 + AHEAD)).toBeLessThan(0.5);
    // A slow one later does not loosen it.
    reply(clock, 20, 30, 10);
    expect(clock.latest(100)! - (100 + AHEAD)).toBeLessThan(0.5);
  });

  it('allows for the clocks drifting apart as time passes since the bound was set', () => {
    const clock = new RedisClockBound();
    reply(clock, 0, 0);
    // Redis's clock ran 500 ppm fast for a minute: 30 ms ahead of where the bound last saw it.
    expect(clock.latest(60_000)!).toBeGreaterThanOrEqual(60_000 + AHEAD + 30);
  });

  it("sets the bound afresh at the first reply past it when Redis's clock steps forward", () => {
    const clock = new RedisClockBound();
    for (let asked = 0; asked < 10_000; asked += 100) reply(clock, asked, 0.2);
    // Redis's clock steps 20 ms forward (NTP, a failover to a server whose clock is ahead).
    reply(clock, 10_000, 0.2, 0.2, AHEAD + 20);
    expect(clock.latest(10_001)!).toBeGreaterThanOrEqual(10_001 + AHEAD + 20);
    // A step back only loosens it until a quick reply tightens it again.
    reply(clock, 11_000, 0.2, 0.2, AHEAD);
    expect(clock.latest(11_001)!).toBeGreaterThanOrEqual(11_001 + AHEAD);
  });
});
