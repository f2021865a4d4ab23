import { plainNormalised } from '../matching/normalise.js';
import type { RowResult } from '../report/row-result.js';
import type { HistoryEntry, PreviousAnswer } from './account-history.js';

/** The `change` column: this row's answer against the account's last answer in an earlier batch. */
export const CHANGE_VALUES = ['NEW', 'UNCHANGED', 'HOLDER_CHANGED', 'NOW_INVALID', 'NOW_VALID', 'RESULT_CHANGED'] as const;
export type ChangeValue = (typeof CHANGE_VALUES)[number];

/** Changes worth a person's look: the rows of `<name>.changes.csv`. */
export const isNotableChange = (change: ChangeValue | undefined): boolean =>
  change !== undefined && change !== 'NEW' && change !== 'UNCHANGED';

export interface ChangeDecision {
  /** Undefined (an empty cell) for rows without a definitive answer now (INPUT_INVALID, FAILED), or answered before history was kept. */
  change: ChangeValue | undefined;
  /** The previous value, for `reason`; undefined when there is nothing to say. */
  note: string | undefined;
}

/**
 * Classifies a row against what the account's history held before this batch's answer. Values in, a
 * decision out: no Redis, no clock.
 *
 * - No earlier definitive answer: NEW.
 * - Valid before, rejected now: NOW_INVALID; rejected before, valid now: NOW_VALID (rejected twice: UNCHANGED).
 * - Valid both times with a holder name that differs once case, accents, punctuation and spacing are set
 *   aside: HOLDER_CHANGED (the account may now belong to somebody else; it outranks a changed verdict).
 * - The same holder, but the row's verdict differs from the one reported last time (the expected name in
 *   the export changed, say): RESULT_CHANGED.
 * - Otherwise UNCHANGED.
 * A reused answer is compared with the entry it was taken from: the bank's side is UNCHANGED by definition,
 * but a changed expected name still shows as RESULT_CHANGED; `reason` says whose answer it is.
 */
export function classifyChange(current: Pick<RowResult, 'result' | 'outcome'>, previous: PreviousAnswer | undefined): ChangeDecision {
  if (current.result === 'INPUT_INVALID' || current.result === 'FAILED' || previous === undefined)
    return { change: undefined, note: undefined };
  const reusedNote =
    previous.reused && previous.entry !== null
      ? `answer reused from batch ${previous.entry.batchId} checked at ${at(previous.entry)}`
      : undefined;
  const decided = compare(current, previous.entry);
  const notes = [reusedNote, decided.note].filter((note): note is string => note !== undefined);
  return { change: decided.change, note: notes.length > 0 ? notes.join('; ') : undefined };
}

function compare(current: Pick<RowResult, 'result' | 'outcome'>, entry: HistoryEntry | null): { change: ChangeValue; note?: string } {
  if (entry === null) return { change: 'NEW' };
  const wasValid = entry.outcome.verdict === 'VERIFIED';
  const isValid = current.result !== 'ACCOUNT_INVALID';
  const source = `batch ${entry.batchId}, ${at(entry)}`;
  if (wasValid && !isValid)
    return { change: 'NOW_INVALID', note: `previously valid, holder ${JSON.stringify(entry.outcome.holderName ?? '')} (${source})` };
  if (!wasValid && isValid)
    return { change: 'NOW_VALID', note: `previously rejected: ${entry.outcome.reason || 'no reason given'} (${source})` };
  if (!isValid) return { change: 'UNCHANGED' };
  const holderBefore = entry.outcome.holderName ?? '';
  if (plainNormalised(holderBefore) !== plainNormalised(current.outcome?.holderName ?? '')) {
    return { change: 'HOLDER_CHANGED', note: `previous holder ${JSON.stringify(holderBefore)} (${source})` };
  }
  if (entry.result !== undefined && entry.result !== current.result)
    return { change: 'RESULT_CHANGED', note: `previous result ${entry.result} (${source})` };
  return { change: 'UNCHANGED' };
}

const at = (entry: HistoryEntry): string => new Date(entry.answeredAt).toISOString();

/** The reason with the change's note after it. */
export const withChangeNote = (reason: string, note: string | undefined): string =>
  note === undefined ? reason : reason === '' ? note : `${reason}; ${note}`;
