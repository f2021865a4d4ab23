import { resolve } from 'node:path';
import { DelayedError, Worker, type Job, type Queue } from 'bullmq';
import type { RedisClient } from '../redis/connection.js';
import { createInquiryProcessor, TransientInquiryError } from '../../jobs/inquiry.js';
import { openAccount } from '../queue/job-seal.js';
import { createMetrics, type ProductMetrics } from '../metrics/metrics.js';
import { openNotices, type Notices } from './notices.js';
import { AnswerArrivals } from '../batch/answer-arrivals.js';
import { BatchLifecycle } from '../batch/lifecycle.js';
import { BatchStore } from '../batch/batch-store.js';
import { inspectFile, Producer } from '../batch/producer.js';
import { inspectInputFile, readInputRecords } from '../batch/input-file.js';
import { knownAnswers } from '../batch/known-answers.js';
import { localTime } from '../clock/local-time.js';
import { writeReconciliation } from '../batch/report-writer.js';
import { DEFAULT_SETTLE, settleBatch, type SettleDependencies } from '../batch/settle.js';
import { settledWithin, systemClock, type Clock } from '../clock/clock.js';
import { BatchNotFoundError, describeError } from '../errors.js';
import type { Config, ProviderSettings } from '../config/index.js';
import { endpointOf } from '../config/endpoint.js';
import { maskAccountKey, type Logger } from '../logging/logger.js';
import { CircuitBreaker } from '../provider/circuit-breaker.js';
import { ProviderClient } from '../provider/client.js';
import { ensureLogin } from '../provider/ensure-login.js';
import { createHttpClient } from '../provider/http.js';
import { login } from '../provider/login.js';
import { SharedTokenSession } from '../provider/token.js';
import { AdaptiveConcurrency } from '../queue/concurrency.js';
import { inquiryQueueName, openInquiryQueue, queueCeiling, type InquiryJobData } from '../queue/inquiry-queue.js';
import { adaptTo, holdAfterRateLimit, startInquiryWorker } from '../queue/inquiry-worker.js';
import { findLostInquiryJobs } from '../queue/lost-jobs.js';
import { OutageBoard } from '../queue/outage-board.js';
import { SendPacer } from '../queue/pacer.js';
import { RateCeiling } from '../queue/rate-ceiling.js';
import { CallTally, TALLY_FLUSH_MS, type CallField } from '../queue/call-tally.js';
import { AccountHistory } from '../history/account-history.js';
import { answerRecorder, answerReuser, type AnswerDependencies } from '../history/answers.js';
import { Lease } from '../redis/lease.js';
import { redisKeys, type RedisKeys } from '../redis/keys.js';
import { DecisionStore } from '../review/decision-store.js';
import { importReviewFile, type ReviewImport, type ReviewImportRequest } from '../review/review-file.js';

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
  /** People's decisions and their audit trail (records, not working state). */
  decisions: DecisionStore;
  /** Records the decisions a person wrote in a reviewed report (`review`, the watched folder's `reviews/`). */
  importReview(request: ReviewImportRequest): Promise<ReviewImport>;
  queue: Queue<InquiryJobData>;
  lifecycle: BatchLifecycle;
  /** Logs in (a few tries for passing failures); throws the login error. */
  login(): Promise<void>;
  /** Starts inquiry workers in this process (and the completion-notice worker when notices are on); closed with the app. */
  startWorkers(): Promise<Worker<InquiryJobData>>;
  /** The highest inquiry concurrency this process's workers reached (adapted to the work time of a job); undefined before startWorkers. */
  concurrencyReached(): number | undefined;
  /**
   * Stops this process's inquiry workers from taking jobs and waits for the inquiries in flight at most
   * `withinMs` (SHUTDOWN_TIMEOUT unless a stop already spent part of it): past that they are left
   * behind, and their jobs come back to the queue when their locks expire. The first call's wait counts; a
   * later one (`close`) waits for the same.
   */
  stopWorkers(withinMs?: number): Promise<void>;
  /** This process's Prometheus metrics. */
  metrics: ProductMetrics;
  /** Completion notices: the queue (when NOTIFY_WEBHOOK_URL is set) and a bounded wait for this process's own. */
  notices: Notices;
  clock: Clock;
  close(): Promise<void>;
}

