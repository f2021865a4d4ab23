import { parseAccountKey } from '../csv/validation.js';
import { environmentOfQueue } from '../queue/inquiry-queue.js';
import { countReviewState, rejectionOfMatch, zeroReviewCounts, type ReviewCounts } from '../review/decision.js';
import type { DecisionStore } from '../review/decision-store.js';
import type { BatchRecord, BatchStore } from './batch-store.js';

const ENTRIES_PER_READ = 1_000;

/**
 * What a person still has to do in a reported batch, now: its CLOSE_MATCH / NO_MATCH rows (listed when the
 * report was written) against the decisions standing now, a thousand rows per Redis round trip and without
 * matching a name again. Undefined for a batch whose report did not list them (reported before decisions
 * existed, or not reported yet).
 */
export async function countReview(
  store: Pick<BatchStore, 'readReviewRows'>,
  decisions: Pick<DecisionStore, 'judge'>,
  batch: Pick<BatchRecord, 'batchId' | 'queueName'>,
): Promise<ReviewCounts | undefined> {
  const environment = environmentOfQueue(batch.queueName);
  const counts = zeroReviewCounts();
  for (let start = 0; ; start += ENTRIES_PER_READ) {
    const entries = await store.readReviewRows(batch.batchId, start, ENTRIES_PER_READ);
    if (entries === undefined) return undefined;
    const facts = entries.map(([, accountKey, expectedName, holderName]) => ({
      environment,
      ...parseAccountKey(accountKey),
      expectedName,
      holderName,
    }));
    // Counted, not shown: no note needs a time. A MATCH row listed for its rejection counts while that stands.
    const states = await decisions.judge(facts, () => '');
    states.forEach((state, index) => {
      const shown = entries[index]![4] === 1 ? rejectionOfMatch(state) : state;
      if (shown !== undefined) countReviewState(counts, shown);
    });
    if (entries.length < ENTRIES_PER_READ) return counts;
  }
}
