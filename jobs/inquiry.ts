import { Worker, type Job, type Queue } from 'bullmq';
import { SystemicError } from '../src/errors.js';
import { maskAccountKey, type Logger } from '../src/logging/logger.js';
import type { CircuitBreaker } from '../src/provider/circuit-breaker.js';
import type { InquiryDecision, ProviderClient } from '../src/provider/client.js';
import type { BatchStore } from '../src/queue/batch-store.js';
import { accountOf, type InquiryJobData } from '../src/queue/inquiry-queue.js';
import type { OutageBoard } from '../src/queue/outage-board.js';
import type { SendPacer } from '../src/queue/pacer.js';

export interface InquiryJobDependencies {
  store: BatchStore;
  client: ProviderClient;
  /** The job's own queue: a rate limit set on it holds every worker of every process. */
  queue: Queue<InquiryJobData>;
  breaker: CircuitBreaker;
  /** Spaces every call evenly at the configured rate, across processes. */
  pacer: SendPacer;
  outages: OutageBoard;
  logger: Logger;
}

/** A transient failure (network, timeout, 5xx): BullMQ retries the job with backoff. */
export class TransientInquiryError extends Error {
  override name = 'TransientInquiryError';
}

const LOGIN_HOLD_MS = { first: 1_000, max: 60_000 };

/**
 * Asks the provider about one account of one batch and stores the outcome. The outcome is written
 * once (HSETNX) and checked before calling, so a job that runs twice neither asks twice nor answers twice.
 */
export function createInquiryProcessor(deps: InquiryJobDependencies) {
  const { store, client, queue, breaker, pacer, outages, logger } = deps;
  let loginTroubleSince: number | undefined;
  let lastLoginLogAt = 0;
  let outageReported = false;

  const holdEveryWorker = async (ms: number): Promise<never> => {
    await queue.rateLimit(Math.max(1, Math.round(ms)));
    throw Worker.RateLimitError();
  };

  return async function processInquiry(job: Job<InquiryJobData>): Promise<void> {
    const { batchId, accountKey } = job.data;
    if (await store.hasOutcome(batchId, accountKey)) return;

    const gate = breaker.allowRequest();
    if (!gate.allowed) return holdEveryWorker(gate.waitMs);

    let classification: InquiryDecision | undefined;
    try {
      classification = await client.inquire(accountOf(job.data), async () => {
        await pacer.waitForSlot();
        await store.countCall(batchId, 'calls');
      });
    } catch (error) {
      // Login and token problems are nobody's row: hold the jobs and retry with growing backoff.
      if (!(error instanceof SystemicError)) throw error;
      // The hold grows with the length of the trouble, not with the number of jobs that met it.
      const now = Date.now();
      loginTroubleSince ??= now;
      const holdMs = Math.min(Math.max(now - loginTroubleSince, LOGIN_HOLD_MS.first), LOGIN_HOLD_MS.max);
      if (now - lastLoginLogAt > 30_000) {
        logger.error({ holdMs }, `${error.message}; holding inquiries and retrying`);
        lastLoginLogAt = now;
      }
      return holdEveryWorker(holdMs);
    } finally {
      // Anything but a transient failure shows the provider is there; a probe always gets its verdict.
      breaker.record(classification !== undefined && classification.kind !== 'transient');
    }
    loginTroubleSince = undefined;

    switch (classification.kind) {
      case 'answer': {
        if (outageReported && breaker.outageSince === undefined) {
          outageReported = false;
          await outages.clear();
        }
        await store.saveOutcome(batchId, accountKey, classification.outcome);
        return;
      }
      case 'rate_limited': {
        await store.countCall(batchId, 'rateLimited');
        const retryAfterMs = classification.retryAfterMs ?? 1_000;
        logger.warn({ retryAfterMs }, 'provider rate limit reached (HTTP 429): holding every worker');
        await pacer.holdFor(retryAfterMs);
        return holdEveryWorker(retryAfterMs);
      }
      case 'transient': {
        const since = breaker.outageSince;
        if (since !== undefined) {
          outageReported = true;
          await outages.report(since, classification.reason);
        }
        const attempts = job.opts.attempts ?? 1;
        logger.warn({ account: maskAccountKey(accountKey), attempt: job.attemptsMade + 1, attempts }, `inquiry failed: ${classification.reason}`);
        if (job.attemptsMade + 1 >= attempts) {
          await store.saveOutcome(batchId, accountKey, {
            verdict: 'FAILED',
            reason: `no answer after ${attempts} attempt(s): ${classification.reason}`,
          });
          return;
        }
        throw new TransientInquiryError(classification.reason);
      }
    }
  };
}
