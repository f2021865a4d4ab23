import type { Processor, Queue } from 'bullmq';
import type { RedisClient } from '../redis/connection.js';
import { createInquiryProcessor, TransientInquiryError } from '../../jobs/inquiry.js';
import { createMetrics, type ProductMetrics } from '../metrics/metrics.js';
import { createCompletionNoticeProcessor } from '../../jobs/completion-notice.js';
import { openNotices, type Notices } from '../notify/notices.js';
import { AnswerArrivals } from '../batch/answer-arrivals.js';
import { answerStorage } from '../batch/answer-storage.js';
import { BatchLifecycle } from '../batch/lifecycle.js';
import { BatchStore } from '../batch/batch-store.js';
import { inspectFile, Producer } from '../batch/producer.js';
import { knownAnswers } from '../batch/known-answers.js';
import { reviewImporter } from '../batch/review-import.js';
import { writeReconciliation } from '../batch/report-writer.js';
import { DEFAULT_SETTLE, settleBatch, type SettleDependencies } from '../batch/settle.js';
import { systemClock, type Clock } from '../clock/clock.js';
import type { Config, ProviderSettings } from '../config/index.js';
import { endpointOf } from '../config/endpoint.js';
import type { Logger } from '../logging/logger.js';
import { ProviderClient } from '../provider/client.js';
import { ensureLogin } from '../provider/ensure-login.js';
import { createHttpClient } from '../provider/http.js';
import { login } from '../provider/login.js';
import { SharedTokenSession } from '../provider/token.js';
import { AnswerLanding } from '../queue/answer-landing.js';
import {
  accountsPerJob,
  inquiryJobCounts,
  inquiryQueueName,
  jobsPerAdd,
  openInquiryQueue,
  type InquiryJobData,
} from '../queue/inquiry-queue.js';
import { holdAfterRateLimit } from '../queue/inquiry-worker.js';
import { JobAccounts } from '../queue/job-accounts.js';
import { dropInquiryJobs, findLostInquiryJobs, heldJobsOfEarlierRounds } from '../queue/lost-jobs.js';
import { OutageBoard } from '../queue/outage-board.js';
import { SendPacer } from '../queue/pacer.js';
import { InquiryWorkerPool, type WorkerPart } from '../queue/worker-pool.js';
import { AccountHistory } from '../history/account-history.js';
import { answerRecorder, answerReuser } from '../history/answers.js';
import { Lease } from '../redis/lease.js';
import { redisKeys, type RedisKeys } from '../redis/keys.js';
import { DecisionStore } from '../review/decision-store.js';
import type { KnownAnswer, ReviewImport, ReviewImportRequest } from '../review/review-file.js';

