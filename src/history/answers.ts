import type { InquiryOutcome } from '../provider/outcome.js';
import type { CallCounts } from '../queue/call-tally.js';
import { isDefinitive, type AccountHistory, type DefinitiveOutcome, type HistoryEntry, type PreviousAnswer } from './account-history.js';

/** What storing answers with their history needs, narrowly; the app wires it to Redis. */
export interface AnswerDependencies {
  history: Pick<AccountHistory, 'getMany' | 'record'>;
  /** Stores the first outcome of an account in a batch, with what the history said before it; false when it had one. */
  writeAnswer(
    batchId: string,
    accountKey: string,
    outcome: InquiryOutcome,
    previous?: PreviousAnswer,
    counts?: CallCounts,
  ): Promise<boolean>;
  /**
   * A standalone Redis only (the outcome and the history entry are in different cluster slots): steps 1
   * and 2 below in one script, one round trip instead of three (BatchStore.writeAnswerWithHistory). Undefined on a cluster.
   */
  writeWithHistory?:
    | ((batchId: string, accountKey: string, outcome: DefinitiveOutcome, entry: HistoryEntry, counts?: CallCounts) => Promise<boolean>)
    | undefined;
  /** The provider endpoint the answers come from: the inquiry queue name (environment + base address). */
  endpoint: string;
  now(): number;
}

/**
 * Stores an account's answer in its batch, with the history around it:
 * 1. the outcome is stored with what the history says now (first one only: a job that runs twice answers
 *    once), so the report's `change` compares with the answer before this batch whenever it is written;
 * 2. a definitive answer becomes the account's history.
 * A crash between the two leaves the history one answer older (the next batch compares with the answer
 * before), never an outcome without its snapshot (with `writeWithHistory` there is no such crash). A FAILED
 * answer touches no history. `counts` (the calls made for the batch, see CallTally) go with the outcome.
 */
export function answerRecorder(deps: AnswerDependencies) {
  return async function recordAnswer(batchId: string, accountKey: string, outcome: InquiryOutcome, counts?: CallCounts): Promise<boolean> {
    if (!isDefinitive(outcome)) return deps.writeAnswer(batchId, accountKey, outcome, undefined, counts);
    if (deps.writeWithHistory !== undefined)
      return deps.writeWithHistory(batchId, accountKey, outcome, { outcome, batchId, answeredAt: deps.now() }, counts);
    const before = (await deps.history.getMany(deps.endpoint, [accountKey])).get(accountKey) ?? null;
    const saved = await deps.writeAnswer(batchId, accountKey, outcome, { entry: before, reused: false }, counts);
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
    // An account that has an outcome already (stored since the caller looked) keeps it: neither reused nor asked.
    await Promise.all(fresh.map(([accountKey, entry]) => deps.writeAnswer(batchId, accountKey, entry.outcome, { entry, reused: true })));
    return toAsk;
  };
}
