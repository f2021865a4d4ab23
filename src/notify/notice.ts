import { createHmac } from 'node:crypto';

/**
 * The header that carries `sha256=<hex HMAC-SHA256 of "<timestamp>.<exact body>">`, keyed with
 * NOTIFY_WEBHOOK_SECRET: the timestamp is signed with the body, so a recorded notice replayed later fails a
 * receiver's tolerance check (5 minutes, docs/console.md, "Completion notices"; as Stripe's and Slack's signatures do).
 */
export const SIGNATURE_HEADER = 'X-Beneficiary-Check-Signature';
/** The header that carries the attempt's time, in whole seconds since the epoch (signed with the body). */
export const TIMESTAMP_HEADER = 'X-Beneficiary-Check-Timestamp';
/** The notice's own id (stable across retries): a receiver that sees it twice has seen the same notice. */
export const DELIVERY_HEADER = 'X-Beneficiary-Check-Delivery';

/** The receiver did not take the notice (non-2xx, timeout, unreachable): BullMQ retries it with backoff. */
export class NoticeNotDeliveredError extends Error {
  override name = 'NoticeNotDeliveredError';
}

/** The JSON document POSTed when a batch finishes. */
export interface CompletionNotice {
  event: 'batch.finished';
  batchId: string;
  source: { file: string; name: string };
  rows: number;
  counts: Record<string, number>;
  /** CLOSE_MATCH / NO_MATCH rows without a standing decision: what a person still has to look at. */
  needsReview: number;
  approved: number;
  rejected: number;
  report: string;
  /** What the reading of the file did that a person must know (see fileNotes), masked like the names. */
  notes: string[];
  startedAt: string;
  finishedAt: string;
  environment: string;
  /** Set when the provider stayed down past the outage budget: the unanswered rows are FAILED. */
  incomplete?: string;
}

/** What a notice job carries: the body as it will be sent, so every retry sends (and signs) the same bytes. */
export interface CompletionNoticeJobData {
  batchId: string;
  body: string;
}

export function noticeJobData(notice: CompletionNotice): CompletionNoticeJobData {
  return { batchId: notice.batchId, body: JSON.stringify(notice) };
}

/** The signature of one delivery attempt: over `<timestamp>.<body>`, timestamp in whole seconds. */
export function signNotice(body: string, secret: string, timestamp: number): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * The webhook URL as it is called, and the HTTP basic credentials its userinfo carried: fetch refuses a URL
 * with credentials (and its error quoted the password on every attempt), so they travel in a header.
 */
export function webhookTarget(url: string): { url: string; authorization: string | undefined } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url, authorization: undefined };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}
