import { describe, expect, it } from 'vitest';
import {
  allowedRate,
  FLOOR,
  GUARDED_HEADROOM,
  HEADROOM,
  rateAt,
  sendsUnpaced,
  slotInterval,
  slowedRate,
  UNPACED_FROM,
} from '../../src/queue/rate-control.js';

const T0 = 1_700_000_000_000;

describe('rateAt: the configured rate until a 429, then a linear climb back', () => {
  it('is the ceiling while the provider never answered 429', () => {
    expect(rateAt({}, 40, T0)).toBe(40);
  });

  it('holds the slowed rate until the hold ends, then climbs by 20% of it per clean second', () => {
    const state = { slowedTo: 5, climbsFrom: T0 + 1_000, refused: 10, slowedAt: T0 };
    expect(rateAt(state, 40, T0 + 500)).toBe(5);
    expect(rateAt(state, 40, T0 + 1_000)).toBe(5);
    expect(rateAt(state, 40, T0 + 2_000)).toBeCloseTo(6);
    expect(rateAt(state, 40, T0 + 6_000)).toBeCloseTo(10); // back at the refused rate after 5 s
  });

  it('never climbs above the ceiling', () => {
    expect(rateAt({ slowedTo: 20, climbsFrom: T0 }, 40, T0 + 3_600_000)).toBe(40);
  });
});

describe('slowedRate: multiplicative decrease with a floor', () => {
  it('halves the rate in force', () => {
    expect(slowedRate(40)).toBe(20);
    expect(slowedRate(5.5)).toBe(2.75);
  });

  it('stops at the floor', () => {
    expect(slowedRate(0.6)).toBe(FLOOR);
    expect(slowedRate(FLOOR)).toBe(FLOOR);
  });
});

describe('slotInterval', () => {
  it('spaces slots 1% closer than the configured rate: the window guard holds that rate', () => {
    expect(slotInterval(200, true)).toBeCloseTo(1000 / (200 * GUARDED_HEADROOM));
    expect(slotInterval(200, true)).toBeGreaterThan(4.95);
    expect(slotInterval(200, true)).toBeLessThan(5);
  });

  it('spaces slots 1% wider than a rate no guard holds: a slowed one, or a fraction of a call per window', () => {
    expect(slotInterval(100, false)).toBeCloseTo(1000 / (100 * HEADROOM));
    expect(slotInterval(100, false)).toBeGreaterThan(10);
    expect(slotInterval(100, false)).toBeLessThan(10.11);
  });
});

describe('allowedRate: what the summary reports', () => {
  const state = { slowedTo: 2.5, climbsFrom: T0 + 1_000, refused: 5, slowedAt: T0 };

  it('is the configured rate when the provider never answered 429 during the run', () => {
    expect(allowedRate({}, 40, T0, T0 + 10_000)).toBe(40);
    expect(allowedRate(state, 40, T0 + 1, T0 + 10_000)).toBe(40);
  });

  it('is the pacer rate at the end of the run after a 429', () => {
    expect(allowedRate(state, 40, T0 - 60_000, T0 + 3_000)).toBeCloseTo(3.5);
  });

  it('is never above the rate the provider last refused', () => {
    expect(allowedRate(state, 40, T0 - 60_000, T0 + 60_000)).toBe(5);
  });

  it('is unknown when the rate it last refused was sent unpaced (no send was recorded): not the unpaced 1000000/s', () => {
    const unpaced = { slowedTo: 500_000, climbsFrom: T0 + 1_000, refused: 1_000_000, slowedAt: T0 };
    expect(allowedRate(unpaced, 1_000_000, T0 - 60_000, T0 + 60_000)).toBeUndefined();
    // Slowed until it paced, then refused at a paced rate: that one is known.
    expect(allowedRate({ slowedTo: 400, climbsFrom: T0 + 1_000, refused: 800, slowedAt: T0 }, 1_000_000, T0 - 60_000, T0 + 2_000)).toBe(
      480,
    );
  });
});

describe('sendsUnpaced', () => {
  it('skips the pacer from 1000/s (slots 1 ms apart: finer than a timer can wait)', () => {
    expect(UNPACED_FROM).toBe(1000);
    expect(sendsUnpaced(1000)).toBe(true);
    expect(sendsUnpaced(100_000)).toBe(true);
    expect(sendsUnpaced(999)).toBe(false);
  });

  it('paces again while a 429 keeps the rate in force below it', () => {
    const state = { slowedTo: 600, climbsFrom: T0, refused: 1200, slowedAt: T0 - 1_000 };
    expect(sendsUnpaced(rateAt(state, 100_000, T0 + 1_000))).toBe(false); // 720/s
    expect(sendsUnpaced(rateAt(state, 100_000, T0 + 5_000))).toBe(true); // 1200/s
  });
});
