import type { AccountQuery } from '../csv/validation.js';
import { maskDigitRuns } from '../logging/logger.js';
import type { InquiryOutcome } from './outcome.js';

/** An HTTP answer to an inquiry, reduced to what classification needs. */
export interface InquiryResponse {
  statusCode: number;
  /** Parsed JSON body, or undefined when the body was not JSON. */
  body: unknown;
  /** The Retry-After header as sent, if any. */
  retryAfter: string | undefined;
  /** The Content-Type header as sent, if any: named when the body is not the provider's JSON. */
  contentType?: string | undefined;
}

/**
 * What to do with an inquiry response. Only `answer` ends a row; the rest say how to try again.
 * `unauthorized` refreshes the shared token; `rate_limited` holds every worker (for `retryAfterMs`, capped
 * at MAX_RETRY_AFTER_MS; `askedMs` is what the provider asked when it was more); `transient` is retried
 * with backoff until the attempts run out.
 */
export type InquiryClassification =
  /**
   * `unusable`: not an answer in the provider's protocol (another 4xx, an envelope without its error flag or
   * record, a 401 for this account alone): the row is FAILED, and the answer shows no provider at work. A
   * FAILED answer without it (a status other than SUCCESS, a different echo, no holder name) is the provider
   * saying something about the account.
   */
  | { kind: 'answer'; outcome: InquiryOutcome; unusable?: true }
  | { kind: 'unauthorized'; message: string }
  | { kind: 'rate_limited'; retryAfterMs: number | undefined; askedMs?: number }
  | { kind: 'transient'; reason: string };

/**
 * The longest hold a 429 gets, whatever its Retry-After says (10 minutes). A provider asking for hours
 * (a quota, a mistake, 30 days) is asked again, one call, after this; `run` meanwhile gives up after
 * INQUIRY_OUTAGE_BUDGET without an answer. Without a cap a Retry-After past 24.8 days overflowed Node's
 * timers: they fire at once, and the pacer asked Redis for a slot a million times for one inquiry.
 */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/**
 * Retry-After is whole seconds or an HTTP date; as asked, not capped. A date is read against this machine's
 * clock: one already past (or a clock ahead of the provider's) says nothing usable, and gets the default hold.
 */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) || date <= now ? undefined : date - now;
}

/**
 * The provider's message as a reason may carry it: digit runs masked. Providers echo the account in their
 * messages (`Account 8372615022 not found`), and a reason outlives the batch in the account history.
 */
function providerMessage(body: unknown): string {
  return isObject(body) && typeof body.message === 'string' && body.message.trim() !== ''
    ? maskDigitRuns(body.message.trim())
    : 'no message';
}

/**
 * Turns one inquiry response (a reply) into its classification. A row can only become VERIFIED when the envelope says
 * `error: false`, the record's status is SUCCESS, the echoed bank code and account number are the ones sent
 * and the holder name has a visible character: anything else is an honest ACCOUNT_INVALID or FAILED, never
 * a match. A 200 whose body is not a JSON object is not the provider's answer (a captive proxy's page, a
 * gateway's error): transient, like a 5xx.
 */
