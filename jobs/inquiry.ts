import type { Job } from 'bullmq';
import { describeError, SystemicError, TokenRejectedError } from '../src/errors.js';
import { maskAccountKey, type Logger } from '../src/logging/logger.js';
import type { CircuitBreaker } from '../src/provider/circuit-breaker.js';
import type { ClientClassification, SendHooks } from '../src/provider/client.js';
import type { InquiryOutcome } from '../src/provider/outcome.js';
import type { CallField } from '../src/queue/call-tally.js';
import { parseAccountKey, type AccountQuery } from '../src/csv/validation.js';
import { inquiryJobRound, type InquiryJobData } from '../src/queue/inquiry-queue.js';
import { CallNoLongerNeeded, type PreCall, type SendTicket } from '../src/queue/pacer.js';

/** What an inquiry job is given: narrow functions, not the world. */
export interface InquiryJobDependencies {
  /** The account keys a job carries sealed (see job-seal.ts), one or a group's; undefined when its batch, and with it the key, is gone. */
  openAccounts(data: InquiryJobData): Promise<string[] | undefined>;
  /**
   * Whether the job is to call (not when the account already has an answer in the batch: a job that runs
   * twice asks once; nor when the batch asks it again in a later round than `round`, the job's) and, when
   * it is, the call's evenly spaced send slot among every worker of every process (one round trip).
   */
  preCall(batchId: string, accountKey: string, round: number): Promise<PreCall>;
  /** Lands the job's answer (AnswerLanding.land): recorded with the batch's call counts, the first for the account only; a later one is ignored. */
  landAnswer(batchId: string, accountKey: string, outcome: InquiryOutcome): Promise<unknown>;
  countCall(batchId: string, field: CallField): Promise<void>;
  /** One inquiry for the batch with the shared token; the hooks pace each HTTP call and count it as it goes out. */
  inquire(account: AccountQuery, hooks: SendHooks, batchId: string): Promise<ClientClassification>;
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
  /**
   * Holds every worker for `ms` like holdEveryWorker, but puts this job behind the others (delayed by `ms`)
   * instead of first in line: its trouble may be its own (never returns; `token` is the job's lock token).
   */
  holdEveryWorkerBehind(job: Job<InquiryJobData>, token: string | undefined, ms: number): Promise<never>;
  /** Hands the job back to the queue without spending an attempt, for any worker to take (never returns). */
  handBack(job: Job<InquiryJobData>, token: string | undefined): Promise<never>;
  /**
   * Waits for one of the process's permits to have a call in flight (CallPermits: `--concurrency`, counted
   * in calls); the function returned gives it back. Rejects when `signal` aborts first.
   */
  callPermit(signal: AbortSignal): Promise<() => void>;
  breaker: CircuitBreaker;
  /** Posts the provider failing since `since` (wall time); `holdUntil`: a 429's hold, during which nothing is asked. */
  reportOutage(since: number, reason: string, holdUntil?: number): Promise<void>;
  clearOutage(): Promise<void>;
  /**
   * The provider answered (OutageBoard.answered): a batch waiting behind other batches' jobs sees that the
   * provider is there. Undefined when nothing was written this time.
   */
  providerAnswered(): Promise<void> | undefined;
  logger: Logger;
}

/** A transient failure (network, timeout, 5xx): BullMQ retries the job with backoff. */
export class TransientInquiryError extends Error {
  override name = 'TransientInquiryError';
}

/** The worker is stopping, or the job's run ended, while this call waited for its send slot: nothing was sent. */
class StoppedBeforeSendingError extends Error {
  override name = 'StoppedBeforeSendingError';
}

/** `slot`, unless `stop` aborts first (a 429's hold can keep a job waiting for minutes). */
function unlessStopped<T>(slot: Promise<T>, stop: AbortSignal): Promise<T> {
  if (stop.aborted) return Promise.reject(new StoppedBeforeSendingError());
  return new Promise<T>((resolve, reject) => {
    const stopped = () => reject(new StoppedBeforeSendingError());
    stop.addEventListener('abort', stopped, { once: true });
    slot.then(resolve, reject).finally(() => stop.removeEventListener('abort', stopped));
  });
}

