import type { AccountQuery } from '../csv/validation.js';
import type { InquiryOutcome } from './outcome.js';

/** An HTTP answer to an inquiry, reduced to what classification needs. */
export interface InquiryResponse {
  statusCode: number;
  /** Parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
  /** The Retry-After header as sent, if any. */
  retryAfter: string | undefined;
}

/**
 * What to do with an inquiry response. Only `answer` ends a row; the rest say how to try again.
 * `unauthorized` refreshes the shared token; `rate_limited` holds every worker; `transient` is retried
 * with backoff until the attempts run out.
 */
export type InquiryClassification =
  | { kind: 'answer'; outcome: InquiryOutcome }
  | { kind: 'unauthorized'; message: string }
  | { kind: 'rate_limited'; retryAfterMs: number | undefined }
  | { kind: 'transient'; reason: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** Retry-After is whole seconds or an HTTP date. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function providerMessage(body: unknown): string {
  return isObject(body) && typeof body.message === 'string' && body.message.trim() !== '' ? body.message.trim() : 'no message';
}

/**
 * Turns one inquiry response into a decision. A row can only become VERIFIED when the envelope says
 * `error: false`, the record's status is SUCCESS and the echoed bank code and account number are the
 * ones sent: anything else is an honest ACCOUNT_INVALID or FAILED, never a match.
 */
export function classifyInquiryResponse(sent: AccountQuery, response: InquiryResponse): InquiryClassification {
  const { statusCode, body } = response;
  if (statusCode === 401) return { kind: 'unauthorized', message: providerMessage(body) };
  if (statusCode === 429) return { kind: 'rate_limited', retryAfterMs: parseRetryAfter(response.retryAfter) };
  if (statusCode >= 500 || statusCode === 408) return { kind: 'transient', reason: `provider answered HTTP ${statusCode}` };
  const failed = (reason: string, record?: Json): InquiryClassification => ({
    kind: 'answer',
    outcome: { verdict: 'FAILED', reason, ...recordFields(record) },
  });
  if (statusCode !== 200) return failed(`provider answered HTTP ${statusCode}: ${providerMessage(body)}`);
  if (!isObject(body)) return failed('provider answer is not a JSON object');

  const record = isObject(body.data) ? body.data : undefined;
  if (body.error === true) {
    return { kind: 'answer', outcome: { verdict: 'ACCOUNT_INVALID', reason: `provider: ${providerMessage(body)}`, ...recordFields(record) } };
  }
  // A missing or non-boolean `error` is not success: the provider's own login failure body has no `error` field.
  if (body.error !== false) return failed(`provider answer has no error flag: ${providerMessage(body)}`, record);
  if (record === undefined) return failed('provider answer has no inquiry record');

  const status = text(record.status)?.trim();
  if (status === undefined || status === '') return failed('provider record has no status', record);
  if (status.toUpperCase() !== 'SUCCESS') return failed(`provider status ${status} is not SUCCESS`, record);
  const echoedBank = text(record.bank_code)?.trim();
  const echoedAccount = text(record.account_number)?.trim();
  // Exactly, case included: bank codes are opaque (`bca` and `BCA` may be different codes at a provider).
  if (echoedBank !== sent.bankCode || echoedAccount !== sent.accountNumber) {
    return failed('provider echoed a different bank code or account number than was sent', { ...record, account_holder: undefined });
  }
  const holderName = text(record.account_holder)?.trim();
  if (holderName === undefined || holderName === '') return failed('provider record has no account holder name', record);
  return { kind: 'answer', outcome: { verdict: 'VERIFIED', reason: '', ...recordFields(record) } };
}

function recordFields(record: Json | undefined): Omit<InquiryOutcome, 'verdict' | 'reason'> {
  if (record === undefined) return {};
  return {
    holderName: text(record.account_holder)?.trim(),
    bankName: text(record.name),
    fee: text(record.fee),
    inquiryStatus: text(record.status),
    inquiryId: text(record.id),
    checkedAt: text(record.updated_at),
  };
}
