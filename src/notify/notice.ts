import { createHmac } from 'node:crypto';

/** The header that carries `sha256=<hex HMAC-SHA256 of the exact body>`, keyed with NOTIFY_WEBHOOK_SECRET. */
export const SIGNATURE_HEADER = 'X-Beneficiary-Check-Signature';
/** The notice's own id (stable across retries): a receiver that sees it twice has seen the same notice. */
export const DELIVERY_HEADER = 'X-Beneficiary-Check-Delivery';

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

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
