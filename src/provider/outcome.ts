/**
 * What the provider said about one bank account, stored once per account per batch. The name
 * comparison is not part of it: it depends on each row's expected name and is made when the report is written.
 */
export interface InquiryOutcome {
  verdict: 'VERIFIED' | 'ACCOUNT_INVALID' | 'FAILED';
  /** Why it is not VERIFIED, or what the provider said; empty when there is nothing to add. */
  reason: string;
  holderName?: string | undefined;
  bankName?: string | undefined;
  fee?: string | undefined;
  inquiryStatus?: string | undefined;
  inquiryId?: string | undefined;
  checkedAt?: string | undefined;
}

/**
 * An outcome as stored in Redis: its values in a fixed order without the field names (about half the
 * bytes of the object's JSON, for each of up to a million accounts), absent values as null.
 */
const OUTCOME_FIELDS = ['verdict', 'reason', 'holderName', 'bankName', 'fee', 'inquiryStatus', 'inquiryId', 'checkedAt'] as const;

export const OUTCOME_VALUE_COUNT = OUTCOME_FIELDS.length;

export const outcomeValues = (outcome: InquiryOutcome): Array<string | null> => OUTCOME_FIELDS.map((field) => outcome[field] ?? null);

export function outcomeFromValues(values: readonly unknown[]): InquiryOutcome {
  const outcome: Record<string, string> = {};
  OUTCOME_FIELDS.forEach((field, index) => {
    const value = values[index];
    if (typeof value === 'string') outcome[field] = value;
  });
  return outcome as unknown as InquiryOutcome;
}