const LOGIN_HOLD_MS = { first: 1_000, max: 60_000 };
/** A 429 without Retry-After holds this long. */
const DEFAULT_RATE_LIMIT_HOLD_MS = 1_000;

/** Redis itself failed (connection, OOM): not a bug in the processor; BullMQ retries the job. */
const isRedisFailure = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'ReplyError' ||
    error.name === 'MaxRetriesPerRequestError' ||
    /Connection is closed|ECONNREFUSED|ECONNRESET/.test(error.message));

/** The wall time (for people, and for `run` in another process) of a moment on the monotonic clock. */
const wallTimeOf = (monotonicMs: number): number => Date.now() - (performance.now() - monotonicMs);

/** `Retry-After 2 s`, or `Retry-After 2592000 s, capped at 600 s` (classify.ts, MAX_RETRY_AFTER_MS). */
function describeRetryAfter(classification: Extract<ClientClassification, { kind: 'rate_limited' }>): string {
  if (classification.retryAfterMs === undefined) return `no Retry-After (held ${DEFAULT_RATE_LIMIT_HOLD_MS / 1000} s)`;
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
  return classification.askedMs === undefined
    ? `Retry-After ${seconds(classification.retryAfterMs)}`
    : `Retry-After ${seconds(classification.askedMs)}, capped at ${seconds(classification.retryAfterMs)}`;
}

/**
 * Asks the provider about the account of a job of one batch (or, side by side, the accounts of its group:
 * see accountsPerJob), each call with a permit of the process's (CallPermits: the calls in flight, whatever
 * the jobs), and stores each outcome. An outcome is written once and checked before calling, so a job that
 * runs twice neither asks twice nor answers twice.
 *
 * - Each account of a group gets its own verdict and its own attempts: an attempt asks every account of the
 *   job still unanswered once; a transient failure of one lets the others be asked, then retries the job,
 *   whose next attempt skips the accounts answered; only the last attempt writes the ones still failing
 *   FAILED. A bug in one account ends that one FAILED and the others are asked. A hold or a stop hands the
 *   whole job back without spending an attempt: the calls on their way land their answers, and the accounts
 *   still waiting for a permit or a send slot are not asked in this run.
 * - Login and token trouble is nobody's row: every worker is held, with a backoff that grows with the
 *   length of the trouble; the circuit breaker does not see it (the provider is not down). A fresh token
 *   refused for one account puts that job behind the others: one batch's bad row never blocks another.
 * - A 429 holds every worker for its Retry-After (capped) and is posted as an outage until an answer
 *   comes: a provider that answers nothing but 429 is down for `run`'s outage budget like any other.
 * - A transient failure is retried by BullMQ; the last attempt always stores a FAILED outcome.
 * - An unexpected error is a bug: logged with its stack once per process, counted on the batch, and the
 *   row ends FAILED saying so. It is not retried (a bug does not go away, and a retry could pay twice) and
 *   does not trip the breaker.
 * - A stop (`stop` aborts) hands back a job still waiting for a permit or its send slot at once; a call on
 *   its way is waited for (by the worker's close, within SHUTDOWN_TIMEOUT).
 *
 * Durations (the length of login trouble, the breaker's pauses) are on the monotonic clock.
 */
