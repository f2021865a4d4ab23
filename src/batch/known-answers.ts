import type { AccountHistory } from '../history/account-history.js';
import { environmentOfQueue } from '../queue/inquiry-queue.js';
import type { KnownAnswer } from '../review/review-file.js';
import type { BatchStore } from './batch-store.js';

/**
 * The last definitive answer this tool stored for each account in one provider environment: the newest
 * history entry over the endpoints (addresses) of that environment that batches in Redis used, and `also`
 * (the configured one). What `review` checks a report's facts against.
 */
export async function knownAnswers(
  store: Pick<BatchStore, 'endpoints'>,
  history: Pick<AccountHistory, 'getMany'>,
  environment: string,
  accountKeys: string[],
  also: string,
): Promise<Map<string, KnownAnswer>> {
  const endpoints = new Set([...(await store.endpoints()), also].filter((queueName) => environmentOfQueue(queueName) === environment));
  const newest = new Map<string, KnownAnswer>();
  for (const endpoint of endpoints) {
    for (const [accountKey, entry] of await history.getMany(endpoint, accountKeys)) {
      const known = newest.get(accountKey);
      if (known === undefined || entry.answeredAt > known.answeredAt)
        newest.set(accountKey, { holderName: entry.outcome.holderName, answeredAt: entry.answeredAt });
    }
  }
  return newest;
}
