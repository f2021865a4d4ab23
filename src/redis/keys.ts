import { createHash } from 'node:crypto';

/** Every Redis key the tool writes, in one place, under one prefix. */
export function redisKeys(prefix: string) {
  // The batch id is a hash tag: every key of one batch lives in one Redis Cluster slot, so the Lua
  // commands and MULTI blocks that touch several of them stay valid on a cluster.
  const batchKeyStart = `${prefix}:batch:`;
  const batch = (batchId: string) => `${batchKeyStart}{${batchId}}`;
  return {
    /** Hash: the batch record (see BatchRecord). */
    batch,
    /** List: the input rows in file order, in deflated JSON blocks of ROWS_PER_BLOCK rows (written only by the current producer generation). */
    rows: (batchId: string) => `${batch(batchId)}:rows`,
    /** Set: the distinct account keys of the batch, each asked once. */
    accounts: (batchId: string) => `${batch(batchId)}:accounts`,
    /**
     * List: the same account keys in the order they were first seen, for a batch whose jobs ask several
     * accounts each (BatchRecord.accountsPerJob): the n-th account is asked by the job of group
     * n / accountsPerJob (see InquiryGroup). Not written for a batch of one account per job.
     */
    accountOrder: (batchId: string) => `${batch(batchId)}:order`,
    /**
     * Hash: account key -> the outcome, with what the account's history said before it (see
     * BatchStore.writeAnswer). Written once per account (HSETNX), but for a FAILED one that a late answer
     * replaces when it is forgotten (see lateAnswers).
     */
    outcomes: (batchId: string) => `${batch(batchId)}:outcomes`,
    /**
     * Hash: account key -> a definitive answer that came after the account's outcome was FAILED (a call on
     * its way when `run` gave up on an outage), stored as an outcome is. When the FAILED answers are
     * forgotten to be asked again (BatchStore.forgetFailedOutcomes), such an answer becomes the outcome and
     * the account is not paid for a second time.
     */
    lateAnswers: (batchId: string) => `${batch(batchId)}:late`,
    /**
     * List: the report's rows a person decides (CLOSE_MATCH, NO_MATCH), one entry each, written with the
     * report: how many still need a person is counted from it, without reading (and matching) every row again.
     */
    reviewRows: (batchId: string) => `${batch(batchId)}:review`,
    /** SCAN pattern of every key of every batch (the record and its rows, accounts, outcomes). */
    batchPattern: () => `${batchKeyStart}{*`,
    /** The batch id a key of `batchPattern` belongs to (its hash tag); undefined for another key. */
    batchIdOf: (key: string): string | undefined =>
      key.startsWith(batchKeyStart) ? /^\{([^}]*)\}/.exec(key.slice(batchKeyStart.length))?.[1] : undefined,
    /** Sorted set of batch ids by creation time. */
    batches: () => `${prefix}:batches`,
    /**
     * Hash: `<inquiry queue name>/<content hash>` of an input file -> its latest batch id at that endpoint, to
     * recognise the same file again there (see contentAtEndpoint in batch-store.ts).
     */
    batchesByContent: () => `${prefix}:batches:by-content`,
    /** Lease: the one process deciding about, and producing, the batch of one file content at one endpoint. */
    contentLease: (contentAtEndpoint: string) => `${prefix}:lease:content:${contentAtEndpoint}`,
    /**
     * The shared provider session: one token per environment + base address + username. The identity is a
     * hash tag: the token and its login failure are written in one MULTI, which a cluster allows in one slot only.
     */
    token: (identity: string) => `${prefix}:token:{${identity}}`,
    tokenLock: (identity: string) => `${prefix}:token:{${identity}}:lock`,
    /** The last login failure, so that `run` can stop with the provider's message instead of waiting. */
    loginFailure: (identity: string) => `${prefix}:token:{${identity}}:login-failure`,
    /** Hash: the provider outage seen by the circuit breakers of every worker on one queue. */
    outage: (queueName: string) => `${prefix}:outage:${queueName}`,
    /** Counter: moves when workers on the queue have answers from the provider, for any batch (OutageBoard.answered). */
    providerAnswers: (queueName: string) => `${prefix}:outage:${queueName}:answers`,
    /** Lease: the one watcher of a folder (expires 5 s after the watcher dies). */
    watchFolder: (folderId: string) => `${prefix}:watch:${folderId}:alive`,
    /** Hash: a file the watcher claimed (moved to processing/): names chosen, batch id once known. */
    watchClaim: (folderId: string, claimId: string) => `${prefix}:watch:${folderId}:claim:${claimId}`,
    /** Lease, renewed while a nightly run works: the run in progress; no other run starts. */
    scheduleLock: () => `${prefix}:schedule:lock`,
    /** List, newest first: what the nightly runs did (completed, skipped, failed), capped. */
    scheduleRuns: () => `${prefix}:schedule:runs`,
    /** The next free send slot of the pacer, one per queue (that is, per provider endpoint). */
    pacer: (queueName: string) => `${prefix}:pacer:${queueName}`,
    /** Sorted set: the rate each live worker process of one queue was started with, scored by expiry (see RateCeiling). */
    rateCeiling: (queueName: string) => `${prefix}:rate-ceiling:${queueName}`,
    /**
     * Where the last definitive answer for one account at one provider endpoint (the inquiry queue name:
     * environment + base address) is kept: a field of one of 65,536 hashes of the endpoint, both
     * named by the account's digest (the account number never appears). A key per account cost about
     * 460 bytes of Redis each (key, expiry entry, a hash of named fields); a field of a bucket about half
     * that. The buckets spread over every slot of a cluster.
     */
    accountHistory: (endpoint: string, accountKey: string) => {
      const digest = accountDigest(accountKey);
      return {
        key: `${prefix}:history:${endpoint}:${digest.subarray(0, 2).toString('hex')}`,
        field: digest.subarray(2, 14).toString('base64url'),
      };
    },
    /** SCAN pattern of every history entry of one endpoint (removed with a throw-away emulator queue). */
    accountHistoryPattern: (endpoint: string) => `${prefix}:history:${endpoint}:*`,
    /**
     * People's decisions (src/review): records, not working state, never expired with batches. Both keys carry
     * the hash tag {decisions}: one script records a decision and appends it to the trail, which a cluster
     * runs only on keys of one slot (decisions are few: one master holds them).
     * Hash: account field (decisionAccountField, a digest: no account number in a key) -> that account's
     * standing decisions, JSON with their facts (bank code, account number, names) so each can be re-checked.
     */
    decisionsStanding: () => `${prefix}:{decisions}:standing`,
    /** Stream: the audit trail, one entry per decision recorded or changed, in the order they were made; appended, never rewritten. */
    decisionsTrail: () => `${prefix}:{decisions}:trail`,
    /**
     * Prefix for BullMQ's own keys. BullMQ's scripts touch many keys of a queue at once: the hash tag puts
     * every key of every queue of this deployment in one cluster slot (BullMQ's documented way to run on a
     * cluster). A single Redis ignores it.
     */
    bullPrefix: () => `${prefix}:{bull}`,
    /** SCAN pattern of every inquiry queue's meta hash (BullMQ writes it with the first job added). */
    inquiryQueueMetaPattern: () => `${prefix}:{bull}:inquiries-*:meta`,
    /** The queue name of a key of `inquiryQueueMetaPattern`; undefined for another key. */
    inquiryQueueOfMeta: (key: string): string | undefined => /^inquiries-[^:]+(?=:meta$)/.exec(key.slice(`${prefix}:{bull}:`.length))?.[0],
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;

/** Short, stable digest for ids built from values that must not appear as such (account numbers, URLs). */
export const shortDigest = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 16);

/**
 * An account's field in the standing decisions, per provider environment (a sandbox decision never stands in
 * production): 128 bits of SHA-256, so the account number never appears.
 */
export const decisionAccountField = (environment: string, accountKey: string): string =>
  createHash('sha256').update(`${environment}\n${accountKey}`).digest().subarray(0, 16).toString('base64url');

/**
 * An account's name in the history: 16 bits of SHA-256 pick one of 65,536 buckets (about 14 accounts each
 * at 900,000 accounts), the next 96 name its field (no collision in any realistic number of accounts).
 */
const accountDigest = (accountKey: string): Buffer => createHash('sha256').update(accountKey).digest();
