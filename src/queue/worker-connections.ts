import type { Worker } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import type { RedisClient } from '../redis/connection.js';
import { CLIENT_LIMIT_REPLY, clientLimit } from '../redis/failures.js';
import { redisErrors } from '../redis/supervisor.js';

/** How long a worker's own connection may take to open before the process looks for why. */
const WORKER_CONNECTION_MS = 5_000;

/**
 * A BullMQ worker takes jobs over a blocking connection of its own. One that has not opened
 * WORKER_CONNECTION_MS after the start, while the process's own connection works, was most likely refused
 * by Redis at its `maxclients`: ioredis sees only the closed socket and tries again for ever, and the worker
 * takes no job, silently. When Redis says it holds all the connections it takes, and still does
 * WORKER_CONNECTION_MS later with the connection still not open, the command ends saying so
 * (RedisClientLimitError, through the connection's supervisor): a connection only slow to open (a proxy
 * holding its first bytes) counts in Redis's clients too, so one look would end a healthy start at an
 * exactly sized maxclients. Otherwise a warning says how many wait.
 */
export function watchWorkerConnections<DataType>(
  workers: readonly Worker<DataType>[],
  { connection, logger, stopping }: { connection: RedisClient; logger: Logger; stopping: () => boolean },
): void {
  let opened = 0;
  // A backend without a blocking connection of its own (none here today) counts as opened.
  for (const worker of workers) {
    Promise.resolve(worker.backend.blockingClient).then(
      () => (opened += 1),
      () => undefined,
    );
  }
  const waiting = () => (stopping() ? 0 : workers.length - opened);
  /** Whether Redis holds all the connections it takes; undefined when it does not answer (the supervisor's to report) or say. */
  const atLimit = async () => {
    const limit = await clientLimit(connection).catch(() => undefined);
    return limit === undefined ? undefined : { ...limit, reached: limit.connected >= limit.max };
  };
  const check = async () => {
    if (waiting() === 0) return;
    const first = await atLimit();
    // Not holding the process open for the second look: a command that is done exits meanwhile.
    if (first?.reached) await new Promise((resolve) => setTimeout(resolve, WORKER_CONNECTION_MS).unref());
    const limit = first?.reached ? await atLimit() : first;
    const left = waiting();
    if (left === 0 || limit === undefined) return;
    if (limit.reached) {
      const refused = `${limit.connected} of maxclients ${limit.max} open, and ${left} of this process's inquiry workers could not open theirs in ${(2 * WORKER_CONNECTION_MS) / 1000} s`;
      redisErrors(connection, 'inquiry worker', logger)(new Error(`${CLIENT_LIMIT_REPLY} (${refused})`));
    } else {
      logger.warn(
        `${left} of this process's ${workers.length} inquiry workers have no Redis connection ${WORKER_CONNECTION_MS / 1000} s after their start, while the process's own connection works: they take no job until it opens (a connection limit of a proxy in between?)`,
      );
    }
  };
  setTimeout(() => void check(), WORKER_CONNECTION_MS).unref();
}
