import type { Queue } from 'bullmq';
import { inquiryJobId, inquiryJobRound, type InquiryJobData } from './inquiry-queue.js';

/**
 * Of the given unanswered accounts, the ones whose inquiry job will never answer: failed outside the retry
 * rules (kept in the queue's failed set, with the reason), or gone from the queue altogether.
 */
export async function findLostInquiryJobs(
  queue: Queue<InquiryJobData>,
  batchId: string,
  round: number,
  accountKeys: string[],
): Promise<{ failed: Array<{ accountKey: string; reason: string }>; missing: string[] }> {
  const failed: Array<{ accountKey: string; reason: string }> = [];
  const missing: string[] = [];
  const chunk = 100;
  for (let start = 0; start < accountKeys.length; start += chunk) {
    const keys = accountKeys.slice(start, start + chunk);
    const states = await Promise.all(keys.map((accountKey) => queue.getJobState(inquiryJobId(batchId, accountKey, round))));
    for (const [index, state] of states.entries()) {
      const accountKey = keys[index]!;
      if (state === 'unknown') missing.push(accountKey);
      if (state === 'failed') {
        const job = await queue.getJob(inquiryJobId(batchId, accountKey, round));
        failed.push({ accountKey, reason: job?.failedReason ?? 'unknown reason' });
      }
    }
  }
  return { failed, missing };
}

/** The states of a job that no worker holds and that is still to run: what a batch that gave up drops. */
const STILL_TO_RUN = new Set(['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children']);

/**
 * Removes the queued jobs of accounts their batch gave up on (written FAILED past the outage budget):
 * each would still take a start from the queue's global limiter, at the configured rate, only to find the
 * account answered and complete without calling, so every run on the endpoint after it (a rerun of the
 * same file too) first waited them out (600 of them held a rerun at 15/s for about 40 s). A job a worker
 * holds is left (it skips on its own), and so is one that failed (kept for people to look at). Returns how
 * many were removed.
 */
export async function dropInquiryJobs(
  queue: Queue<InquiryJobData>,
  batchId: string,
  round: number,
  accountKeys: string[],
): Promise<number> {
  let dropped = 0;
  const chunk = 100;
  for (let start = 0; start < accountKeys.length; start += chunk) {
    const ids = accountKeys.slice(start, start + chunk).map((accountKey) => inquiryJobId(batchId, accountKey, round));
    const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
    const removed = await Promise.all(ids.filter((_, index) => STILL_TO_RUN.has(states[index]!)).map((id) => queue.remove(id)));
    dropped += removed.reduce((sum, one) => sum + one, 0);
  }
  return dropped;
}

/**
 * How many of a batch's jobs of rounds before `round` a worker holds now (active, a job id is
 * `${batchId}.…` with its round, see inquiryJobId): calls that may be on their way. The active list is
 * bounded by the workers' slots.
 */
export async function heldJobsOfEarlierRounds(queue: Queue<InquiryJobData>, batchId: string, round: number): Promise<number> {
  const active = await queue.getRanges(['active'], 0, -1, true);
  return active.filter((id) => id.startsWith(`${batchId}.`) && inquiryJobRound(id) < round).length;
}