export function createInquiryProcessor(deps: InquiryJobDependencies) {
  const { breaker, logger } = deps;
  let loginTroubleSince: number | undefined;
  let lastLoginLogAt = -Infinity;
  let outageReported = false;
  /** Since when (wall time) every call of this process was answered 429. */
  let rateLimitedSince: number | undefined;
  const bugsLogged = new Set<string>();

  const reportBug = async (job: Job<InquiryJobData>, accountKey: string, error: unknown): Promise<void> => {
    const { batchId } = job.data;
    const message = error instanceof Error ? error.message : String(error);
    if (!bugsLogged.has(message)) {
      bugsLogged.add(message);
      logger.error(
        { err: error, jobId: job.id, account: maskAccountKey(accountKey) },
        `internal error in the inquiry job (a bug): ${message}`,
      );
    }
    await deps.countCall(batchId, 'internalErrors');
    await deps.landAnswer(batchId, accountKey, {
      verdict: 'FAILED',
      reason: `internal error: ${message}; a bug in beneficiary-check, not a provider answer (details in the log)`,
    });
  };

  /** Asks about one account of the job (its permit in hand) and says how its turn ended. */
  const ask = async (job: Job<InquiryJobData>, accountKey: string, turn: AccountTurn): Promise<AccountEnd> => {
    const { lockToken, stop } = turn;
    const { batchId } = job.data;
    const started = performance.now();
    const pre = await deps.preCall(batchId, accountKey, inquiryJobRound(job.id));
    if (pre.skip !== undefined) return DONE;

    // A slot reserved for a call the breaker stops goes unused: a gap in the pace, never an extra send.
    const gate = breaker.allowRequest();
    if (!gate.allowed) return { kind: 'held', handBack: () => deps.holdEveryWorker(gate.waitMs) };

    let classification: ClientClassification;
    // What the call that got the answer was paced with: a 429 slows the shared rate only if it was the rate in force.
    let ticket: SendTicket | undefined;
    let pacedMs = 0;
    try {
      classification = await deps.inquire(
        parseAccountKey(accountKey),
        {
          waitForTurn: async () => {
            const waitFrom = performance.now();
            ticket = await unlessStopped(pre.nextSlot(), stop);
            pacedMs += performance.now() - waitFrom;
          },
          onSend: () => deps.countCall(batchId, 'calls'),
          // Not waited for: the call is on its way. A Redis that failed here fails the outcome's save too.
          onWritten: () =>
            void (ticket && deps.sendLeft(ticket))?.catch((error: unknown) =>
              logger.warn(
                { err: error, account: maskAccountKey(accountKey) },
                `could not move the pacer's record of a late send: ${describeError(error)}`,
              ),
            ),
        },
        batchId,
      );
    } catch (error) {
      // No verdict on the provider: a probe that met login trouble or a bug must not hold every call for good.
      if (gate.probe) breaker.abandonProbe();
      if (error instanceof StoppedBeforeSendingError) return NOT_ASKED;
      // Answered, or asked again in a later round, while this call waited for its slot: nothing was sent.
      if (error instanceof CallNoLongerNeeded) return DONE;
      if (!(error instanceof SystemicError)) throw error;
      // The hold grows with the length of the trouble, not with the number of jobs that met it.
      const now = performance.now();
      loginTroubleSince ??= now;
      const holdMs = Math.min(Math.max(now - loginTroubleSince, LOGIN_HOLD_MS.first), LOGIN_HOLD_MS.max);
      if (now - lastLoginLogAt > 30_000) {
        logger.error({ holdMs }, `${error.message}; holding inquiries and retrying`);
        lastLoginLogAt = now;
      }
      // A refused fresh token was met on this account: the next job (maybe another batch's) shows whether it is the account's.
      if (error instanceof TokenRejectedError) return handingBack(() => deps.holdEveryWorkerBehind(job, lockToken, holdMs));
      return handingBack(() => deps.holdEveryWorker(holdMs));
    }
    loginTroubleSince = undefined;
    // Anything but a transient failure shows the provider is there; a probe always gets its verdict.
    breaker.record(classification.kind !== 'transient');

    switch (classification.kind) {
      case 'answer': {
        rateLimitedSince = undefined;
        // Not waited for: a note for the waits of other batches, which a lost write only makes more cautious.
        deps
          .providerAnswered()
          ?.catch((error: unknown) =>
            logger.warn({ err: error }, `could not note the provider's answer for other waits: ${describeError(error)}`),
          );
        if (outageReported && breaker.outageSince === undefined) {
          outageReported = false;
          await deps.clearOutage();
        }
        // Counted before the save, which sends the counts first: a batch is never complete with its answer uncounted.
        if (classification.unusable !== true) await deps.countCall(batchId, 'usableAnswers');
        await deps.landAnswer(batchId, accountKey, classification.outcome);
        deps.observeWork(performance.now() - started - pacedMs);
        return DONE;
      }
      case 'rate_limited': {
        await deps.countCall(batchId, 'rateLimited');
        const retryAfterMs = classification.retryAfterMs ?? DEFAULT_RATE_LIMIT_HOLD_MS;
        // The hold first: every call paced meanwhile would meet the provider's limit too.
        await deps.holdSending(retryAfterMs, ticket);
        rateLimitedSince ??= Date.now();
        outageReported = true;
        await deps.reportOutage(
          rateLimitedSince,
          `HTTP 429 (rate limit), ${describeRetryAfter(classification)}`,
          Date.now() + retryAfterMs,
        );
        return handingBack(() => deps.holdEveryWorker(retryAfterMs));
      }
      case 'transient': {
        const since = breaker.outageSince;
        if (since !== undefined) {
          outageReported = true;
          await deps.reportOutage(wallTimeOf(since), classification.reason);
        }
        const attempts = job.opts.attempts ?? 1;
        const attempt = job.attemptsMade + 1 + turn.earlierFailures;
        logger.warn({ account: maskAccountKey(accountKey), attempt, attempts }, `inquiry failed: ${classification.reason}`);
        if (attempt >= attempts) {
          await deps.landAnswer(batchId, accountKey, {
            verdict: 'FAILED',
            reason: `no answer after ${attempts} attempt(s): ${classification.reason}`,
          });
          return DONE;
        }
        return { kind: 'failed', error: new TransientInquiryError(classification.reason) };
      }
    }
  };

  /** BullMQ's processor: `lockToken` and `stop` (aborted by Worker.cancelAllJobs when the worker stops) are its own arguments. */
  return async function processInquiry(job: Job<InquiryJobData>, lockToken?: string, stop?: AbortSignal): Promise<void> {
    const accountKeys = await deps.openAccounts(job.data);
    if (accountKeys === undefined) {
      // Its batch expired, was lost or deleted: nothing to ask for, nothing to store; the job completes and goes.
      logger.debug({ jobId: job.id, batchId: job.data.batchId }, 'inquiry job of a batch that is gone: dropped');
      return;
    }
    // Aborted by the stop, or once one account's turn hands the job back or meets Redis failing: the
    // accounts still waiting for a permit or a send slot are then not asked in this run.
    const run = new AbortController();
    const stopped = () => run.abort();
    stop?.addEventListener('abort', stopped, { once: true });
    if (stop?.aborted === true) run.abort();
    const kept = 'sealedAccounts' in job.data ? (job.data.uncountedFailures ?? []) : [];
    // The breaker refused an account of this run: the accounts not at its gate yet are not asked in it.
    let held = false;

    /** One account's turn: a permit, then the ask; never rejects. An end that ends the run aborts it before the permit goes. */
    const turn = async (accountKey: string, index: number): Promise<AccountEnd> => {
      let release: () => void;
      try {
        release = await deps.callPermit(run.signal);
      } catch (error) {
        return run.signal.aborted ? NOT_ASKED : { kind: 'thrown', error };
      }
      try {
        // The permit may have come as the run ended (its giver's end aborted the run first).
        if (run.signal.aborted || held) return NOT_ASKED;
        const end = await askOrReport(accountKey, index);
        if (end.kind === 'handBack' || end.kind === 'thrown') run.abort();
        // Not aborted: a call the breaker let through (its probe) may still be waiting for its send slot.
        if (end.kind === 'held') held = true;
        return end;
      } finally {
        release();
      }
    };
    const askOrReport = async (accountKey: string, index: number): Promise<AccountEnd> => {
      try {
        return await ask(job, accountKey, { lockToken, stop: run.signal, earlierFailures: kept[index] ?? 0 });
      } catch (error) {
        // BullMQ's own control flow (a delay) passes through; Redis failures are retried.
        if ((error instanceof Error && HANDED_BACK.has(error.name)) || isRedisFailure(error)) return { kind: 'thrown', error };
        try {
          await reportBug(job, accountKey, error);
          return DONE;
        } catch (saveError) {
          return { kind: 'thrown', error: saveError };
        }
      }
    };

    let ends: AccountEnd[];
    try {
      // Side by side, each account as its permit comes (in the job's order: see CallPermits).
      ends = await Promise.all(accountKeys.map(turn));
    } finally {
      stop?.removeEventListener('abort', stopped);
    }
    const handBack = ends.find((end) => end.kind === 'handBack' || end.kind === 'held');
    const thrown = ends.find((end) => end.kind === 'thrown');
    if (handBack !== undefined || (thrown === undefined && ends.some((end) => end.kind === 'notAsked'))) {
      // An account that failed in this run keeps its failure: the hand-back spends no attempt (keptFailures).
      const failedNow = new Set(ends.flatMap((end, index) => (end.kind === 'failed' ? [index] : [])));
      if (failedNow.size > 0) await job.updateData({ ...job.data, uncountedFailures: keptFailures(accountKeys.length, kept, failedNow) });
      return handBack !== undefined ? handBack.handBack() : deps.handBack(job, lockToken);
    }
    if (thrown !== undefined) throw thrown.error;
    // The job is retried once every account of this attempt was asked (see above).
    const failed = ends.find((end) => end.kind === 'failed');
    if (failed !== undefined) throw failed.error;
  };
}

