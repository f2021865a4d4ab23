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