export function classifyInquiryResponse(sent: AccountQuery, response: InquiryResponse): InquiryClassification {
  const { statusCode, body } = response;
  if (statusCode === 401) return { kind: 'unauthorized', message: providerMessage(body) };
  if (statusCode === 429) return rateLimited(parseRetryAfter(response.retryAfter));
  if (statusCode >= 500 || statusCode === 408) return { kind: 'transient', reason: `provider answered HTTP ${statusCode}` };
  const failed = (reason: string, record?: Json) =>
    ({ kind: 'answer', outcome: { verdict: 'FAILED', reason, ...unverifiedFields(record) } }) as const;
  const unusable = (reason: string, record?: Json): InquiryClassification => ({ ...failed(reason, record), unusable: true });
  if (statusCode !== 200) return unusable(`provider answered HTTP ${statusCode}: ${providerMessage(body)}`);
  if (!isObject(body)) {
    const what = body === undefined ? `is not JSON (${response.contentType?.trim() || 'no content type'})` : 'is JSON but not an object';
    return {
      kind: 'transient',
      reason: `provider answered HTTP 200 with a body that ${what}: a proxy's or a gateway's page, not the provider's answer`,
    };
  }

  const record = isObject(body.data) ? body.data : undefined;
  if (body.error === true) {
    // A rejection beside a record that says SUCCESS contradicts itself: no definitive answer either way.
    if (text(record?.status)?.trim().toUpperCase() === 'SUCCESS') {
      return failed(
        `inconsistent answer: the provider rejected the account (${providerMessage(body)}) but its record says status SUCCESS; ask again later`,
        record,
      );
    }
    return {
      kind: 'answer',
      outcome: { verdict: 'ACCOUNT_INVALID', reason: `provider: ${providerMessage(body)}`, ...unverifiedFields(record) },
    };
  }
  // A missing or non-boolean `error` is not success: the provider's own login failure body has no `error` field.
  if (body.error !== false) return unusable(`provider answer has no error flag: ${providerMessage(body)}`, record);
  if (record === undefined) return unusable('provider answer has no inquiry record');

  const status = text(record.status)?.trim();
  if (status === undefined || status === '') return unusable('provider record has no status', record);
  if (status.toUpperCase() !== 'SUCCESS') return failed(`provider status ${maskDigitRuns(status)} is not SUCCESS`, record);
  const echoedBank = text(record.bank_code)?.trim();
  const echoedAccount = text(record.account_number)?.trim();
  // Exactly, case included: bank codes are opaque (`bca` and `BCA` may be different codes at a provider).
  if (echoedBank !== sent.bankCode || echoedAccount !== sent.accountNumber) {
    return failed('provider echoed a different bank code or account number than was sent', record);
  }
  const holderName = text(record.account_holder)?.trim();
  if (holderName === undefined || holderName === '') return failed('provider record has no account holder name', record);
  if (!hasVisibleCharacter(holderName)) return failed('provider record has no account holder name (only invisible characters)', record);
  // `-`, `.`, `?`, `***` or `0` in the holder's place is a placeholder, no name: compared, it would be scored as one.
  if (!/\p{L}/u.test(holderName))
    return failed('provider record has no account holder name (no letter in it: only punctuation, digits or symbols)', record);
  return { kind: 'answer', outcome: { verdict: 'VERIFIED', reason: '', ...recordFields(record) } };
}

function rateLimited(askedMs: number | undefined): InquiryClassification {
  if (askedMs === undefined || askedMs <= MAX_RETRY_AFTER_MS) return { kind: 'rate_limited', retryAfterMs: askedMs };
  return { kind: 'rate_limited', retryAfterMs: MAX_RETRY_AFTER_MS, askedMs };
}

/**
 * Characters that show nothing: controls, format characters (zero-width space and joiners, the BOM, bidi
 * marks), separators (NBSP and the other spaces), combining marks with nothing to sit on, the default-
 * ignorable fillers (U+3164, U+115F...) and the blank Braille pattern.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}\p{M}\p{Default_Ignorable_Code_Point}\s\u2800]/gu;

const hasVisibleCharacter = (name: string): boolean => name.replace(INVISIBLE, '') !== '';

const mapText = (value: string | undefined, map: (text: string) => string): string | undefined =>
  value === undefined ? undefined : map(value);

function recordFields(record: Json): Omit<InquiryOutcome, 'verdict' | 'reason'> {
  return {
    holderName: text(record.account_holder)?.trim(),
    bankName: text(record.name),
    fee: text(record.fee),
    // Free text of the provider's, kept in the account history: an account number in it is masked.
    inquiryStatus: mapText(text(record.status), maskDigitRuns),
    inquiryId: text(record.id),
    checkedAt: text(record.updated_at),
  };
}

/**
 * What a row that is not verified shows of the provider's record: its id, time, bank and fee, for a
 * question to the provider; never its holder name, nor a status that reads SUCCESS. Both are what make a row
 * look verified, and on a rejected, inconsistent or unfinished answer they verify nothing (the reason says
 * what was wrong).
 */
function unverifiedFields(record: Json | undefined): Omit<InquiryOutcome, 'verdict' | 'reason'> {
  if (record === undefined) return {};
  const { bankName, fee, inquiryStatus, inquiryId, checkedAt } = recordFields(record);
  return {
    bankName,
    fee,
    inquiryId,
    checkedAt,
    ...(inquiryStatus !== undefined && inquiryStatus.trim().toUpperCase() !== 'SUCCESS' && { inquiryStatus }),
  };
}
