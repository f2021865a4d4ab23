import type { Queue } from 'bullmq';
import { inquiryJobId, type InquiryJobData } from './inquiry-queue.js';

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
