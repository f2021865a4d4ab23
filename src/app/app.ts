import { MetricsTime, Worker, type Queue } from 'bullmq';
import type { RedisClient } from '../redis/connection.js';
import { createInquiryProcessor, TransientInquiryError } from '../../jobs/inquiry.js';
import { createMetrics, type ProductMetrics } from '../metrics/metrics.js';
import { openNotices, type Notices } from './notices.js';
import { BatchLifecycle } from '../batch/lifecycle.js';
import { BatchStore } from '../batch/batch-store.js';
import { inspectFile, Producer } from '../batch/producer.js';
import { writeReconciliation } from '../batch/report-writer.js';
import { DEFAULT_SETTLE, settleBatch, type SettleDependencies } from '../batch/settle.js';
import { systemClock, type Clock } from '../clock/clock.js';
import { describeError } from '../errors.js';
import type { Config, ProviderSettings } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { CircuitBreaker } from '../provider/circuit-breaker.js';
import { ProviderClient } from '../provider/client.js';
import { ensureLogin } from '../provider/ensure-login.js';
import { createHttpClient } from '../provider/http.js';
import { login } from '../provider/login.js';
import { SharedTokenSession } from '../provider/token.js';
import { jitteredBackoff } from '../queue/backoff.js';
import { AdaptiveConcurrency } from '../queue/concurrency.js';
import { inquiryQueueName, openInquiryQueue, queueCeiling, type InquiryJobData } from '../queue/inquiry-queue.js';
import { findLostInquiryJobs } from '../queue/lost-jobs.js';
import { OutageBoard } from '../queue/outage-board.js';
import { SendPacer } from '../queue/pacer.js';
import { CallTally, TALLY_FLUSH_MS } from '../queue/call-tally.js';
import { AccountHistory } from '../history/account-history.js';
import { answerRecorder, answerReuser, type AnswerDependencies } from '../history/answers.js';
import { isConnectionFailure, isRedisFull } from '../redis/failures.js';
import { Lease } from '../redis/lease.js';
import { redisErrors } from '../redis/supervisor.js';
import { redisKeys, type RedisKeys } from '../redis/keys.js';

/** How long the content lease lives without renewal: a producer that died frees its content within this. */
const CONTENT_LEASE_TTL_MS = 30_000;

/** The application as the commands see it: built once from the configuration, closed once. */
export interface App {
  config: Config;
  provider: ProviderSettings;
  logger: Logger;
  redis: RedisClient;
  keys: RedisKeys;
  store: BatchStore;
  queue: Queue<InquiryJobData>;
  lifecycle: BatchLifecycle;
  /** Logs in (a few tries for passing failures); throws the login error. */
  login(): Promise<void>;
  /** Starts inquiry workers in this process (and the completion-notice worker when notices are on); closed with the app. */
  startWorkers(): Promise<Worker<InquiryJobData>>;
  /** The highest inquiry concurrency this process's workers reached (adapted to the work time of a job); undefined before startWorkers. */
  concurrencyReached(): number | undefined;
  /** This process's Prometheus metrics. */
  metrics: ProductMetrics;
  /** Completion notices: the queue (when NOTIFY_WEBHOOK_URL is set) and a bounded wait for this process's own. */
  notices: Notices;
  clock: Clock;
  close(): Promise<void>;
}

/**
 * The composition root: wires the building blocks from the configuration, and is the only place that
 * knows the BullMQ job modules (`jobs/`). `provider` is the configuration's, or the built-in emulator's
 * when `run` started one; `redis` is connected already (and closed by the caller).
 */