/** How one account's turn in its job's run ended. */
type AccountEnd =
  /** Answered (or written FAILED), or no longer to be asked. */
  | { kind: 'done' }
  /** A transient failure: the job is retried, this account with it. */
  | { kind: 'failed'; error: TransientInquiryError }
  /** Not asked: the worker is stopping, or another account of the job ended its run. */
  | { kind: 'notAsked' }
  /** The job goes back to the queue this way (a hold) without spending an attempt: nothing more is asked in this run. */
  | { kind: 'handBack'; handBack: () => Promise<never> }
  /**
   * The circuit breaker refused the call: the job goes back like `handBack`, but the calls of the run past
   * the breaker's gate go on (one may be its probe, whose answer closes it); the others wait for the next run.
   */
  | { kind: 'held'; handBack: () => Promise<never> }
  /** Redis failed (or BullMQ's control flow): the job's run ends with it. */
  | { kind: 'thrown'; error: unknown };

const DONE: AccountEnd = { kind: 'done' };
const NOT_ASKED: AccountEnd = { kind: 'notAsked' };
const handingBack = (handBack: () => Promise<never>): AccountEnd => ({ kind: 'handBack', handBack });

/** One account's turn in its job's run. */
interface AccountTurn {
  lockToken: string | undefined;
  /** Aborted by the worker's stop, or when another account of the job ended the run. */
  stop: AbortSignal;
  /** Transient failures of the account in runs of its job that were handed back (keptFailures): not in the job's attempts. */
  earlierFailures: number;
}

/**
 * A job of several accounts handed back (a hold, a stop) spends no attempt, but an account of it may have
 * failed in that run already: without a count of its own, each such run would give it one more call than
 * INQUIRY_ATTEMPTS allows (an account failing while its group met 429s would be asked for as long as they
 * came). The job keeps, per account, the failures of the runs handed back (`uncountedFailures`), and an
 * account's attempt is the job's plus those.
 */
function keptFailures(accounts: number, kept: readonly number[], failedNow: ReadonlySet<number>): number[] {
  return Array.from({ length: accounts }, (_, index) => (kept[index] ?? 0) + (failedNow.has(index) ? 1 : 0));
}

/** BullMQ's errors that hand a job back to the queue (see holdEveryWorker, holdEveryWorkerBehind). */
const HANDED_BACK = new Set(['RateLimitError', 'DelayedError']);
