import type { Clock } from '../clock/clock.js';
import { LoginUnavailableError, SystemicError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import type { InquiryOutcome } from '../provider/outcome.js';
import type { LoginFailureRecord } from '../provider/token.js';
import type { InquiryGroup } from '../queue/inquiry-queue.js';
import type { Outage } from '../queue/outage-board.js';
import type { BatchProgress } from './batch-store.js';

export interface ProgressReport {
  batchId: string;
  progress: BatchProgress;
  /** Accounts answered per second since the wait began. */
  answeredPerSecond: number;
  /** Set when nothing was answered for a while: what the batch is waiting for, and since when. */
  waitingFor: string | undefined;
}

/** A worker met a rejected login or a refused fresh token: waiting longer cannot help. */
export class RejectedByProviderError extends SystemicError {}

/** The provider failed past the outage budget while the file was still being queued: no row was marked. */
export class ProviderUnavailableError extends SystemicError {}

/**
 * Thrown out of a wait when the caller stops (a signal, a shutdown, a lost lease) before the batch is
 * answered: the work is handed back. The batch stays in Redis and its jobs stay queued for any worker;
 * the next start continues it.
 */
export class HandedBackError extends Error {
  override name = 'HandedBackError';
}

export type SettleResult = { kind: 'complete' } | { kind: 'gave_up'; reason: string };

export interface SettleOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((report: ProgressReport) => void) | undefined;
  /**
   * The file is still being queued (production waits for room in the queue): the same rules, but a
   * provider failing past the outage budget ends the wait with ProviderUnavailableError, no row marked
   * (the rows not yet stored could not be), and no lost job is looked for (the queueing adds them).
   */
  whileQueueing?: boolean | undefined;
}

/** Inquiry jobs of unanswered accounts that will never answer: failed (kept by the queue), or gone. */
export interface LostJobs {
  failed: Array<{ accountKey: string; reason: string }>;
  missing: string[];
}

/** What the settle loop reads and does, as narrow functions (the app wires them to Redis and the queue). */
export interface SettleDependencies {
  progress(batchId: string): Promise<BatchProgress>;
  /** The accounts without an answer, by the job that asks them (BatchStore.unansweredInquiries). */
  unansweredInquiries(batchId: string): AsyncIterable<InquiryGroup[]>;
  /** Records an answer with its history (src/history/answers.ts): the FAILED row of a job the audit found failed. */
  recordAnswer(batchId: string, accountKey: string, outcome: InquiryOutcome): Promise<unknown>;
  /** The provider failing, as posted by the workers' circuit breakers. */
  providerOutage(): Promise<Outage | undefined>;
  /**
   * The queue's answer counter (OutageBoard.answers): it moves while workers have answers from the
   * provider, for any batch. Undefined before any.
   */
  providerAnswers(): Promise<number | undefined>;
  lastLoginFailure(): Promise<LoginFailureRecord | undefined>;
  queueCounts(): Promise<{ active: number; waiting: number; delayed: number }>;
  /** Of these unanswered accounts (by the job that asks them), those whose job failed or is gone (findLostInquiryJobs). */
  findLostJobs(batchId: string, inquiries: InquiryGroup[]): Promise<LostJobs>;
  requeue(batchId: string, accountKeys: string[]): Promise<void>;
  /**
   * The FAILED outcome of a wait that gave up, for accounts without one, while the batch is in `round`
   * (BatchStore.markGivenUp): false, nothing written, when another run moved it on to ask them again.
   */
  markGivenUp(batchId: string, round: number, accountKeys: string[], outcome: InquiryOutcome): Promise<boolean>;
  /** Removes the batch's queued jobs of `round` that ask these accounts (dropInquiryJobs): the wait gave up on them. Returns how many. */
  dropJobs(batchId: string, round: number, inquiries: InquiryGroup[]): Promise<number>;
  /** Resolves once `count` more answers of the batch were stored by this process, or when `signal` aborts (AnswerArrivals). */
  answersLanded?(batchId: string, count: number, signal: AbortSignal): Promise<void>;
  /** The wait on a batch begins (a metric: batches this process waits on); the function it returns is called when it ends. */
  waiting?(): () => void;
  clock: Clock;
  logger: Logger;
}

