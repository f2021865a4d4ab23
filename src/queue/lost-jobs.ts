import type { Queue } from 'bullmq';
import { inquiryGroupJobId, inquiryJobRound, type InquiryGroup, type InquiryJobData } from './inquiry-queue.js';

/**
 * Of the given unanswered accounts (by the job that asks them), the ones whose inquiry job will never
 * answer: failed outside the retry rules (kept in the queue's failed set, with the reason), or gone from
 * the queue altogether.
 */
export async function findLostInquiryJobs(
  queue: Queue<InquiryJobData>,
  batchId: string,
  round: number,
  inquiries: InquiryGroup[],
): Promise<{ failed: Array<{ accountKey: string; reason: string }>; missing: string[] }> {
  const failed: Array<{ accountKey: string; reason: string }> = [];
  const missing: string[] = [];
  const chunk = 100;
  for (let start = 0; start < inquiries.length; start += chunk) {
    const some = inquiries.slice(start, start + chunk);
    const ids = some.map((inquiry) => inquiryGroupJobId(batchId, inquiry, round));
    const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
    for (const [index, state] of states.entries()) {
      const { accountKeys } = some[index]!;
      if (state === 'unknown') missing.push(...accountKeys);
      if (state === 'failed') {
        const reason = (await queue.getJob(ids[index]!))?.failedReason ?? 'unknown reason';
        failed.push(...accountKeys.map((accountKey) => ({ accountKey, reason })));
      }
    }
  }
  return { failed, missing };
}

/** The states of a job that no worker holds and that is still to run: what a batch that gave up drops. */
const STILL_TO_RUN = new Set(['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children']);

/**
 * Removes the queued jobs of accounts their batch gave up on (by the job that asks them) (written FAILED past the outage budget):
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
  inquiries: InquiryGroup[],
): Promise<number> {
  let dropped = 0;
  const chunk = 100;
  for (let start = 0; start < inquiries.length; start += chunk) {
    const ids = inquiries.slice(start, start + chunk).map((inquiry) => inquiryGroupJobId(batchId, inquiry, round));
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
