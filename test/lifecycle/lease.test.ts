import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { thisPlace } from '../../src/host/process.js';
import { Lease, LeaseLostError } from '../../src/redis/lease.js';
import { waitFor } from '../support/wait.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';

const prefix = testKeyPrefix();
const redis = testRedis();

afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

/** The pid of a process that has exited. */
async function goneProcessPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** A lease value as another process would have written it. */
const heldBy = (pid: number, place: { host: string; pidNamespace?: string | undefined } = thisPlace) =>
  JSON.stringify({ owner: `other-${pid}`, ...place, pid, since: Date.now() });

describe('Lease (real Redis)', () => {
  it('one holder at a time; released only by its holder', async () => {
    const key = `${prefix}:lease:one`;
    const first = new Lease(redis, key, { ttlMs: 5_000 });
    const second = new Lease(redis, key, { ttlMs: 5_000 });
    expect(await first.acquire()).toBeUndefined();
    expect(await second.acquire()).toMatchObject({ owner: first.owner, pid: process.pid });
    await second.release();
    expect(await second.acquire()).toMatchObject({ owner: first.owner });
    await first.release();
    expect(await second.acquire()).toBeUndefined();
    await second.release();
  });

  it.runIf(thisPlace.pidNamespace !== undefined)(
    'takes over at once from a holder whose process is gone from this host (a kill -9)',
    async () => {
      const key = `${prefix}:lease:gone`;
      await redis.set(key, heldBy(await goneProcessPid()), 'PX', 60_000);
      const lease = new Lease(redis, key, { ttlMs: 5_000 });
      expect(await lease.acquire()).toBeUndefined();
      expect(JSON.parse((await redis.get(key))!)).toMatchObject({ owner: lease.owner, pid: process.pid });
      await lease.release();
    },
  );

  it('never takes over from a live process, from another host or container, or from a holder it cannot place', async () => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const gone = await goneProcessPid();
      for (const [label, value] of [
        ['live process', heldBy(live.pid!)],
        ['other host', heldBy(gone, { host: 'another-host', pidNamespace: thisPlace.pidNamespace })],
        ['other container', heldBy(gone, { host: thisPlace.host, pidNamespace: 'pid:[1]' })],
        ['unplaced', JSON.stringify({ owner: 'old', host: thisPlace.host, pid: gone, since: 0 })],
      ] as const) {
        const key = `${prefix}:lease:${label.replace(' ', '-')}`;
        await redis.set(key, value, 'PX', 60_000);
        expect(await new Lease(redis, key, { ttlMs: 5_000 }).acquire(), label).toMatchObject({ pid: JSON.parse(value).pid });
      }
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('the same owner taken up again by a new process records the new process', async () => {
    const key = `${prefix}:lease:owner`;
    await redis.set(key, JSON.stringify({ owner: 'run:job-1', host: 'old-host', pid: 1, since: 0 }), 'PX', 60_000);
    const lease = new Lease(redis, key, { ttlMs: 5_000, owner: 'run:job-1' });
    expect(await lease.acquire()).toBeUndefined();
    expect(JSON.parse((await redis.get(key))!)).toMatchObject({ owner: 'run:job-1', host: thisPlace.host, pid: process.pid });
    await lease.release();
  });

  it('losing it to another holder aborts its signal with LeaseLostError and tells onLost once', async () => {
    const key = `${prefix}:lease:lost`;
    const lease = new Lease(redis, key, { ttlMs: 300 });
    expect(await lease.acquire()).toBeUndefined();
    const lost: LeaseLostError[] = [];
    lease.keepAlive((error) => lost.push(error));
    // Another process takes it (as after an expiry while this one stalled).
    await redis.set(key, heldBy(process.pid, { host: 'another-host' }), 'PX', 60_000);
    await waitFor(() => lease.signal.aborted, 5_000, 'the lease to be lost');
    expect(lease.signal.reason).toBeInstanceOf(LeaseLostError);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.message).toContain('taken over by another process');
    await lease.release();
    expect(await redis.get(key)).not.toBeNull(); // the new holder's lease stays
  });
});