/** Batch keys a process keeps for opening its jobs' accounts: a few batches are worked at a time. */
const SEAL_KEYS_KEPT = 256;

/**
 * The composition root: wires the building blocks from the configuration, and is the only place that
 * knows the BullMQ job modules (`jobs/`). `provider` is the configuration's, or the built-in emulator's
 * when `run` started one; `redis` is connected already (and closed by the caller).
 */
export function openApp(
  config: Config,
  provider: ProviderSettings,
  redis: RedisClient,
  logger: Logger,
  clock: Clock = systemClock,
  metrics: ProductMetrics = createMetrics(),
): App {
  const keys = redisKeys(config.keyPrefix);
  const notices = openNotices(redis, keys, config.notify, provider.environment, logger, metrics);
  const store = new BatchStore(redis, keys, config.retention.batchMs);
  const decisions = new DecisionStore(redis, keys, config.decisions.keepMs, () => clock.now());
  const queueName = inquiryQueueName(provider);
  const queue = openInquiryQueue(redis, keys, queueName, logger);
  const http = createHttpClient(provider.requestTimeoutMs);
  const session = new SharedTokenSession(redis, keys, provider, () => login(http, provider), logger, provider.requestTimeoutMs, {
    login: (outcome) => metrics.login(outcome),
    refresh: (reason) => metrics.tokenRefresh(reason),
  });
  const client = new ProviderClient(http, provider, session, (seconds, kind) => metrics.inquiryLatency(seconds, kind));
  const outages = new OutageBoard(redis, keys, queueName);
  const pacer = new SendPacer(redis, keys.pacer(queueName), config.inquiry.rate);
  // Answers are stored with the account's history around them (src/history): the outcome with the history
  // entry it is compared with, then the new history entry; reuse (opt-in) happens where accounts are queued.
  const history = new AccountHistory(redis, keys, config.history.keepMs, () => clock.now());
  const answers: AnswerDependencies = {
    history,
    saveOutcome: (...answer) => store.saveOutcome(...answer),
    // One script for the outcome and the history on a standalone Redis; their keys are in different slots of a cluster.
    saveWithHistory: redis.isCluster
      ? undefined
      : (batchId, accountKey, outcome, entry, counts) =>
          store.saveAnswerWithHistory(batchId, accountKey, outcome, history.writeOf(queueName, accountKey, entry), counts),
    endpoint: queueName,
    now: () => clock.now(),
  };
  const saveAnswer = answerRecorder(answers);
  const producer = new Producer(
    store,
    queue,
    config.inquiry.attempts,
    answerReuser(answers, config.history.reuseAnswersMs),
    config.bankCodes,
  );
  const loginNow = () => ensureLogin(session, logger, clock);
  const arrivals = new AnswerArrivals();

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
    answersLanded: (batchId, count, signal) => arrivals.wait(batchId, count, signal),
    clock,
    logger,
  };

  const lifecycle = new BatchLifecycle({
    store,
    producer,
    contentLease: (content) => new Lease(redis, keys.contentLease(content), { ttlMs: CONTENT_LEASE_TTL_MS, clock }),
    login: loginNow,
    settle: async (batchId, options) => {
      const ended = metrics.batchRunning();
      try {
        return await settleBatch(
          settleDependencies,
          { ...DEFAULT_SETTLE, outageBudgetMs: config.inquiry.outageBudgetMs },
          batchId,
          options,
        );
      } finally {
        ended();
      }
    },
    writeReport: async (batchId, reportPath, signal, changesPath) => {
      const written = await writeReconciliation(
        { store, history, decisions },
        batchId,
        { reportPath, changesPath, timeZone: config.displayTimeZone },
        config.nameMatching,
        signal,
      );
      metrics.rowsReported(written.counts);
      return written;
    },
    inspect: inspectFile,
    batchFinished: notices.enqueue,
    allowedRate: (since) => pacer.allowedRateSince(since),
    queueName,
    endpoint: endpointOf(provider),
    throwAwayQueue: provider.builtinEmulator === true,
    clock,
    logger,
  });

  // A reviewed report is read by the reader of `run`, and checked against the answers this tool stored.
  const importReview = (request: ReviewImportRequest) =>
    importReviewFile(
      {
        open: async (path) => {
          const file = await inspectInputFile(resolve(path));
          return { header: file.header, records: readInputRecords(file, () => undefined) };
        },
        decisions,
        knownAnswers: (environment, accountKeys) => knownAnswers(store, history, environment, accountKeys, queueName),
        environment: provider.environment,
        bankCodes: config.bankCodes,
        showTime: (at) => localTime(at, config.displayTimeZone),
      },
      request,
    );

  /** Batches' keys for their jobs' account numbers (see job-seal.ts), read once per batch by this process. */
  const sealKeys = new Map<string, string>();
  const openJobAccount = async (data: InquiryJobData): Promise<string | undefined> => {
    // A job queued before jobs were sealed carries its account in clear.
    const legacy = (data as { accountKey?: unknown }).accountKey;
    if (typeof legacy === 'string') return legacy;
    let key = sealKeys.get(data.batchId);
    if (key === undefined) {
      key = await store.jobSeal(data.batchId);
      if (key === undefined) return undefined;
      if (sealKeys.size >= SEAL_KEYS_KEPT) sealKeys.delete(sealKeys.keys().next().value!);
      sealKeys.set(data.batchId, key);
    }
    return openAccount(key, data.batchId, data.sealedAccount);
  };
  const workers: Worker<InquiryJobData>[] = [];
  // The batch's call counters, added to in bulk rather than one round trip per call.
  const tally = new CallTally((batchId, field, by) => store.countCalls(batchId, field, by));
  const concurrencies: AdaptiveConcurrency[] = [];
  /** Batches this process found gone while answering (said once each). */
  const goneBatches = new Set<string>();
  /**
   * The job goes to BullMQ's delayed set for `ms` without spending an attempt, then to the back of the line.
   * Not the rate-limit hand-back: a worker that meets that error while it closes waits out the queue's rate
   * limit (up to BullMQ's 30 s) before it notices it is closing.
   */
  const putBack = async (job: Job<InquiryJobData>, token: string | undefined, ms: number): Promise<never> => {
    // Delayed jobs are due by the wall clock: BullMQ's convention.
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  };
  const rateCeiling = new RateCeiling(redis, keys.rateCeiling(queueName), config.inquiry.rate, logger);
  const startWorkers = async (): Promise<Worker<InquiryJobData>> => {
    // One rate for every worker of the queue: another rate alive there refuses this start (ConfigError).
    if (workers.length === 0) await rateCeiling.join();
    const ceiling = queueCeiling(config.inquiry.rate);
    // BullMQ's global limiter is the outer ceiling, and the switch that holds every worker after a 429.
    await queue.setGlobalRateLimit(ceiling.max, ceiling.duration);
    const breaker = new CircuitBreaker();
    metrics.watchBreaker(() => breaker.outageSince !== undefined);
    // Enough slots for the rate at the work time seen (see AdaptiveConcurrency), set on the worker as answers come.
    const concurrency = new AdaptiveConcurrency(config.inquiry.rate, config.inquiry.concurrency);
    let worker: Worker<InquiryJobData> | undefined;
    const processor = createInquiryProcessor({
      openAccount: (data) => openJobAccount(data),
      preCall: (batchId, accountKey) => pacer.preCall(keys.outcomes(batchId), accountKey),
      sendLeft: (ticket) => pacer.sent(ticket),
      observeWork: adaptTo(concurrency, () => worker),
      saveOutcome: async (batchId, accountKey, outcome) => {
        // The batch's counts go with its outcome, in the same script: a batch is never complete with a call uncounted.
        const counts = tally.take(batchId);
        const counted = tally.flush();
        try {
          await saveAnswer(batchId, accountKey, outcome, counts);
        } catch (error) {
          if (!(error instanceof BatchNotFoundError)) {
            tally.putBack(batchId, counts);
            throw error;
          }
          // Deleted, or lost by Redis: nothing of it is written again (no key without an expiry), and the job ends.
          if (!goneBatches.has(batchId)) {
            goneBatches.add(batchId);
            logger.warn(
              { batchId, account: maskAccountKey(accountKey) },
              `batch ${batchId} is gone from Redis (deleted, or lost by a restart without persistence): answers for it are not stored`,
            );
          }
        }
        await counted;
        arrivals.landed(batchId);
      },
      countCall: async (batchId, field) => {
        countCallMetric(metrics, field);
        tally.add(batchId, field);
      },
      inquire: (account, hooks, batchId) => client.inquire(account, hooks, batchId),
      holdSending: holdAfterRateLimit(pacer, logger),
      holdEveryWorker: async (ms) => {
        await queue.rateLimit(Math.max(1, Math.round(ms)));
        throw Worker.RateLimitError();
      },
      holdEveryWorkerBehind: async (job, token, ms) => {
        await queue.rateLimit(Math.max(1, Math.round(ms)));
        return putBack(job, token, ms);
      },
      handBack: (job, token) => putBack(job, token, 0),
      breaker,
      reportOutage: (since, reason, holdUntil) => outages.report(since, reason, holdUntil),
      clearOutage: () => outages.clear(),
      logger,
    });
    worker = startInquiryWorker(queue, processor, {
      connection: redis,
      keys,
      concurrency,
      backoffMs: config.inquiry.backoffMs,
      logger,
      onRetry: () => metrics.inquiryRetry(),
      isTransient: (error) => error instanceof TransientInquiryError,
    });
    workers.push(worker);
    concurrencies.push(concurrency);
    const started = worker;
    metrics.watchConcurrency(() => started.concurrency);
    notices.startWorker();
    return worker;
  };

  let stoppingWorkers: Promise<void> | undefined;
  const stopWorkers = async (withinMs = config.shutdownTimeoutMs): Promise<void> => {
    // Before any worker started there is nothing to wait for, and nothing to remember: a later stop waits for the workers then.
    if (workers.length === 0) return;
    return (stoppingWorkers ??= (async () => {
      const closing = Promise.all(workers.map((worker) => worker.close()));
      // Jobs still waiting for their send slot (a 429's hold can last minutes) go back to the queue now;
      // the calls already sent are waited for.
      for (const worker of workers) worker.cancelAllJobs('this process is stopping');
      if (await settledWithin(closing, withinMs)) return;
      logger.warn(
        `inquiries still in flight after SHUTDOWN_TIMEOUT (${Math.round(config.shutdownTimeoutMs / 1000)} s): not waited for; their jobs come back to the queue when their locks expire, and an account answered meanwhile is not asked again`,
      );
    })());
  };

  return {
    config,
    provider,
    logger,
    redis,
    keys,
    store,
    decisions,
    importReview,
    queue,
    lifecycle,
    login: loginNow,
    startWorkers,
    stopWorkers,
    concurrencyReached: () => (concurrencies.length === 0 ? undefined : Math.max(...concurrencies.map((each) => each.peak))),
    metrics,
    notices,
    clock,
    close: async () => {
      await stopWorkers();
      if (workers.length > 0)
        await rateCeiling
          .leave()
          .catch((error: unknown) =>
            logger.warn({ err: error }, `could not withdraw this process's rate (it expires by itself): ${describeError(error)}`),
          );
      await tally
        .flush()
        .catch((error: unknown) =>
          logger.error({ err: error }, `the call counts of the last ${TALLY_FLUSH_MS} ms could not be written: ${describeError(error)}`),
        );
      await notices.close();
      await queue.close();
    },
  };
}

function countCallMetric(metrics: ProductMetrics, field: CallField): void {
  if (field === 'calls') metrics.inquiryCall();
  else if (field === 'rateLimited') metrics.rateLimited();
  else if (field === 'internalErrors') metrics.internalError();
}