export interface SettleSettings {
  /** How long a batch may go without any answer while the provider fails before its rest is FAILED; also how long login trouble is waited out. */
  outageBudgetMs: number;
  pollMs: number;
  /** Nothing answered for this long: say what the batch is waiting for. */
  stallNoticeMs: number;
  /** Nothing answered for this long and nothing explains it: look for inquiry jobs that failed or vanished. */
  auditAfterMs: number;
}

export const DEFAULT_SETTLE: Omit<SettleSettings, 'outageBudgetMs'> = { pollMs: 250, stallNoticeMs: 10_000, auditAfterMs: 30_000 };

/** At most this many unanswered accounts are looked up per audit: lost jobs surface as the rest get answered. */
const AUDIT_ACCOUNTS = 2_000;

type Trouble = { kind: 'provider' | 'login' | 'silence'; waitingFor: string };

/** How late the queue's answer counter may show this batch's own last answer: its second, and a poll. */
const OWN_ANSWERS_SEEN_WITHIN_MS = 2_000;

/**
 * Waits until every account of a batch has an answer, saying what it waits for when nothing moves, by
 * these rules:
 * - a rejected login (or fresh tokens refused for one of this batch's accounts) stops the wait at once:
 *   RejectedByProviderError;
 * - login trouble that may pass is waited out for the outage budget, then LoginUnavailableError; no row is
 *   touched (a login failure is nobody's row), and the next start continues;
 * - a provider that keeps failing past the outage budget ends the wait: the unanswered accounts become
 *   FAILED with the reason, so the report is complete and says why;
 * - silence that nothing explains leads to an audit: an inquiry job that failed outside the rules becomes a
 *   FAILED row naming the failure (never retried in a loop), a job that vanished is queued again;
 * - `signal` aborting ends the wait with HandedBackError.
 */
export async function settleBatch(
  deps: SettleDependencies,
  settings: SettleSettings,
  batchId: string,
  options: SettleOptions = {},
): Promise<SettleResult> {
  const ended = deps.waiting?.();
  try {
    return await settle(deps, settings, batchId, options);
  } finally {
    ended?.();
  }
}

