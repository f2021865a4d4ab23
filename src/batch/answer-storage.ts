import type { AccountHistory } from '../history/account-history.js';
import type { AnswerDependencies } from '../history/answers.js';
import type { BatchStore } from './batch-store.js';

/**
 * The batch store and the account history, wired for storing answers from `endpoint` with their history
 * (src/history/answers.ts). On a standalone Redis one script writes the outcome and the history; on a
 * cluster (`cluster`) their keys are in different slots, and they are written one after the other.
 */
export function answerStorage(
  store: BatchStore,
  history: AccountHistory,
  endpoint: string,
  cluster: boolean,
  now: () => number,
): AnswerDependencies {
  return {
    history,
    writeAnswer: (...answer) => store.writeAnswer(...answer),
    writeWithHistory: cluster
      ? undefined
      : (batchId, accountKey, outcome, entry, counts) =>
          store.writeAnswerWithHistory(batchId, accountKey, outcome, history.writeOf(endpoint, accountKey, entry), counts),
    endpoint,
    now,
  };
}
