import { compareNames, type NameMatching } from '../matching/compare-names.js';
import type { InquiryOutcome } from '../provider/outcome.js';

export const RESULT_VALUES = ['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'VERIFIED', 'ACCOUNT_INVALID', 'INPUT_INVALID', 'FAILED'] as const;
export type ResultValue = (typeof RESULT_VALUES)[number];

/** The cells of a standing decision, as written (empty where none stands). */
export interface DecisionCells {
  decision: string;
  decidedBy: string;
  decidedAt: string;
}

/** The columns appended to every input row, in this order (named where the input reader can see them: never input). */
export { DECISION_COLUMNS, RESULT_COLUMNS } from '../csv/report-columns.js';

export interface RowResult {
  result: ResultValue;
  nameScore: number | undefined;
  outcome: InquiryOutcome | undefined;
  reason: string;
  /** Against the account's last answer in an earlier batch (see src/history/change.ts); empty when not classified. */
  change?: string | undefined;
  /** The account number as sent to the provider (separators removed); empty for a row never sent. */
  accountNumberChecked?: string | undefined;
  /** The decision that stands on the row's facts, if any. */
  decision?: DecisionCells | undefined;
}

/**
 * A reason longer than this is cut (a cell quoting a huge input value, a provider message gone wild): Excel
 * refuses cells over 32,767 characters, and nobody reads a reason that long.
 */
export const MAX_REASON_CHARACTERS = 1_000;

export function capReason(reason: string): string {
  if (reason.length <= MAX_REASON_CHARACTERS) return reason;
  const note = ` ... (cut: ${reason.length.toLocaleString('en')} characters in all)`;
  return `${reason.slice(0, MAX_REASON_CHARACTERS - note.length)}${note}`;
}

/**
 * Decides a row's `result` from its validation, the provider's outcome for its account and its own
 * expected name, compared under the configured NAME_MATCH_POLICY and NAME_RULES_FILE. Only a VERIFIED outcome can become MATCH,
 * CLOSE_MATCH or VERIFIED.
 */
export function decideRowResult(
  invalidReason: string | null,
  outcome: InquiryOutcome | undefined,
  expectedName: string | undefined,
  nameMatching: NameMatching,
): RowResult {
  if (invalidReason !== null) return { result: 'INPUT_INVALID', nameScore: undefined, outcome: undefined, reason: invalidReason };
  if (outcome === undefined) return { result: 'FAILED', nameScore: undefined, outcome, reason: 'no answer recorded for this account' };
  if (outcome.verdict !== 'VERIFIED') return { result: outcome.verdict, nameScore: undefined, outcome, reason: outcome.reason };
  if (expectedName === undefined || expectedName.trim() === '') {
    return { result: 'VERIFIED', nameScore: undefined, outcome, reason: 'no expected name to compare' };
  }
  const comparison = compareNames(expectedName, outcome.holderName ?? '', nameMatching.policy, nameMatching.knowledge);
  return { result: comparison.verdict, nameScore: comparison.score, outcome, reason: comparison.notes.join('; ') };
}

/**
 * When the bank code sent is not the one written (BANK_CODE_MAP translated a bank's name), the row says so:
 * a person reading the report must see which code was asked about.
 */
export function bankTranslationNote(writtenBank: string | undefined, sentBankCode: string | undefined): string | undefined {
  const written = (writtenBank ?? '').trim();
  return sentBankCode === undefined || written === sentBankCode
    ? undefined
    : `bank ${JSON.stringify(written)} sent as code ${JSON.stringify(sentBankCode)} (BANK_CODE_MAP)`;
}

/** The appended cells, in RESULT_COLUMNS order. */
export function resultCells(row: RowResult): string[] {
  const { outcome } = row;
  return [
    row.result,
    row.nameScore === undefined ? '' : String(row.nameScore),
    outcome?.holderName ?? '',
    outcome?.bankName ?? '',
    outcome?.fee ?? '',
    outcome?.inquiryStatus ?? '',
    outcome?.inquiryId ?? '',
    outcome?.checkedAt ?? '',
    capReason(row.reason),
    row.change ?? '',
    row.accountNumberChecked ?? '',
    row.decision?.decision ?? '',
    row.decision?.decidedBy ?? '',
    row.decision?.decidedAt ?? '',
  ];
}
