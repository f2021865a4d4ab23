import { Queue, type JobsOptions } from 'bullmq';
import type { RedisClient } from '../redis/connection.js';
import { ratePerSecond, type ProviderSettings, type Rate } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { shortDigest, type RedisKeys } from '../redis/keys.js';
import { sealAccount } from './job-seal.js';
import { sendsUnpaced } from './rate-control.js';
import { redisErrors } from '../redis/supervisor.js';

export const INQUIRY_JOB = 'inquiry';

/**
 * One job asks the provider about one bank account for one batch, or about a group of its accounts, one
 * after the other (see accountsPerJob): each account sealed with the batch's key (see job-seal.ts), never
 * in clear (a job hash has no expiry).
 */
export type InquiryJobData =
  | { batchId: string; sealedAccount: string }
  /** `uncountedFailures`: per account, its failures in runs handed back without spending an attempt (see keptFailures in jobs/inquiry.ts). */
  | { batchId: string; sealedAccounts: string[]; uncountedFailures?: number[] };

/**
 * The accounts one inquiry job asks: one account (`group` undefined), or, in a batch of several accounts
 * per job, those of one group: the accounts first seen n * accountsPerJob to (n + 1) * accountsPerJob - 1
 * (the batch's account order), `group` n. An account is in one group for good, so that its job's id is the
 * same whoever queues it (the producer, a re-read, `resume`, the audit of lost jobs).
 */
export interface InquiryGroup {
  accountKeys: string[];
  group: number | undefined;
}

/** How many accounts one job of a large batch asks (see accountsPerJob). */
const ACCOUNTS_PER_GROUP = 16;
/** A batch of this many rows or more asks its accounts in groups (see accountsPerJob). */
const GROUPED_FROM_ROWS = 4_096;

/**
 * How many accounts each job of a new batch asks, fixed for the batch when it is made (its groups must be
 * the same at every re-read). BullMQ's add, fetch and completion of a job cost as much client and Redis
 * work as the call itself (docs/performance.md), paced or not: a job that asks sixteen accounts pays them
 * once for sixteen (unpaced, eight left the client and Redis 1.43-1.50 times raw BullMQ's CPU a row,
 * sixteen 1.37-1.42; paced at 200/s, sixteen brought the Redis commands a row from 66 to 31). A job asks its
 * accounts side by side, each call with a permit of the process's (CallPermits), so a job of sixteen has
 * no more calls in flight than sixteen jobs of one would, and the last groups of a run do not ask theirs
 * one after the other while the rate goes unused (asked in turn, groups of sixteen at 200/s reached 0.979
 * of the rate against 0.985; side by side, 0.978-0.983 against 0.983-0.984 on a slower machine). A file of fewer rows keeps a job per account: it is done in seconds either way, and the order
 * of its accounts (16 bytes a row in Redis) is not kept.
 */
export function accountsPerJob(rowCount: number): number {
  return rowCount >= GROUPED_FROM_ROWS ? ACCOUNTS_PER_GROUP : 1;
}

/**
 * One queue per provider endpoint: jobs for the sandbox never reach a worker configured for production,
 * and workers pointed at different addresses never take each other's jobs.
 */
export function inquiryQueueName(provider: Pick<ProviderSettings, 'environment' | 'baseUrl'>): string {
  return `inquiries-${provider.environment}-${shortDigest(provider.baseUrl ?? 'builtin')}`;
}

/** The provider environment of a queue (of an endpoint): `inquiries-production-…` -> `production`. */
export const environmentOfQueue = (queueName: string): string => /^inquiries-([a-z]+)-/.exec(queueName)?.[1] ?? queueName;

/**
 * The job id makes adding the same account twice a no-op while the first job still exists. The round
 * (see BatchStore.forgetFailedOutcomes) gives accounts asked again after a FAILED answer a fresh id, since
 * the failed job of the earlier round is kept.
 */
export const inquiryJobId = (batchId: string, accountKey: string, round: number): string =>
  `${batchId}.${shortDigest(accountKey)}${round > 0 ? `.r${round}` : ''}`;

/** The id of the job that asks `inquiry` in `round`: per account (inquiryJobId), or `${batchId}.g<group>` and the round. */
export const inquiryGroupJobId = (batchId: string, inquiry: InquiryGroup, round: number): string =>
  inquiry.group === undefined
    ? inquiryJobId(batchId, inquiry.accountKeys[0]!, round)
    : `${batchId}.g${inquiry.group}${round > 0 ? `.r${round}` : ''}`;

/** The round a job was queued in, read from its id (inquiryJobId): 0 without the `.rN` suffix. */
export const inquiryJobRound = (jobId: string | undefined): number => Number(/\.r(\d+)$/.exec(jobId ?? '')?.[1] ?? 0);

/**
 * The most entries BullMQ's events stream of the queue keeps (about, trimmed as it is written): BullMQ
 * writes several per job (added, waiting, active, completed, ...) for QueueEvents listeners, which this
 * product has none of. BullMQ's default, 10,000, kept some 2 MB per queue after every batch was pruned.
 */
export const QUEUE_EVENTS_KEPT = 100;

/** With its `error` listener (the connection's supervisor): a queue without one ends the process with a raw stack when Redis goes. */
export function openInquiryQueue(connection: RedisClient, keys: RedisKeys, queueName: string, logger: Logger): Queue<InquiryJobData> {
  const queue = new Queue<InquiryJobData>(queueName, {
    connection,
    prefix: keys.bullPrefix(),
    streams: { events: { maxLen: QUEUE_EVENTS_KEPT } },
  });
  queue.on('error', redisErrors(connection, 'inquiry queue', logger));
  return queue;
}

