import { LoginRejectedError } from '../errors.js';
import type { BatchProgress } from '../queue/batch-store.js';
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

export type WaitResult = { kind: 'complete' } | { kind: 'gave_up'; reason: string };

const STALL_NOTICE_MS = 10_000;

/**
 * Waits until every account of the batch has an outcome, saying what it waits for when nothing moves.
 * A rejected login stops the wait at once; a provider that stays down past the outage budget ends it
 * with the reason, so the caller can mark the rest FAILED and exit 1 instead of hanging.
 */
export async function waitForBatch(services: Services, batchId: string, options: WaitOptions): Promise<WaitResult> {
  const { store, session, outages, queue } = services;
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
    if (progress.complete) {
      options.onProgress({ batchId, progress, answeredPerSecond: rate(progress.answered - initial.answered, now - startedAt), waitingFor: undefined });
      return { kind: 'complete' };
    }
    const loginFailure = await session.lastLoginFailure();
    if (loginFailure?.rejected && loginFailure.at >= startedAt - 60_000) throw new LoginRejectedError(loginFailure.message.replace(/^login failed: /, ''), undefined);

    const idleMs = now - lastProgressAt;
    let waitingFor: string | undefined;
    if (idleMs >= STALL_NOTICE_MS) {
      const outage = await outages.read();
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed');
      const since = new Date(lastProgressAt).toISOString();
      if (outage !== undefined) {
        waitingFor = `the provider: failing since ${new Date(outage.since).toISOString()} (${outage.reason}); pausing and probing`;
      } else if (loginFailure !== undefined && loginFailure.at >= lastProgressAt) {
        waitingFor = `a login: ${loginFailure.message}`;
      } else {
        waitingFor = `answers: none since ${since} (${counts.active ?? 0} in flight, ${counts.waiting ?? 0} waiting, ${counts.delayed ?? 0} to retry)`;
      }
      const providerTrouble = outage !== undefined || (loginFailure !== undefined && loginFailure.at >= lastProgressAt);
      if (providerTrouble && idleMs >= options.outageBudgetMs) {
        return { kind: 'gave_up', reason: `no answer from the provider since ${since}: ${waitingFor}` };
      }
      if (!providerTrouble && now - lastRequeueAt >= options.requeueAfterIdleMs && idleMs >= options.requeueAfterIdleMs) {
        // A job lost outside the queue's guarantees (deleted, failed by a bug) must not leave its row unanswered.
        lastRequeueAt = now;
        await services.producer().requeueUnanswered(batchId);
      }
    }
    options.onProgress({ batchId, progress, answeredPerSecond: rate(progress.answered - initial.answered, now - startedAt), waitingFor });
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}

const rate = (count: number, ms: number): number => (ms > 0 ? (count * 1000) / ms : 0);

/** Marks every unanswered account FAILED with the reason, so the report is complete and says why. */
export async function failUnanswered(services: Services, batchId: string, reason: string): Promise<number> {
  let failed = 0;
  for await (const missing of services.store.unansweredAccounts(batchId)) {
    for (const accountKey of missing) {
      if (await services.store.saveOutcome(batchId, accountKey, { verdict: 'FAILED', reason: `${reason}; run the same file again to continue` })) failed += 1;
    }
  }
  return failed;
}
