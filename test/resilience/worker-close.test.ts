import { Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { closeWorker } from '../../src/queue/close-worker.js';
import { connectRedis, type RedisClient } from '../../src/redis/connection.js';
import { waitFor } from '../ops/ops-helpers.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';

/**
 * Closing a BullMQ worker whose blocking connection is between two reconnect attempts (Redis gone, or back a
 * moment ago): BullMQ's own close waits for an `end` that such a client never emits, so a stop at that
 * moment waited for ever (taskforcesh/bullmq#4656; the schedule's stop after a Redis restart). closeWorker
 * ends.
 */
let own: OwnRedis | undefined;
let connection: RedisClient | undefined;

afterEach(async () => {
  connection?.disconnect();
  await own?.remove();
  own = undefined;
  connection = undefined;
});

async function idleWorker(): Promise<Worker> {
  own = await startOwnRedis();
  connection = await connectRedis({ kind: 'server', url: own.url });
  connection.on('error', () => undefined);
  const worker = new Worker('close-test', async () => undefined, { connection, prefix: 'bc-worker-close', concurrency: 2 });
  worker.on('error', () => undefined);
  await worker.waitUntilReady();
  // Its blocking fetch is under way.
  await waitFor(async () => (await worker.backend.blockingClient)?.status === 'ready', 5_000, 'the blocking connection');
  return worker;
}

async function reconnecting(worker: Worker): Promise<void> {
  const blocking = await worker.backend.blockingClient;
  await waitFor(() => blocking?.status === 'reconnecting', 10_000, 'the blocking connection to be between attempts');
}

describe('closing a worker', () => {
  it('ends while Redis is gone and its blocking connection waits to reconnect', async () => {
    const worker = await idleWorker();
    await own!.stop();
    await reconnecting(worker);
    await closeWorker(worker);
    expect(worker.isRunning()).toBe(false);
  });

  it('ends when Redis is back and the blocking connection has not reconnected yet', async () => {
    const worker = await idleWorker();
    await own!.stop();
    await reconnecting(worker);
    await own!.start();
    await closeWorker(worker);
    expect(worker.isRunning()).toBe(false);
  });

  it('ends when all is well', async () => {
    const worker = await idleWorker();
    await closeWorker(worker);
    expect(worker.isRunning()).toBe(false);
  });
});
