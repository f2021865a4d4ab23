import type { Worker } from 'bullmq';

/**
 * Closes a BullMQ worker, the one way every worker of this project is closed (inquiries, notices, nightly
 * runs). `force`: the jobs in hand are left (their locks expire and they come back); otherwise they may finish.
 *
 * A graceful close interrupts the worker's blocking fetch by disconnecting its blocking connection and
 * waiting for ioredis' `end`. A client caught between two reconnect attempts (`reconnecting`: no socket, a
 * retry timer) never emits it: the disconnect only cancels the timer (taskforcesh/bullmq#4656), so a stop
 * during a Redis outage, or in the second after one, waited for ever. So the close first waits for the
 * next attempt to begin (at most one reconnect delay: 2 s at most with ioredis' default); an attempt under
 * way has a socket, and the disconnect ends it with `end`. A fetch that was on the wire when Redis went away
 * is then given up by BullMQ's own watchdog, within its block time and a second (about 6 s).
 */
export async function closeWorker<DataType>(worker: Worker<DataType>, force = false): Promise<void> {
  if (!force) {
    // A blocking connection that never opened (refused by Redis at its maxclients) rejects at the close: nothing to wait for.
    const blocking = await worker.backend.blockingClient?.catch(() => undefined);
    if (blocking !== undefined && blocking.status === 'reconnecting') {
      // Paused first (the jobs in hand go on): no new job is taken while the close waits for that attempt.
      await worker.pause(true);
      await nextAttempt(blocking);
    }
  }
  await worker.close(force);
}

/** What of an ioredis client (or BullMQ's view of one) tells of its connection's states. */
interface ConnectionEvents {
  on(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

/** Resolves when `client` begins its next connection attempt, or ends. */
function nextAttempt(client: ConnectionEvents): Promise<void> {
  return new Promise((resolve) => {
    const begun = () => {
      client.off('connecting', begun);
      client.off('end', begun);
      resolve();
    };
    client.on('connecting', begun);
    client.on('end', begun);
  });
}
