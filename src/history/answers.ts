import type { InquiryOutcome } from '../provider/outcome.js';
import { isDefinitive, type AccountHistory, type HistoryEntry } from './account-history.js';

/** What storing answers with their history needs, narrowly; the app wires it to Redis. */
export interface AnswerDependencies {
  history: Pick<AccountHistory, 'getMany' | 'record' | 'snapshot'>;
  /** Stores the first outcome of an account in a batch; false when it had one. */
  saveOutcome(batchId: string, accountKey: string, outcome: InquiryOutcome): Promise<boolean>;
  /** The provider endpoint the answers come from: the inquiry queue name (environment + base address). */
  endpoint: string;
  now(): number;
}

/**
 * Stores an account's answer in its batch, with the history around it:
 * 1. what the history says now is kept beside the batch (first time only), so the report's `change`
 *    compares with the answer before this batch whenever it is written;
 * 2. the outcome is stored (first one only: a job that runs twice answers once);
 * 3. a definitive answer becomes the account's history.
 * In this order, a crash between two steps loses nothing the next attempt needs: a snapshot without an
 * outcome is kept for the outcome that follows; an outcome without its history entry leaves the history
 * one answer older (the next batch compares with the answer before). A FAILED answer touches no history.
 */
export function answerRecorder(deps: AnswerDependencies) {
  return async function saveAnswer(batchId: string, accountKey: string, outcome: InquiryOutcome): Promise<boolean> {
    if (!isDefinitive(outcome)) return deps.saveOutcome(batchId, accountKey, outcome);
    const before = (await deps.history.getMany(deps.endpoint, [accountKey])).get(accountKey) ?? null;
    await deps.history.snapshot(batchId, accountKey, { entry: before, reused: false });
    const saved = await deps.saveOutcome(batchId, accountKey, outcome);
    if (saved) await deps.history.record(deps.endpoint, accountKey, { outcome, batchId, answeredAt: deps.now() });
    return saved;
  };
}

/**
 * Answer reuse (`--reuse-answers`): accounts with a definitive answer at most `maxAgeMs` old on this
 * endpoint get that answer stored as theirs, without a call; returns the accounts still to ask. The
 * history entry is left as it is (a reused answer is no new answer: its age must not start again, or an
 * answer would be reused for ever). The reused entry is the snapshot: the row's `change` compares with it.
 */
export function answerReuser(deps: AnswerDependencies, maxAgeMs: number) {
  return async function reuseFreshAnswers(batchId: string, accountKeys: string[]): Promise<string[]> {
    if (maxAgeMs <= 0 || accountKeys.length === 0) return accountKeys;
    const entries = await deps.history.getMany(deps.endpoint, accountKeys);
    const oldest = deps.now() - maxAgeMs;
    const toAsk: string[] = [];
    const fresh: Array<[string, HistoryEntry]> = [];
    for (const accountKey of accountKeys) {
      const entry = entries.get(accountKey);
      if (entry === undefined || entry.answeredAt < oldest) toAsk.push(accountKey);
      else fresh.push([accountKey, entry]);
    }
    await Promise.all(
      fresh.map(async ([accountKey, entry]) => {
        // A snapshot already there (an earlier start stored one, then stopped before the answer): asked, not reused.
        if (!(await deps.history.snapshot(batchId, accountKey, { entry, reused: true }))) toAsk.push(accountKey);
        else await deps.saveOutcome(batchId, accountKey, entry.outcome);
      }),
    );
    return toAsk;
  };
}