async function settle(deps: SettleDependencies, settings: SettleSettings, batchId: string, options: SettleOptions): Promise<SettleResult> {
  const { clock } = deps;
  // Wall times are for people and for comparing with what other processes post; every duration (the
  // idle time, the outage budget, the audit interval) is measured on the monotonic clock, so a step of the
  // wall clock is neither an outage nor a reason to give up.
  const startedAt = clock.now();
  const started = clock.monotonic();
  const initial = await deps.progress(batchId);
  let lastAnswered = initial.answered;
  // What the rate is counted from: the answers when the wait began, or when FAILED ones were forgotten.
  let answeredFrom = { count: initial.answered, elapsed: started };
  let lastAnsweredAt = startedAt;
  let lastAnsweredElapsed = started;
  let lastAudit = started;
  // When the provider last answered anyone on the queue, as this wait saw the queue's counter move (on its
  // own clocks: no other process's time is compared with this one's).
  const heard = { answers: await deps.providerAnswers(), at: startedAt, elapsed: started };
  for (;;) {
    if (options.signal?.aborted) throw new HandedBackError(`batch ${batchId} was not answered when its wait was stopped`);
    const progress = await deps.progress(batchId);
    const now = clock.monotonic();
    // More answers, or fewer: FAILED ones were forgotten to be asked again (a rerun, or `resume` while this
    // wait watches the queueing), and the batch starts answering anew. Either way the wait's clock starts
    // again; after fewer, its rate is counted from here.
    if (progress.answered !== lastAnswered) {
      if (progress.answered < lastAnswered) answeredFrom = { count: progress.answered, elapsed: now };
      lastAnswered = progress.answered;
      lastAnsweredAt = clock.now();
      lastAnsweredElapsed = now;
    }
    const answeredPerSecond = perSecond(progress.answered - answeredFrom.count, now - answeredFrom.elapsed);
    // While queueing, an answered batch is one whose FAILED answers are about to be forgotten (a rerun):
    // the watch goes on until the queueing is done.
    if (progress.complete && options.whileQueueing !== true) {
      options.onProgress?.({ batchId, progress, answeredPerSecond, waitingFor: undefined });
      return { kind: 'complete' };
    }
    const loginFailure = concerning(await deps.lastLoginFailure(), batchId);
    if (loginFailure?.rejected && loginFailure.at >= startedAt - 60_000) throw new RejectedByProviderError(loginFailure.message);

    const idleMs = now - lastAnsweredElapsed;
    // Read at every look, so that the wait knows within a poll (and the counter's second) when it moved.
    const answers = await deps.providerAnswers();
    if (answers !== heard.answers) Object.assign(heard, { answers, at: clock.now(), elapsed: now });
    // The budget runs from the provider's last answer to anyone on the queue: a batch waiting behind another
    // batch's jobs has no answer of its own for as long as those take, and a failure then (a single 429)
    // is no outage while the provider answers those. The counter also moves with this batch's own answers,
    // up to a second and a poll after them: only a move later than that is another batch's.
    const answeringOthers =
      heard.elapsed - lastAnsweredElapsed > OWN_ANSWERS_SEEN_WITHIN_MS && now - heard.elapsed < settings.outageBudgetMs;
    const trouble =
      idleMs >= Math.min(settings.stallNoticeMs, settings.outageBudgetMs)
        ? await describeTrouble(deps, lastAnsweredAt, clock.now(), loginFailure, answeringOthers)
        : undefined;
    options.onProgress?.({ batchId, progress, answeredPerSecond, waitingFor: trouble?.waitingFor });
    if (trouble?.kind === 'provider' && idleMs >= settings.outageBudgetMs && now - heard.elapsed >= settings.outageBudgetMs) {
      const since = Math.max(lastAnsweredAt, heard.at);
      const reason = `no answer from the provider since ${new Date(since).toISOString()}: ${trouble.waitingFor}`;
      if (options.whileQueueing === true)
        throw new ProviderUnavailableError(
          `${reason}; the file was still being queued and no row was marked: run the same file again to continue`,
        );
      await markUnansweredFailed(deps, batchId, initial.round, `${reason}; run the same file again to continue`);
      return { kind: 'gave_up', reason };
    }
    if (trouble?.kind === 'login' && idleMs >= settings.outageBudgetMs) {
      throw new LoginUnavailableError(
        `no login possible since ${new Date(lastAnsweredAt).toISOString()} (${loginFailure?.message ?? 'unknown reason'}); no row was marked: run the same file again to continue`,
      );
    }
    if (
      trouble?.kind === 'silence' &&
      progress.produced &&
      options.whileQueueing !== true &&
      idleMs >= settings.auditAfterMs &&
      now - lastAudit >= settings.auditAfterMs
    ) {
      lastAudit = now;
      await auditLostJobs(deps, batchId);
    }
    await nextLook(deps, settings.pollMs, batchId, progress, options.signal);
  }
}

/**
 * Waits for the next look at the batch: the poll interval, or less when the answers it still needs land in
 * this process (then the report starts as the last answer lands), or when `signal` aborts.
 */
async function nextLook(
  deps: SettleDependencies,
  pollMs: number,
  batchId: string,
  progress: BatchProgress,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (deps.answersLanded === undefined || !progress.produced) return deps.clock.sleep(pollMs, signal);
  const woken = new AbortController();
  const wake = () => woken.abort();
  signal?.addEventListener('abort', wake, { once: true });
  try {
    void deps.answersLanded(batchId, progress.accountCount - progress.answered, woken.signal).then(wake);
    await deps.clock.sleep(pollMs, woken.signal);
  } finally {
    wake();
    signal?.removeEventListener('abort', wake);
  }
}

/**
 * Why nothing is answered. Only what happened since the last answer counts: an outage posted by a process
 * that died, or one the provider has recovered from, is history; unless it is a 429's hold still in force
 * (a Retry-After of minutes, met by an earlier run), during which nothing is asked at all. When the provider
 * failed and then the login failed too (a token ran out during the outage), the login is what holds the
 * batch now: login trouble never turns rows FAILED. `answeringOthers`: the provider answers other batches'
 * calls meanwhile (the line says so: this batch waits behind them).
 */
