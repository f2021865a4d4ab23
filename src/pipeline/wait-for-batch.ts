import type { InquirySettings } from '../config/index.js';
import { SystemicError } from '../errors.js';
import type { BatchProgress } from '../queue/batch-store.js';
import type { LoginFailureRecord } from '../provider/token.js';
import type { Services } from './services.js';

export interface WaitOptions {
  /** Give up when no account was answered for this long while the provider fails or login fails. */
  outageBudgetMs: number;
  /** Re-queue unanswered accounts when nothing moved for this long and nothing explains it. */
  requeueAfterIdleMs: number;
  pollMs: number;
  onProgress: (report: ProgressReport) => void;
}

export interface ProgressReport {
  batchId: string;
  progress: BatchProgress;
  /** Accounts answered per second since the wait began. */
  answeredPerSecond: number;
  /** Set when nothing was answered for a while: what the run is waiting for, and since when. */
  waitingFor: string | undefined;
}

/** A worker met a rejected login or a refused fresh token: waiting longer cannot help. */
export class RejectedByProviderError extends SystemicError {}

export type WaitResult = { kind: 'complete' } | { kind: 'gave_up'; reason: string };

const STALL_NOTICE_MS = 10_000;

/** The wait every command uses: the configured outage budget, a safety re-queue after a minute of silence. */
export function standardWaitOptions(inquiry: InquirySettings, onProgress: WaitOptions['onProgress']): WaitOptions {
  return { outageBudgetMs: inquiry.outageBudgetMs, requeueAfterIdleMs: 60_000, pollMs: 250, onProgress };
}

/**
 * Waits until every account of the batch has an outcome, saying what it waits for when nothing moves.
 * A rejected login stops the wait at once; a provider that stays down past the outage budget ends it
 * with the reason, so the caller can mark the rest FAILED and exit 1 instead of hanging.
 */
export async function waitForBatch(services: Services, batchId: string, options: WaitOptions): Promise<WaitResult> {
  const { store, session } = services;
  const startedAt = Date.now();
  const initial = await store.progress(batchId);
  let lastAnswered = initial.answered;
  let lastProgressAt = startedAt;
  let lastRequeueAt = startedAt;
  for (;;) {
    const progress = await store.progress(batchId);
    const now = Date.now();
    if (progress.answered > lastAnswered) {
      lastAnswered = progress.answered;
      lastProgressAt = now;
    }
    const answeredPerSecond = rate(progress.answered - initial.answered, now - startedAt);
    if (progress.complete) {
      options.onProgress({ batchId, progress, answeredPerSecond, waitingFor: undefined });
      return { kind: 'complete' };
    }
    const loginFailure = await session.lastLoginFailure();
    if (loginFailure?.rejected && loginFailure.at >= startedAt - 60_000) throw new RejectedByProviderError(loginFailure.message);

    const idleMs = now - lastProgressAt;
    const stalled = idleMs >= Math.min(STALL_NOTICE_MS, options.outageBudgetMs);
    const trouble = stalled ? await describeStall(services, lastProgressAt, loginFailure) : undefined;
    options.onProgress({ batchId, progress, answeredPerSecond, waitingFor: trouble?.waitingFor });
    if (trouble?.providerTrouble && idleMs >= options.outageBudgetMs) {
      return { kind: 'gave_up', reason: `no answer from the provider since ${new Date(lastProgressAt).toISOString()}: ${trouble.waitingFor}` };
    }
    if (trouble && !trouble.providerTrouble && idleMs >= options.requeueAfterIdleMs && now - lastRequeueAt >= options.requeueAfterIdleMs) {
      // A job lost outside the queue's guarantees (deleted, failed by a bug) must not leave its row unanswered.
      lastRequeueAt = now;
      await services.producer().requeueUnanswered(batchId);
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}

/** What the batch waits for when nothing is answered, and whether the provider side is to blame. */
async function describeStall(
  services: Services,
  lastProgressAt: number,
  loginFailure: LoginFailureRecord | undefined,
): Promise<{ waitingFor: string; providerTrouble: boolean }> {
  const outage = await services.outages.read();
  if (outage !== undefined) {
    return { waitingFor: `the provider: failing since ${new Date(outage.since).toISOString()} (${outage.reason}); pausing and probing`, providerTrouble: true };
  }
  if (loginFailure !== undefined && loginFailure.at >= lastProgressAt) return { waitingFor: `a login: ${loginFailure.message}`, providerTrouble: true };
  const counts = await services.queue.getJobCounts('waiting', 'active', 'delayed');
  return {
    waitingFor: `answers: none since ${new Date(lastProgressAt).toISOString()} (${counts.active ?? 0} in flight, ${counts.waiting ?? 0} waiting, ${counts.delayed ?? 0} to retry)`,
    providerTrouble: false,
  };
}

const rate = (count: number, ms: number): number => (ms > 0 ? (count * 1000) / ms : 0);

/**
 * Waits for a batch; when the provider stays down past the outage budget, marks every unanswered
 * account FAILED with the reason (so the report is complete and says why) and returns that reason.
 */
export async function settleBatch(services: Services, batchId: string, options: WaitOptions): Promise<string | undefined> {
  const waited = await waitForBatch(services, batchId, options);
  if (waited.kind === 'complete') return undefined;
  const outcome = { verdict: 'FAILED' as const, reason: `${waited.reason}; run the same file again to continue` };
  for await (const missing of services.store.unansweredAccounts(batchId)) {
    for (const accountKey of missing) await services.store.saveOutcome(batchId, accountKey, outcome);
  }
  return waited.reason;
}