/** The queue's jobs in work, waiting and delayed (what a batch's wait says it waits for). */
export async function inquiryJobCounts(queue: Queue<InquiryJobData>): Promise<{ active: number; waiting: number; delayed: number }> {
  const counts = await queue.getJobCounts('active', 'waiting', 'delayed');
  return { active: counts.active ?? 0, waiting: counts.waiting ?? 0, delayed: counts.delayed ?? 0 };
}

/** Failed jobs are kept for people to look at (bull-board, `status`), bounded so that Redis does not grow. */
export const FAILED_JOBS_KEPT = { count: 5_000, age: 7 * 24 * 3600 };

export function inquiryJobOptions(batchId: string, inquiry: InquiryGroup, round: number, attempts: number): JobsOptions {
  return {
    jobId: inquiryGroupJobId(batchId, inquiry, round),
    attempts,
    backoff: { type: 'jittered' },
    // The outcome lives in the batch; keeping completed jobs would only grow Redis.
    removeOnComplete: true,
    // A job only fails when something went wrong outside the rules (a stalled worker past its limit):
    // it stays visible, and the batch's settle turns it into a FAILED row that says so.
    removeOnFail: FAILED_JOBS_KEPT,
  };
}

/** Jobs per `addBulk` when calls go out unpaced (jobsPerAdd); also what a producer made without a rate uses. */
export const UNPACED_JOBS_PER_ADD = 50;

/**
 * Jobs per `addBulk`, for a configured rate. One addBulk is one MULTI that Redis runs without a break
 * (about 0.15 ms a job), holding every worker's fetch and every pacer reply behind it. When calls are
 * paced, a send slot nobody takes in time is lost for good: 500 jobs at once left slots untaken while the
 * producer was queueing (the first second of a run went at 110-400/s of 500/s), and fifty still cost a
 * 100 ms provider at 500/s 0.4% of its rate (0.9753-0.9757 of 500/s in three runs, against 0.9796-0.9805
 * with ten). Unpaced, nothing waits for a slot and the round trips count: ten took a 30,000-row run 6-14%
 * longer than fifty.
 */
export function jobsPerAdd(rate: Rate): number {
  return sendsUnpaced(ratePerSecond(rate)) ? UNPACED_JOBS_PER_ADD : 10;
}

/**
 * One job per inquiry group, each with at least one account (see keepingAccounts). `sealKey`: the batch's
 * key for its jobs' account numbers (BatchStore.jobSeal); `perAdd`: jobs per addBulk (jobsPerAdd).
 */
export async function addInquiryJobs(
  queue: Queue<InquiryJobData>,
  batchId: string,
  round: number,
  inquiries: InquiryGroup[],
  attempts: number,
  sealKey: string,
  perAdd: number,
): Promise<void> {
  const seal = (accountKey: string) => sealAccount(sealKey, batchId, accountKey);
  for (let start = 0; start < inquiries.length; start += perAdd) {
    await queue.addBulk(
      inquiries.slice(start, start + perAdd).map((inquiry) => ({
        name: INQUIRY_JOB,
        data:
          inquiry.group === undefined
            ? { batchId, sealedAccount: seal(inquiry.accountKeys[0]!) }
            : { batchId, sealedAccounts: inquiry.accountKeys.map(seal) },
        opts: inquiryJobOptions(batchId, inquiry, round, attempts),
      })),
    );
  }
}

/**
 * The inquiry groups of accounts that follow one another in a batch's account order from `firstOrdinal`
 * on, `perJob` accounts a group (InquiryGroup); each its own job when `perJob` is 1.
 */
export function inquiryGroups(accountKeys: string[], firstOrdinal: number, perJob: number): InquiryGroup[] {
  if (perJob === 1) return singleInquiries(accountKeys);
  const groups: InquiryGroup[] = [];
  for (const [index, accountKey] of accountKeys.entries()) {
    const group = Math.floor((firstOrdinal + index) / perJob);
    if (groups.at(-1)?.group !== group) groups.push({ accountKeys: [], group });
    groups.at(-1)!.accountKeys.push(accountKey);
  }
  return groups;
}

/** The groups with only their accounts that `keep` keeps; a group left with none is left out (it is not to be queued). */
export const keepingAccounts = (inquiries: InquiryGroup[], keep: (accountKey: string) => boolean): InquiryGroup[] =>
  inquiries
    .map((inquiry) => ({ ...inquiry, accountKeys: inquiry.accountKeys.filter(keep) }))
    .filter((inquiry) => inquiry.accountKeys.length > 0);

/** Each account its own job (a batch of one account per job). */
export const singleInquiries = (accountKeys: string[]): InquiryGroup[] =>
  accountKeys.map((accountKey) => ({ accountKeys: [accountKey], group: undefined }));

/**
 * BullMQ's global limiter: the outer ceiling on jobs started, in the rate's own window, and the switch
 * that makes `queue.rateLimit()` hold every worker after a 429. The even spacing of the calls themselves
 * is the SendPacer's job.
 */
export function queueCeiling(rate: Rate): { max: number; duration: number } {
  return { max: Math.max(1, Math.floor(rate.max)), duration: rate.perMs };
}
