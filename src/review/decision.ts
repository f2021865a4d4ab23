import { parseAccountKey } from '../csv/validation.js';
import { plainNormalised } from '../matching/normalise.js';
import type { ResultValue } from '../report/row-result.js';

/**
 * A person's decision on a row the matcher could not settle: APPROVED (the holder is the intended
 * beneficiary: pay) or REJECTED (do not pay). A decision is about facts, not a batch: it stands in every later
 * report while the facts are the same, and is void the moment one of them changes. Pure: values in, values out.
 */
export const DECISION_VALUES = ['APPROVED', 'REJECTED'] as const;
export type DecisionValue = (typeof DECISION_VALUES)[number];

/** Only these are decided: the account is valid and the names are close (CLOSE_MATCH) or another person's (NO_MATCH). */
export const DECIDABLE_RESULTS: ReadonlySet<ResultValue> = new Set(['CLOSE_MATCH', 'NO_MATCH']);

/** `APPROVED`, `approve`, ` Rejected ` ...: the value, or undefined for anything else. */
export function parseDecisionValue(written: string): DecisionValue | undefined {
  const value = written.trim().toUpperCase();
  if (value === 'APPROVED' || value === 'APPROVE') return 'APPROVED';
  if (value === 'REJECTED' || value === 'REJECT') return 'REJECTED';
  return undefined;
}

/** What a decision is about: the account (in one provider environment), the expected name and the holder name the bank gave. */
export interface DecisionFacts {
  /** `sandbox` or `production`: a decision made on sandbox answers never stands in production. */
  environment: string;
  bankCode: string;
  accountNumber: string;
  /** As the payer wrote it (trimmed). Compared by `expectedNameKey`. */
  expectedName: string;
  /** As the bank gave it: any change of it voids the decision. */
  holderName: string;
}

export interface Decision {
  facts: DecisionFacts;
  decision: DecisionValue;
  /** A person's name, never "the console". */
  decidedBy: string;
  /** When it was recorded (ms): Redis's clock, the time of its audit entry. */
  decidedAt: number;
  note: string;
}

/**
 * The facts of a report row a person decides, or undefined for any other row (nothing was verified, or the
 * names were not compared). `accountKey` is the account as sent (`bank:number`).
 */
export function decidableFacts(
  environment: string,
  row: { result: ResultValue; accountKey: string | null; expectedName: string | undefined; holderName: string | undefined },
): DecisionFacts | undefined {
  const { result, accountKey, expectedName, holderName } = row;
  if (!DECIDABLE_RESULTS.has(result) || accountKey === null || expectedName === undefined || holderName === undefined) return undefined;
  return { environment, ...parseAccountKey(accountKey), expectedName: expectedName.trim(), holderName };
}

/**
 * The facts of a MATCH row, for one thing only: a REJECTED decision standing on them still says do not pay. It was
 * made while the same facts came out CLOSE_MATCH or NO_MATCH (under NAME_MATCH_POLICY=strict, an earlier rules file,
 * another process's settings); a person said no to exactly this account, name and holder, and a looser reading
 * since is no reason to pay. An APPROVED one adds nothing to a MATCH.
 */
export function matchRowFacts(
  environment: string,
  row: { result: ResultValue; accountKey: string | null; expectedName: string | undefined; holderName: string | undefined },
): DecisionFacts | undefined {
  return row.result === 'MATCH' ? decidableFacts(environment, { ...row, result: 'CLOSE_MATCH' }) : undefined;
}

/** A MATCH row's state as shown and counted: only a REJECTED decision standing on its facts (see matchRowFacts). */
export const rejectionOfMatch = (state: DecisionState | undefined): DecisionState | undefined =>
  state?.kind === 'stands' && state.decision.decision === 'REJECTED' ? state : undefined;

/**
 * The expected name as decisions compare it: case, accents, punctuation and spacing folded
 * (`Ratna  Dewi` = `RATNA DEWI`), with the matcher's own normalisation, so that re-typing the same name
 * does not void a decision while any other edit does.
 */
