import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../src/provider/circuit-breaker.js';

const settings = { windowSize: 10, minimumCalls: 4, failureRatio: 0.5, openMs: 1000, maxOpenMs: 4000 };

describe('CircuitBreaker', () => {
  it('stays closed while most calls are answered', () => {
    const breaker = new CircuitBreaker(settings);
    for (const answered of [true, false, true, true, false, true]) breaker.record(answered, 0);
    expect(breaker.allowRequest(0)).toEqual({ allowed: true, probe: false });
  });

  it('opens when most recent calls fail, lets one probe through after the pause, closes on an answer', () => {
    const breaker = new CircuitBreaker(settings);
    for (let i = 0; i < 4; i += 1) breaker.record(false, 100);
    expect(breaker.outageSince).toBe(100);
    expect(breaker.allowRequest(600)).toEqual({ allowed: false, waitMs: 500 });
    expect(breaker.allowRequest(1100)).toEqual({ allowed: true, probe: true });
    expect(breaker.allowRequest(1100).allowed).toBe(false);
    breaker.record(true, 1200);
    expect(breaker.outageSince).toBeUndefined();
    expect(breaker.allowRequest(1200)).toEqual({ allowed: true, probe: false });
  });

  it('doubles the pause each time the probe fails, up to the maximum', () => {
    const breaker = new CircuitBreaker(settings);
    for (let i = 0; i < 4; i += 1) breaker.record(false, 0);
    let now = 1000;
    for (const pause of [2000, 4000, 4000]) {
      expect(breaker.allowRequest(now).allowed).toBe(true);
      breaker.record(false, now);
      expect(breaker.allowRequest(now)).toEqual({ allowed: false, waitMs: pause });
      now += pause;
    }
    expect(breaker.outageSince).toBe(0);
  });

  it('ignores late results of calls sent before it opened', () => {
    const breaker = new CircuitBreaker(settings);
    for (let i = 0; i < 4; i += 1) breaker.record(false, 0);
    breaker.record(true, 10);
    expect(breaker.outageSince).toBe(0);
  });

  it('lets another probe through when one ends without a verdict (login trouble, a bug)', () => {
    const breaker = new CircuitBreaker(settings);
    for (let i = 0; i < 4; i += 1) breaker.record(false, 0);
    expect(breaker.allowRequest(1000)).toEqual({ allowed: true, probe: true });
    expect(breaker.allowRequest(1000).allowed).toBe(false);
    breaker.abandonProbe();
    expect(breaker.allowRequest(1000)).toEqual({ allowed: true, probe: true });
    expect(breaker.outageSince).toBe(0);
  });
});
