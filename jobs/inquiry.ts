import type { Job } from 'bullmq';
import { describeError, SystemicError } from '../src/errors.js';
import { maskAccountKey, type Logger } from '../src/logging/logger.js';
import type { CircuitBreaker } from '../src/provider/circuit-breaker.js';
import type { InquiryDecision, SendHooks } from '../src/provider/client.js';
import type { InquiryOutcome } from '../src/provider/outcome.js';
import type { AccountQuery } from '../src/csv/validation.js';
import { accountOf, type InquiryJobData } from '../src/queue/inquiry-queue.js';
import type { PreCall, SendTicket } from '../src/queue/pacer.js';

/** What an inquiry job is given: narrow functions, not the world. */
export interface InquiryJobDependencies {
  /**
   * Whether the account already has an answer in the batch (a job that runs twice asks once) and, when it
   * has none, the call's evenly spaced send slot among every worker of every process (one round trip).
   */
  preCall(batchId: string, accountKey: string): Promise<PreCall>;
  /** Stores the first answer; a later one for the same account is ignored. */
  saveOutcome(batchId: string, accountKey: string, outcome: InquiryOutcome): Promise<unknown>;
  countCall(batchId: string, field: 'calls' | 'rateLimited' | 'internalErrors'): Promise<void>;
  /** One inquiry with the shared token; the hooks pace each HTTP call and count it as it goes out. */
  inquire(account: AccountQuery, hooks: SendHooks): Promise<InquiryDecision>;
  /**
   * How long an answered job held its worker slot, the wait for its send slot left out: the pre-call, the
   * token, the HTTP call and the outcome's save. The concurrency is sized from it (src/queue/concurrency.ts).
   */
  observeWork(ms: number): void;
  /** The call paced with `ticket` left now (see SendPacer.sent); undefined when there is nothing to record. */
  sendLeft(ticket: SendTicket): Promise<void> | undefined;
  /** A 429 for the call paced with `ticket`: every process waits `ms` (Retry-After) and the shared rate slows down. */
  holdSending(ms: number, ticket: SendTicket | undefined): Promise<void>;
  /** Holds every worker of the queue for `ms` and hands the job back without spending an attempt (never returns). */
  holdEveryWorker(ms: number): Promise<never>;
  breaker: CircuitBreaker;
  reportOutage(since: number, reason: string): Promise<void>;
  clearOutage(): Promise<void>;
  logger: Logger;
}

/** A transient failure (network, timeout, 5xx): BullMQ retries the job with backoff. */
export class TransientInquiryError extends Error {
  override name = 'TransientInquiryError';
}

const LOGIN_HOLD_MS = { first: 1_000, max: 60_000 };

/** Redis itself failed (connection, OOM): not a bug in the processor; BullMQ retries the job. */
const isRedisFailure = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'ReplyError' || error.name === 'MaxRetriesPerRequestError' || /Connection is closed|ECONNREFUSED|ECONNRESET/.test(error.message));

/**
 * Asks the provider about one account of one batch and stores the outcome. The outcome is written once
 * and checked before calling, so a job that runs twice neither asks twice nor answers twice.
 *
 * - Login and token trouble is nobody's row: every worker is held, with a backoff that grows with the
 *   length of the trouble; the circuit breaker does not see it (the provider is not down).
 * - A transient failure is retried by BullMQ; the last attempt always stores a FAILED outcome.
 * - An unexpected error is a bug: logged with its stack once per process, counted on the batch, and the
 *   row ends FAILED saying so. It is not retried (a bug does not go away, and a retry could pay twice) and
 *   does not trip the breaker.
 */
