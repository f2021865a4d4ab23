import { describe, expect, it } from 'vitest';
import { CallPermits, PermitWaitAborted } from '../../src/queue/call-permits.js';

describe('CallPermits (the calls in flight of a process)', () => {
  it('gives as many permits as its capacity, then one per permit given back, first come first served', async () => {
    const permits = new CallPermits(2);
    const order: string[] = [];
    const first = await permits.acquire();
    const second = await permits.acquire();
    const inLine = (name: string) =>
      permits.acquire().then((release) => {
        order.push(name);
        return release;
      });
    const third = inLine('third');
    const fourth = inLine('fourth');
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    first(); // given back twice: counted once
    await third;
    expect(order).toEqual(['third']);
    second();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });

  it('a wait given up (its signal aborted) leaves the line and takes no permit', async () => {
    const permits = new CallPermits(1);
    const held = await permits.acquire();
    const stop = new AbortController();
    const given = permits.acquire(stop.signal);
    const next = permits.acquire();
    stop.abort();
    await expect(given).rejects.toBeInstanceOf(PermitWaitAborted);
    await expect(permits.acquire(stop.signal)).rejects.toBeInstanceOf(PermitWaitAborted);
    held();
    const release = await next;
    // The aborted wait got nothing: the one permit is the one `next` holds.
    let more = false;
    void permits.acquire().then(() => (more = true));
    await Promise.resolve();
    expect(more).toBe(false);
    release();
  });

  it('follows the adapted concurrency: a raise lets the waiting calls go at once', async () => {
    const permits = new CallPermits(1);
    await permits.acquire();
    const waiting = [permits.acquire(), permits.acquire()];
    permits.setCapacity(3);
    await Promise.all(waiting);
  });
});