async function describeTrouble(
  deps: SettleDependencies,
  lastAnsweredAt: number,
  now: number,
  loginFailure: LoginFailureRecord | undefined,
  answeringOthers: boolean,
): Promise<Trouble> {
  const outage = await deps.providerOutage();
  const login = loginFailure !== undefined && loginFailure.at >= lastAnsweredAt ? loginFailure : undefined;
  const outageNow = outage !== undefined && (outage.lastFailureAt >= lastAnsweredAt || (outage.holdUntil ?? 0) > now);
  const others = answeringOthers ? "; it answers other batches' calls, ahead of this batch's, meanwhile" : '';
  if (outage !== undefined && outageNow && (login === undefined || login.at < outage.lastFailureAt)) {
    return {
      kind: 'provider',
      waitingFor: `the provider: failing since ${new Date(outage.since).toISOString()} (${outage.reason}); pausing and probing${others}`,
    };
  }
  if (login !== undefined) return { kind: 'login', waitingFor: `a login: ${login.message}` };
  const counts = await deps.queueCounts();
  return {
    kind: 'silence',
    waitingFor: `answers: none since ${new Date(lastAnsweredAt).toISOString()} (${counts.active} in flight, ${counts.waiting} waiting, ${counts.delayed} to retry)${others}`,
  };
}

/**
 * The FAILED rows of a wait that gave up, a slice at a time, and their jobs still queued dropped: a later
 * run need not wait them out. Only in the round the wait belongs to: a rerun started meanwhile (`resume`,
 * the same file) moved the batch on and asks those accounts again, and FAILED written into its round, or
 * its jobs dropped, would end them unasked.
 */
async function markUnansweredFailed(deps: SettleDependencies, batchId: string, round: number, reason: string): Promise<void> {
  const outcome: InquiryOutcome = { verdict: 'FAILED', reason };
  let dropped = 0;
  for await (const missing of deps.unansweredInquiries(batchId)) {
    if (!(await deps.markGivenUp(batchId, round, accountsOf(missing), outcome))) {
      deps.logger.warn({ batchId }, `batch ${batchId} was taken up by another run while this one gave up: its accounts are asked there`);
      break;
    }
    dropped += await deps.dropJobs(batchId, round, missing);
  }
  deps.logger.debug({ batchId, dropped }, 'the queued jobs of the accounts given up on were removed');
}

async function auditLostJobs(deps: SettleDependencies, batchId: string): Promise<void> {
  const sample: InquiryGroup[] = [];
  let accounts = 0;
  for await (const missing of deps.unansweredInquiries(batchId)) {
    for (const inquiry of missing) {
      if (accounts >= AUDIT_ACCOUNTS) break;
      sample.push(inquiry);
      accounts += inquiry.accountKeys.length;
    }
    if (accounts >= AUDIT_ACCOUNTS) break;
  }
  const lost = await deps.findLostJobs(batchId, sample);
  for (const { accountKey, reason } of lost.failed) {
    await deps.recordAnswer(batchId, accountKey, { verdict: 'FAILED', reason: `the inquiry job failed: ${reason}` });
  }
  if (lost.failed.length > 0)
    deps.logger.error(
      { batchId, jobs: lost.failed.length },
      'inquiry jobs failed outside the retry rules: their rows are FAILED (see the failed jobs of the queue)',
    );
  if (lost.missing.length > 0) {
    deps.logger.warn({ batchId, jobs: lost.missing.length }, 'inquiry jobs of unanswered accounts were gone from the queue: queued again');
    await deps.requeue(batchId, lost.missing);
  }
}

const accountsOf = (inquiries: InquiryGroup[]): string[] => inquiries.flatMap((inquiry) => inquiry.accountKeys);

/** `count` over `ms`, per second (0 over no time). */
export const perSecond = (count: number, ms: number): number => (ms > 0 ? (count * 1000) / ms : 0);

/**
 * The posted login failure, unless it is a fresh token refused for an account of another batch: that is
 * the other batch's trouble (maybe that account's alone), and this batch's own calls show whether it is
 * everyone's. A job one batch left behind never stops another.
 */
const concerning = (failure: LoginFailureRecord | undefined, batchId: string): LoginFailureRecord | undefined =>
  failure?.batchId === undefined || failure.batchId === batchId ? failure : undefined;