export function createInquiryProcessor(deps: InquiryJobDependencies) {
  const { breaker, logger } = deps;
  let loginTroubleSince: number | undefined;
  let lastLoginLogAt = 0;
  let outageReported = false;
  const bugsLogged = new Set<string>();

  const reportBug = async (job: Job<InquiryJobData>, error: unknown): Promise<void> => {
    const { batchId, accountKey } = job.data;
    const message = error instanceof Error ? error.message : String(error);
    if (!bugsLogged.has(message)) {
      bugsLogged.add(message);
      logger.error({ err: error, jobId: job.id, account: maskAccountKey(accountKey) }, `internal error in the inquiry job (a bug): ${message}`);
    }
    await deps.countCall(batchId, 'internalErrors');
    await deps.saveOutcome(batchId, accountKey, {
      verdict: 'FAILED',
      reason: `internal error: ${message}; a bug in beneficiary-check, not a provider answer (details in the log)`,
    });
  };

  const ask = async (job: Job<InquiryJobData>): Promise<void> => {
    const { batchId, accountKey } = job.data;
    const started = performance.now();
    const pre = await deps.preCall(batchId, accountKey);
    if (pre.answered) return;

    // A slot reserved for a call the breaker stops goes unused: a gap in the pace, never an extra send.
    const gate = breaker.allowRequest();
    if (!gate.allowed) return deps.holdEveryWorker(gate.waitMs);

    let decision: InquiryDecision;
    // What the call that got the answer was paced with: a 429 slows the shared rate only if it was the rate in force.
    let ticket: SendTicket | undefined;
    let pacedMs = 0;
    try {
      decision = await deps.inquire(accountOf(job.data), {
        waitForTurn: async () => {
          const waitFrom = performance.now();
          ticket = await pre.nextSlot();
          pacedMs += performance.now() - waitFrom;
        },
        onSend: () => deps.countCall(batchId, 'calls'),
        // Not waited for: the call is on its way. A Redis that failed here fails the outcome's save too.
        onWritten: () =>
          void (ticket && deps.sendLeft(ticket))?.catch((error: unknown) =>
            logger.warn({ err: error, account: maskAccountKey(accountKey) }, `could not move the pacer's record of a late send: ${describeError(error)}`),
          ),
      });
    } catch (error) {
      // No verdict on the provider: a probe that met login trouble or a bug must not hold every call for good.
      if (gate.probe) breaker.abandonProbe();
      if (!(error instanceof SystemicError)) throw error;
      // The hold grows with the length of the trouble, not with the number of jobs that met it.
      const now = Date.now();
      loginTroubleSince ??= now;
      const holdMs = Math.min(Math.max(now - loginTroubleSince, LOGIN_HOLD_MS.first), LOGIN_HOLD_MS.max);
      if (now - lastLoginLogAt > 30_000) {
        logger.error({ holdMs }, `${error.message}; holding inquiries and retrying`);
        lastLoginLogAt = now;
      }
      return deps.holdEveryWorker(holdMs);
    }
    loginTroubleSince = undefined;
    // Anything but a transient failure shows the provider is there; a probe always gets its verdict.
    breaker.record(decision.kind !== 'transient');

    switch (decision.kind) {
      case 'answer': {
        if (outageReported && breaker.outageSince === undefined) {
          outageReported = false;
          await deps.clearOutage();
        }
        await deps.saveOutcome(batchId, accountKey, decision.outcome);
        deps.observeWork(performance.now() - started - pacedMs);
        return;
      }
      case 'rate_limited': {
        await deps.countCall(batchId, 'rateLimited');
        const retryAfterMs = decision.retryAfterMs ?? 1_000;
        await deps.holdSending(retryAfterMs, ticket);
        return deps.holdEveryWorker(retryAfterMs);
      }
      case 'transient': {
        const since = breaker.outageSince;
        if (since !== undefined) {
          outageReported = true;
          await deps.reportOutage(since, decision.reason);
        }
        const attempts = job.opts.attempts ?? 1;
        logger.warn({ account: maskAccountKey(accountKey), attempt: job.attemptsMade + 1, attempts }, `inquiry failed: ${decision.reason}`);
        if (job.attemptsMade + 1 >= attempts) {
          await deps.saveOutcome(batchId, accountKey, { verdict: 'FAILED', reason: `no answer after ${attempts} attempt(s): ${decision.reason}` });
          return;
        }
        throw new TransientInquiryError(decision.reason);
      }
    }
  };

  return async function processInquiry(job: Job<InquiryJobData>): Promise<void> {
    try {
      await ask(job);
    } catch (error) {
      // BullMQ's own control flow (the rate-limit hand-back) and retries pass through; Redis failures are retried.
      if (error instanceof TransientInquiryError || (error instanceof Error && error.name === 'RateLimitError') || isRedisFailure(error)) throw error;
      await reportBug(job, error);
    }
  };
}