export function openApp(config: Config, provider: ProviderSettings, redis: RedisClient, logger: Logger, clock: Clock = systemClock, metrics: ProductMetrics = createMetrics()): App {
  const keys = redisKeys(config.keyPrefix);
  const notices = openNotices(redis, keys, config.notify, provider.environment, logger, metrics);
  const store = new BatchStore(redis, keys, config.retention.batchMs);
  const queueName = inquiryQueueName(provider);
  const queue = openInquiryQueue(redis, keys, queueName, logger);
  const http = createHttpClient(provider.requestTimeoutMs);
  const session = new SharedTokenSession(redis, keys, provider, () => login(http, provider), logger, provider.requestTimeoutMs, {
    login: (outcome) => metrics.login(outcome),
    refresh: (reason) => metrics.tokenRefresh(reason),
  });
  const client = new ProviderClient(http, provider, session);
  const outages = new OutageBoard(redis, keys, queueName);
  const pacer = new SendPacer(redis, keys.pacer(queueName), config.inquiry.rate);
  // Answers are stored with the account's history around them (src/history): the outcome with the history
  // entry it is compared with, then the new history entry; reuse (opt-in) happens where accounts are queued.
  const history = new AccountHistory(redis, keys, config.history.keepMs, () => clock.now());
  const answers: AnswerDependencies = {
    history,
    saveOutcome: (...answer) => store.saveOutcome(...answer),
    // One script for the outcome and the history on a standalone Redis; their keys are in different slots of a cluster.
    saveWithHistory: redis.isCluster ? undefined : (batchId, accountKey, outcome, entry) => store.saveAnswerWithHistory(batchId, accountKey, outcome, history.writeOf(queueName, accountKey, entry)),
    endpoint: queueName,
    now: () => clock.now(),
  };
  const saveAnswer = answerRecorder(answers);
  const producer = new Producer(store, queue, config.inquiry.attempts, answerReuser(answers, config.history.reuseAnswersMs), config.bankCodes);
  const loginNow = () => ensureLogin(session, logger, clock);

  const settleDependencies: SettleDependencies = {
    progress: (batchId) => store.progress(batchId),
    unansweredAccounts: (batchId) => store.unansweredAccounts(batchId),
    saveOutcome: saveAnswer,
    providerOutage: () => outages.read(),
    lastLoginFailure: () => session.lastLoginFailure(),
    queueCounts: async () => {
      const counts = await queue.getJobCounts('active', 'waiting', 'delayed');
      return { active: counts.active ?? 0, waiting: counts.waiting ?? 0, delayed: counts.delayed ?? 0 };
    },
    findLostJobs: async (batchId, accountKeys) => findLostInquiryJobs(queue, batchId, (await store.get(batchId)).round, accountKeys),
    requeue: async (batchId) => void (await producer.requeueUnanswered(batchId)),
    clock,
    logger,
  };

  const lifecycle = new BatchLifecycle({
    store,
    producer,
    contentLease: (contentHash) => new Lease(redis, keys.contentLease(contentHash), { ttlMs: CONTENT_LEASE_TTL_MS, clock }),
    login: loginNow,
    settle: async (batchId, options) => {
      const ended = metrics.batchRunning();
      try {
        return await settleBatch(settleDependencies, { ...DEFAULT_SETTLE, outageBudgetMs: config.inquiry.outageBudgetMs }, batchId, options);
      } finally {
        ended();
      }
    },
    writeReport: async (batchId, reportPath, signal, changesPath) => {
      const written = await writeReconciliation({ store, history }, batchId, { reportPath, changesPath }, config.nameMatching, signal);
      metrics.rowsReported(written.counts);
      return written;
    },
    inspect: inspectFile,
    batchFinished: notices.enqueue,
    allowedRate: (since) => pacer.allowedRateSince(since),
    queueName,
    throwAwayQueue: provider.builtinEmulator === true,
    clock,
    logger,
  });

  const workers: Worker<InquiryJobData>[] = [];
  // The batch's call counters, added to in bulk rather than one round trip per call.
  const tally = new CallTally((batchId, field, by) => store.countCalls(batchId, field, by));
  const concurrencies: AdaptiveConcurrency[] = [];
  const startWorkers = async (): Promise<Worker<InquiryJobData>> => {
    const ceiling = queueCeiling(config.inquiry.rate);
    // BullMQ's global limiter is the outer ceiling, and the switch that holds every worker after a 429.
    await queue.setGlobalRateLimit(ceiling.max, ceiling.duration);
    const breaker = new CircuitBreaker();
    metrics.watchBreaker(() => breaker.outageSince !== undefined);
    // Enough slots for the rate at the work time seen (see AdaptiveConcurrency), set on the worker as answers come.
    const concurrency = new AdaptiveConcurrency(config.inquiry.rate, config.inquiry.concurrency);
    let worker: Worker<InquiryJobData> | undefined;
    const adapt = (workMs: number) => {
      concurrency.observe(workMs);
      const next = concurrency.next();
      if (worker !== undefined && worker.concurrency !== next) worker.concurrency = next;
    };
    const processor = createInquiryProcessor({
      preCall: (batchId, accountKey) => pacer.preCall(keys.outcomes(batchId), accountKey),
      sendLeft: (ticket) => pacer.sent(ticket),
      observeWork: adapt,
      saveOutcome: async (batchId, accountKey, outcome) => {
        // The counts go out before the outcome on the same connection: a batch is never complete with a call uncounted.
        const counted = tally.flush();
        await saveAnswer(batchId, accountKey, outcome);
        await counted;
      },
      countCall: async (batchId, field) => {
        countCallMetric(metrics, field);
        tally.add(batchId, field);
      },
      inquire: async (account, hooks) => {
        // Latency from the call going out (after pacing and the token) to its classified answer.
        let sentAt = performance.now();
        const decision = await client.inquire(account, {
          waitForTurn: () => hooks.waitForTurn(),
          onSend: async () => {
            await hooks.onSend();
            sentAt = performance.now();
          },
          onWritten: () => hooks.onWritten(),
        });
        metrics.inquiryLatency((performance.now() - sentAt) / 1000, decision.kind);
        return decision;
      },
      holdSending: async (ms, ticket) => {
        const slowDown = await pacer.slowDown(ms, ticket);
        // Once per hold, not once per 429: the calls paced before the decrease answer for the old rate.
        if (slowDown.slowed) logger.warn({ retryAfterMs: ms, fromPerSecond: round(slowDown.from), toPerSecond: round(slowDown.to) }, `provider rate limit reached (HTTP 429): every worker holds ${ms} ms, then sends at ${round(slowDown.to)}/s (was ${round(slowDown.from)}/s), climbing back while answers are clean`);
        else logger.debug({ retryAfterMs: ms }, 'provider rate limit reached (HTTP 429) for a call paced before the last slow-down: holding');
      },
      holdEveryWorker: async (ms) => {
        await queue.rateLimit(Math.max(1, Math.round(ms)));
        throw Worker.RateLimitError();
      },
      breaker,
      reportOutage: (since, reason) => outages.report(since, reason),
      clearOutage: () => outages.clear(),
      logger,
    });
    worker = new Worker<InquiryJobData>(queue.name, processor, {
      connection: redis,
      prefix: keys.bullPrefix(),
      concurrency: concurrency.next(),
      // A killed worker's jobs come back after the lock expires; a few stalls are not a reason to give up a
      // row. Past the limit the job fails and the batch's settle turns it into a FAILED row that says so.
      maxStalledCount: 10,
      // Completed/failed counts per minute for BullMQ's own Prometheus export (bullmq_job_*_total).
      metrics: { maxDataPoints: MetricsTime.ONE_WEEK },
      settings: { backoffStrategy: (attemptsMade: number) => jitteredBackoff(config.inquiry.backoffMs, attemptsMade) },
    });
    const workerErrors = redisErrors(redis, 'inquiry worker', logger);
    worker.on('error', workerErrors);
    worker.on('failed', (job, error) => {
      // A job that failed on Redis itself (gone, full) is the connection's supervisor's to report, once.
      if (isConnectionFailure(error) || isRedisFull(error)) return workerErrors(error);
      // A transient failure thrown by the processor always goes back for another attempt (the last one stores FAILED).
      if (error instanceof TransientInquiryError) metrics.inquiryRetry();
      else if (error.name !== 'RateLimitError') logger.error({ err: error, jobId: job?.id }, 'inquiry job failed');
    });
    workers.push(worker);
    concurrencies.push(concurrency);
    const started = worker;
    metrics.watchConcurrency(() => started.concurrency);
    notices.startWorker();
    return worker;
  };

  return {
    config,
    provider,
    logger,
    redis,
    keys,
    store,
    queue,
    lifecycle,
    login: loginNow,
    startWorkers,
    concurrencyReached: () => (concurrencies.length === 0 ? undefined : Math.max(...concurrencies.map((each) => each.peak))),
    metrics,
    notices,
    clock,
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()));
      await tally.flush().catch((error: unknown) => logger.error({ err: error }, `the call counts of the last ${TALLY_FLUSH_MS} ms could not be written: ${describeError(error)}`));
      await notices.close();
      await queue.close();
    },
  };
}

const round = (rate: number): number => Math.round(rate * 100) / 100;

function countCallMetric(metrics: ProductMetrics, field: 'calls' | 'rateLimited' | 'internalErrors'): void {
  if (field === 'calls') metrics.inquiryCall();
  else if (field === 'rateLimited') metrics.rateLimited();
  else metrics.internalError();
}