/** How long the content lease lives without renewal: a producer that died frees its content within this. */
const CONTENT_LEASE_TTL_MS = 30_000;
/** Beyond the provider's request timeout, how long a call of a batch's earlier round may still be on its way (LifecycleDependencies.earlierCalls). */
const EARLIER_CALLS_MARGIN_MS = 2_000;

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
  /** The last definitive answer stored for each account in an environment, over its endpoints and `endpoint` (see knownAnswers). */
  knownAnswers(environment: string, accountKeys: string[], endpoint: string): Promise<Map<string, KnownAnswer>>;
  queue: Queue<InquiryJobData>;
  lifecycle: BatchLifecycle;
  /** Logs in (a few tries for passing failures); throws the login error. */
  login(): Promise<void>;
  /** Starts inquiry workers in this process (and the completion-notice worker when notices are on); closed with the app. */
  startWorkers(): Promise<void>;
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
  const notices = openNotices(redis, keys, config.notify, provider.environment, logger, (target) =>
    createCompletionNoticeProcessor({
      ...target,
      onDelivered: () => metrics.notice('delivered'),
      onAttemptFailed: () => metrics.notice('attempt_failed'),
      logger,
    }),
  );
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
  const answers = answerStorage(store, history, queueName, redis.isCluster, () => clock.now());
  const recordAnswer = answerRecorder(answers);
  const producer = new Producer(
    store,
    queue,
    config.inquiry.attempts,
    answerReuser(answers, config.history.reuseAnswersMs),
    config.bankCodes,
    jobsPerAdd(config.inquiry.rate),
  );
  const loginNow = () => ensureLogin(session, logger, clock);
  const arrivals = new AnswerArrivals();

  const settleDependencies: SettleDependencies = {
    progress: (batchId) => store.progress(batchId),
    unansweredInquiries: (batchId) => store.unansweredInquiries(batchId),
    recordAnswer,
    providerOutage: () => outages.read(),
    providerAnswers: () => outages.answers(),
    lastLoginFailure: () => session.lastLoginFailure(),
    queueCounts: () => inquiryJobCounts(queue),
    findLostJobs: async (batchId, inquiries) => findLostInquiryJobs(queue, batchId, (await store.get(batchId)).round, inquiries),
    requeue: async (batchId) => void (await producer.requeueUnanswered(batchId)),
    markGivenUp: (batchId, round, accountKeys, outcome) => store.markGivenUp(batchId, round, accountKeys, outcome),
    dropJobs: (batchId, round, inquiries) => dropInquiryJobs(queue, batchId, round, inquiries),
    answersLanded: (batchId, count, signal) => arrivals.wait(batchId, count, signal),
    waiting: () => metrics.batchRunning(),
    clock,
    logger,
  };

  const settleSettings = { ...DEFAULT_SETTLE, outageBudgetMs: config.inquiry.outageBudgetMs };
  const lifecycle = new BatchLifecycle({
    store,
    producer,
    contentLease: (content) => new Lease(redis, keys.contentLease(content), { ttlMs: CONTENT_LEASE_TTL_MS, clock }),
    login: loginNow,
    settle: (batchId, options) => settleBatch(settleDependencies, settleSettings, batchId, options),
    watchQueueing: (batchId, signal) => settleBatch(settleDependencies, settleSettings, batchId, { signal, whileQueueing: true }),
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
    earlierCalls: {
      held: (batchId, round) => heldJobsOfEarlierRounds(queue, batchId, round),
      // A call sent before the round moved is answered or timed out by then; one booked a slot up to the
      // pacer's horizon (250 ms) before, or met a 401 and asks once more: the margin.
      settledWithinMs: provider.requestTimeoutMs + EARLIER_CALLS_MARGIN_MS,
    },
    queueName,
    endpoint: endpointOf(provider),
    throwAwayQueue: provider.builtinEmulator === true,
    accountsPerJob,
    clock,
    logger,
  });

  const importReview = reviewImporter(
    { store, history, decisions },
    {
      environment: provider.environment,
      endpoint: queueName,
      bankCodes: config.bankCodes,
      timeZone: config.displayTimeZone,
      nameMatching: config.nameMatching,
    },
  );

  const landing = new AnswerLanding({
    recordAnswer,
    countCalls: (...count) => store.countCalls(...count),
    landed: (batchId) => arrivals.landed(batchId),
    metrics,
    logger,
  });
  const workers = new InquiryWorkerPool({
    queue,
    connection: redis,
    keys,
    rate: config.inquiry.rate,
    concurrency: config.inquiry.concurrency,
    backoffMs: config.inquiry.backoffMs,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    accounts: new JobAccounts((batchId) => store.jobSeal(batchId)),
    answers: landing,
    processor: inquiryProcessor(pacer, client, outages, keys, logger),
    isTransient: (error) => error instanceof TransientInquiryError,
    metrics,
    logger,
  });

  return {
    config,
    provider,
    logger,
    redis,
    keys,
    store,
    decisions,
    importReview,
    knownAnswers: (environment, accountKeys, endpoint) => knownAnswers(store, history, environment, accountKeys, endpoint),
    queue,
    lifecycle,
    login: loginNow,
    startWorkers: async () => {
      await workers.start();
      notices.startWorker();
    },
    stopWorkers: (withinMs) => workers.stop(withinMs),
    concurrencyReached: () => workers.concurrencyReached(),
    metrics,
    notices,
    clock,
    close: async () => {
      await workers.close();
      await landing.close();
      await notices.close();
      await queue.close();
    },
  };
}

/** The inquiry job's processor (jobs/inquiry.ts) for a worker of the pool: the worker's part, with the provider and the pacer. */
function inquiryProcessor(
  pacer: SendPacer,
  client: ProviderClient,
  outages: OutageBoard,
  keys: RedisKeys,
  logger: Logger,
): (part: WorkerPart) => Processor<InquiryJobData> {
  return (part) =>
    createInquiryProcessor({
      ...part,
      preCall: (batchId, accountKey, round) =>
        pacer.preCall({ outcomesKey: keys.outcomes(batchId), batchKey: keys.batch(batchId), round }, accountKey),
      sendLeft: (ticket) => pacer.sent(ticket),
      inquire: (account, hooks, batchId) => client.inquire(account, hooks, batchId),
      holdSending: holdAfterRateLimit(pacer, logger),
      reportOutage: (since, reason, holdUntil) => outages.report(since, reason, holdUntil),
      clearOutage: () => outages.clear(),
      providerAnswered: () => outages.answered(),
      logger,
    });
}
