import { DelayedError, Worker, type Job, type Processor, type Queue } from 'bullmq';
import { settledWithin } from '../clock/clock.js';
import { formatDuration } from '../config/duration.js';
import type { ConcurrencyBounds, Rate } from '../config/index.js';
import { describeError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import type { ProductMetrics } from '../metrics/metrics.js';
import { CircuitBreaker } from '../provider/circuit-breaker.js';
import type { RedisClient } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import type { AnswerLanding } from './answer-landing.js';
import { closeWorker } from './close-worker.js';
import { CallPermits } from './call-permits.js';
import { AdaptiveConcurrency, shares, workerCount } from './concurrency.js';
import { queueCeiling, type InquiryJobData } from './inquiry-queue.js';
import { adaptTo, startInquiryWorker } from './inquiry-worker.js';
import type { JobAccounts } from './job-accounts.js';
import { watchWorkerConnections } from './worker-connections.js';
import { RateCeiling } from './rate-ceiling.js';

/**
 * What the pool gives each worker's processor: the part of the inquiry job's dependencies (jobs/inquiry.ts)
 * that belongs to this process's workers. The composition root adds the provider's and the pacer's.
 */
export interface WorkerPart {
  openAccounts(data: InquiryJobData): Promise<string[] | undefined>;
  landAnswer: AnswerLanding['land'];
  countCall: AnswerLanding['countCall'];
  observeWork(ms: number): void;
  holdEveryWorker(ms: number): Promise<never>;
  holdEveryWorkerBehind(job: Job<InquiryJobData>, token: string | undefined, ms: number): Promise<never>;
  handBack(job: Job<InquiryJobData>, token: string | undefined): Promise<never>;
  callPermit(signal: AbortSignal): Promise<() => void>;
  breaker: CircuitBreaker;
}

export interface WorkerPoolSettings {
  queue: Queue<InquiryJobData>;
  connection: RedisClient;
  keys: RedisKeys;
  rate: Rate;
  concurrency: ConcurrencyBounds;
  /** The first retry delay (INQUIRY_BACKOFF). */
  backoffMs: number;
  /** SHUTDOWN_TIMEOUT: how long a stop waits for the inquiries in flight. */
  shutdownTimeoutMs: number;
  accounts: JobAccounts;
  answers: AnswerLanding;
  /** The job's processor (jobs/inquiry.ts), given the worker's part of its dependencies. */
  processor(part: WorkerPart): Processor<InquiryJobData>;
  /** Whether a failed job's error is a transient one (the processor's TransientInquiryError). */
  isTransient(error: Error): boolean;
  metrics: Pick<ProductMetrics, 'watchBreaker' | 'watchConcurrency' | 'inquiryRetry'>;
  logger: Logger;
}

/** Why the jobs in hand stop waiting for their send slot. */
const STOPPING = 'this process is stopping';

/**
 * This process's inquiry workers: started under the queue's one rate (RateCeiling) and BullMQ's global
 * limiter, each with its circuit breaker and a concurrency adapted to the work time; stopped within
 * SHUTDOWN_TIMEOUT.
 */
export class InquiryWorkerPool {
  private readonly workers: Worker<InquiryJobData>[] = [];
  private concurrency: AdaptiveConcurrency | undefined;
  private readonly rateCeiling: RateCeiling;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  /** Aborted when the stop begins: the signal of the jobs that start after it (see startWorkers). */
  private readonly stopped = new AbortController();
  /** Jobs this process's workers hold now (see inHand): what a stop past SHUTDOWN_TIMEOUT leaves behind. */
  private readonly held = { jobs: 0 };

  constructor(private readonly settings: WorkerPoolSettings) {
    this.rateCeiling = new RateCeiling(settings.connection, settings.keys.rateCeiling(settings.queue.name), settings.rate, settings.logger);
  }

  /**
   * Starts this process's inquiry workers: `workerCount` BullMQ workers sharing one adaptive concurrency,
   * one circuit breaker and one processor. A second call waits for the first start.
   */
  start(): Promise<void> {
    return (this.starting ??= this.startWorkers());
  }

  private async startWorkers(): Promise<void> {
    const { queue, accounts, answers, metrics } = this.settings;
    // One rate for every worker of the queue: another rate alive there refuses this start (ConfigError).
    await this.rateCeiling.join();
    const ceiling = queueCeiling(this.settings.rate);
    // BullMQ's global limiter is the outer ceiling, and the switch that holds every worker after a 429.
    await queue.setGlobalRateLimit(ceiling.max, ceiling.duration);
    const breaker = new CircuitBreaker();
    metrics.watchBreaker(() => breaker.outageSince !== undefined);
    // Enough slots for the rate at the work time seen (see AdaptiveConcurrency), shared among the workers as answers come.
    const concurrency = new AdaptiveConcurrency(this.settings.rate, this.settings.concurrency);
    this.concurrency = concurrency;
    // The calls in flight, whatever the jobs: a job of several accounts takes a permit for each call.
    const startingCalls = concurrency.next();
    const permits = new CallPermits(startingCalls);
    const processJob = this.settings.processor({
      openAccounts: (data) => accounts.open(data),
      landAnswer: (batchId, accountKey, outcome) => answers.land(batchId, accountKey, outcome),
      countCall: (batchId, field) => answers.countCall(batchId, field),
      observeWork: adaptTo(concurrency, permits, () => this.workers),
      holdEveryWorker: async (ms) => {
        await queue.rateLimit(Math.max(1, Math.round(ms)));
        throw Worker.RateLimitError();
      },
      holdEveryWorkerBehind: async (job, token, ms) => {
        await queue.rateLimit(Math.max(1, Math.round(ms)));
        return putBack(job, token, ms);
      },
      handBack: (job, token) => putBack(job, token, 0),
      callPermit: (signal) => permits.acquire(signal),
      breaker,
    });
    const processor = inHand(this.held, startsStoppedAfter(this.stopped.signal, processJob));
    for (const share of shares(startingCalls, workerCount(this.settings.concurrency))) {
      this.workers.push(
        startInquiryWorker(queue, processor, {
          connection: this.settings.connection,
          keys: this.settings.keys,
          concurrency: share,
          backoffMs: this.settings.backoffMs,
          logger: this.settings.logger,
          onRetry: () => metrics.inquiryRetry(),
          isTransient: this.settings.isTransient,
        }),
      );
    }
    metrics.watchConcurrency(() => this.workers.reduce((sum, worker) => sum + worker.concurrency, 0));
    watchWorkerConnections(this.workers, {
      connection: this.settings.connection,
      logger: this.settings.logger,
      stopping: () => this.stopping !== undefined,
    });
  }

  /** The highest inquiry concurrency this process reached; undefined before a start. */
  concurrencyReached(): number | undefined {
    return this.concurrency?.peak;
  }

  /**
   * Stops the workers from taking jobs and waits for the inquiries in flight at most `withinMs` (at least
   * HAND_BACK_MS): past that they are left behind, counted in a warning, and their jobs come back to the queue
   * when their locks expire. The first call's wait counts; a later one waits for the same.
   */
  async stop(withinMs = this.settings.shutdownTimeoutMs): Promise<void> {
    // Before any worker started there is nothing to wait for, and nothing to remember: a later stop waits for the workers then.
    if (this.workers.length === 0) return;
    return (this.stopping ??= (async () => {
      const closing = Promise.all(this.workers.map((worker) => closeWorker(worker)));
      // Jobs still waiting for their send slot (a 429's hold can last minutes) go back to the queue now;
      // the calls already sent are waited for.
      this.stopped.abort(STOPPING);
      for (const worker of this.workers) worker.cancelAllJobs(STOPPING);
      // At least HAND_BACK_MS, when a file's stop took most of SHUTDOWN_TIMEOUT (`watch`): the jobs told to stop hand themselves back.
      if (await settledWithin(closing, Math.max(withinMs, HAND_BACK_MS))) return;
      // No job in hand: nothing is left behind, whatever BullMQ's close still waits for (a rate limit's end, up to 30 s).
      if (this.held.jobs === 0) return;
      const left = this.held.jobs;
      this.settings.logger.warn(
        `${left} ${left === 1 ? 'inquiry' : 'inquiries'} still in flight after SHUTDOWN_TIMEOUT (${formatDuration(this.settings.shutdownTimeoutMs)}): not waited for; their jobs come back to the queue when their locks expire, and an account answered meanwhile is not asked again`,
      );
    })());
  }

  /** Stops the workers, then withdraws this process's rate from the queue. */
  async close(): Promise<void> {
    await this.stop();
    if (this.workers.length > 0) {
      await this.rateCeiling
        .leave()
        .catch((error: unknown) =>
          this.settings.logger.warn(
            { err: error },
            `could not withdraw this process's rate (it expires by itself): ${describeError(error)}`,
          ),
        );
    }
  }
}

/**
 * The least time a stop gives the jobs in hand, whatever is left of SHUTDOWN_TIMEOUT (and within the
 * CLOSE_GRACE_MS past it): a job waiting for its send slot hands itself back in milliseconds; only a call on
 * its way takes longer. Without it, a stop whose time went to a file (`watch`) warned of inquiries in flight
 * when none was.
 */
const HAND_BACK_MS = 1_000;

/** `processor`, counting in `held` the jobs it has started and not yet finished. */
function inHand(held: { jobs: number }, processor: Processor<InquiryJobData>): Processor<InquiryJobData> {
  return async (job, token, signal) => {
    held.jobs += 1;
    try {
      return await processor(job, token, signal);
    } finally {
      held.jobs -= 1;
    }
  };
}

/**
 * `processor`, given `stopped` as its signal when a job starts after the stop began. Worker.cancelAllJobs
 * aborts the jobs in hand only, and BullMQ goes on starting jobs for a moment: the next job a finishing one
 * fetches (closeWorker begins BullMQ's close a moment after the cancel), one whose fetch was under way.
 * With a signal no one aborts, such a job waited for its send slot past SHUTDOWN_TIMEOUT and was left
 * active, its lock holding the account for 30 s and more (test/resilience/stop-fetched-jobs.test.ts).
 */
export function startsStoppedAfter(stopped: AbortSignal, processor: Processor<InquiryJobData>): Processor<InquiryJobData> {
  return (job, token, signal) => processor(job, token, stopped.aborted ? stopped : signal);
}

/**
 * The job goes to BullMQ's delayed set for `ms` without spending an attempt, then to the back of the line.
 * Not the rate-limit hand-back: a worker that meets that error while it closes waits out the queue's rate
 * limit (up to BullMQ's 30 s) before it notices it is closing.
 */
async function putBack(job: Job<InquiryJobData>, token: string | undefined, ms: number): Promise<never> {
  // Delayed jobs are due by the wall clock: BullMQ's convention.
  await job.moveToDelayed(Date.now() + ms, token);
  throw new DelayedError();
}
