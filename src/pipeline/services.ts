import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config, ProviderSettings } from '../config/index.js';
import type { ColumnOverrides } from '../csv/columns.js';
import type { Logger } from '../logging/logger.js';
import { CircuitBreaker } from '../provider/circuit-breaker.js';
import { ProviderClient } from '../provider/client.js';
import { createHttpClient } from '../provider/http.js';
import { login } from '../provider/login.js';
import { SharedTokenSession } from '../provider/token.js';
import { BatchStore } from '../queue/batch-store.js';
import { inquiryQueueName, openInquiryQueue, type InquiryJobData } from '../queue/inquiry-queue.js';
import { startInquiryWorker } from '../queue/inquiry-worker.js';
import { redisKeys, type RedisKeys } from '../queue/keys.js';
import { OutageBoard } from '../queue/outage-board.js';
import { Producer } from '../queue/producer.js';
import { SendPacer } from '../queue/pacer.js';
import type { Worker } from 'bullmq';

/** Everything a command needs, wired once from the configuration. */
export interface Services {
  config: Config;
  provider: ProviderSettings;
  logger: Logger;
  redis: Redis;
  keys: RedisKeys;
  store: BatchStore;
  queue: Queue<InquiryJobData>;
  session: SharedTokenSession;
  client: ProviderClient;
  outages: OutageBoard;
  producer: (columns?: ColumnOverrides) => Producer;
  /** Starts workers in this process; they are closed with the services. */
  startWorkers: () => Promise<Worker<InquiryJobData>>;
  close: () => Promise<void>;
}

/**
 * Wires the building blocks. `provider` is the configuration's, or the built-in emulator's when `run`
 * started one; `redis` is already connected (and closed by the caller's `close`).
 */
export function openServices(config: Config, provider: ProviderSettings, redis: Redis, logger: Logger): Services {
  const keys = redisKeys(config.keyPrefix);
  const store = new BatchStore(redis, keys);
  const queueName = inquiryQueueName(provider);
  const queue = openInquiryQueue(redis, keys, queueName);
  const http = createHttpClient(provider.requestTimeoutMs);
  const session = new SharedTokenSession(redis, keys, provider, () => login(http, provider), logger, provider.requestTimeoutMs);
  const client = new ProviderClient(http, provider, session);
  const outages = new OutageBoard(redis, keys, queueName);
  const pacer = new SendPacer(redis, keys.pacer(queueName), config.inquiry.rate);
  const workers: Worker<InquiryJobData>[] = [];
  return {
    config,
    provider,
    logger,
    redis,
    keys,
    store,
    queue,
    session,
    client,
    outages,
    producer: (columns = {}) => new Producer(store, queue, { columns, attempts: config.inquiry.attempts }),
    startWorkers: async () => {
      const worker = await startInquiryWorker(redis, keys, config.inquiry, { store, client, queue, breaker: new CircuitBreaker(), pacer, outages, logger }, logger);
      workers.push(worker);
      return worker;
    },
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()));
      await queue.close();
    },
  };
}
