import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { maskAccountKey } from '../logging/logger.js';

export const QUEUE_BOARD_PATH = '/queues';

/** Inquiry jobs carry an account key (`014:0012345678`): the dashboard shows it masked like everywhere else. */
export function maskJobData(data: unknown): unknown {
  if (data === null || typeof data !== 'object') return data;
  const record = data as Record<string, unknown>;
  return typeof record.accountKey === 'string' ? { ...record, accountKey: maskAccountKey(record.accountKey) } : data;
}

/**
 * bull-board at /queues for the inquiry, nightly and notice queues: waiting, delayed (retries), failed jobs
 * with their reasons. Read-only unless asked (`serve --queue-actions`): retrying or removing jobs by hand
 * is an operator's decision, not a default.
 */
export async function mountQueueBoard(server: FastifyInstance, queues: Queue[], options: { readOnly: boolean }): Promise<void> {
  // bull-board's own read-only mode leaves some actions open ("pause all" answers 200 and pauses nothing):
  // read-only here means every request that could change a queue is refused, whatever bull-board does.
  if (options.readOnly) {
    server.addHook('onRequest', async (request, reply) => {
      // The route matched, not the URL as written: an encoded or odd spelling of the path routes the same.
      const route = request.routeOptions.url ?? request.url;
      if (request.method === 'GET' || request.method === 'HEAD' || !route.startsWith(`${QUEUE_BOARD_PATH}/api/`)) return undefined;
      return reply
        .code(403)
        .send({ error: 'the queue dashboard is read-only: start `serve --queue-actions` to pause, retry, promote or remove jobs' });
    });
  }
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => {
      // bull-board types BullMQ's Queue from its own (older) copy; the adapter uses only the public API.
      const adapter = new BullMQAdapter(queue as never, { readOnlyMode: options.readOnly, allowRetries: !options.readOnly });
      adapter.setFormatter('data', maskJobData);
      return adapter;
    }),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'beneficiary-check' } },
  });
  await server.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
}