export const expectedNameKey = (expectedName: string): string => plainNormalised(expectedName);

/** `the decision APPROVED by ratna (2026-11-21 09:15:07 WIB) no longer applies`: the start of every void note. */
const noLongerApplies = (decision: Decision, showTime: (at: number) => string): string =>
  `the decision ${decision.decision} by ${decision.decidedBy} (${showTime(decision.decidedAt)}) no longer applies`;

/** Where a row stands: a decision stands on its facts, an earlier one no longer applies, or none was made. */
export type DecisionState = { kind: 'stands'; decision: Decision } | { kind: 'void'; earlier: Decision; note: string } | { kind: 'none' };

/**
 * The state of a row with these facts, given the decisions that stand on its account (one per expected
 * name). The same expected name and the same holder name: the decision stands. The same expected name and
 * another holder name (the bank renamed the holder), or only decisions for other expected names (the payer
 * edited the name): the row needs a person again, and `note` says which earlier decision no longer applies.
 */
export function judgeRow(facts: DecisionFacts, onAccount: readonly Decision[], showTime: (at: number) => string): DecisionState {
  const expected = expectedNameKey(facts.expectedName);
  const same = onAccount.find((decision) => expectedNameKey(decision.facts.expectedName) === expected);
  if (same !== undefined) {
    if (same.facts.holderName === facts.holderName) return { kind: 'stands', decision: same };
    return {
      kind: 'void',
      earlier: same,
      note: `${noLongerApplies(same, showTime)}: it was made for the holder name ${JSON.stringify(same.facts.holderName)}`,
    };
  }
  const latest = [...onAccount].sort((a, b) => b.decidedAt - a.decidedAt)[0];
  if (latest === undefined) return { kind: 'none' };
  return {
    kind: 'void',
    earlier: latest,
    note: `${noLongerApplies(latest, showTime)}: it was made for the expected name ${JSON.stringify(latest.facts.expectedName)}`,
  };
}

/**
 * An APPROVED decision that stands on a row's facts, though the bank gave another holder name (or none: the
 * account closed) after it was made: the answer before the row's was that, newer than the decision. The name has
 * come back, but it is no longer the one a person saw, so the approval is void (and is ended for good: see
 * DecisionStore.end), as it was the moment the name changed. A REJECTED one stays: a no to exactly these facts,
 * which are these facts again, is no reason to pay (a void would make a MATCH row payable with nobody looking).
 * `before`: the history entry the row's answer replaced (its holder name, when it was answered).
 */
export function changedSinceDecided(
  decision: Decision,
  before: { outcome: { holderName?: string | undefined }; answeredAt: number } | null | undefined,
  showTime: (at: number) => string,
): Extract<DecisionState, { kind: 'void' }> | undefined {
  if (decision.decision !== 'APPROVED') return undefined;
  if (before === null || before === undefined || before.answeredAt <= decision.decidedAt) return undefined;
  if (before.outcome.holderName === decision.facts.holderName) return undefined;
  const then =
    before.outcome.holderName === undefined
      ? 'no holder (the account was invalid)'
      : `the holder name ${JSON.stringify(before.outcome.holderName)}`;
  return {
    kind: 'void',
    earlier: decision,
    note: `${noLongerApplies(decision, showTime)}: the bank gave ${then} after it was made (checked ${showTime(before.answeredAt)})`,
  };
}

/** What a person still has to do, and what they decided, over a report's rows. */
export interface ReviewCounts {
  /** CLOSE_MATCH and NO_MATCH rows without a standing decision. */
  needsReview: number;
  approved: number;
  rejected: number;
}

export const zeroReviewCounts = (): ReviewCounts => ({ needsReview: 0, approved: 0, rejected: 0 });

/** Adds one decidable row's state to the counts. */
export function countReviewState(counts: ReviewCounts, state: DecisionState): void {
  if (state.kind !== 'stands') counts.needsReview += 1;
  else if (state.decision.decision === 'APPROVED') counts.approved += 1;
  else counts.rejected += 1;
}
