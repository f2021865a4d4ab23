import type { Job } from 'bullmq';
import { timerDelay } from '../src/clock/clock.js';
import type { Logger } from '../src/logging/logger.js';
import { redactUrls } from '../src/logging/redact-url.js';
import {
  DELIVERY_HEADER,
  NoticeNotDeliveredError,
  SIGNATURE_HEADER,
  signNotice,
  TIMESTAMP_HEADER,
  webhookTarget,
  type CompletionNoticeJobData,
} from '../src/notify/notice.js';

/** What a notice job is given: where to POST, the key to sign with, and narrow callbacks. */
export interface CompletionNoticeDependencies {
  url: string;
  secret: string;
  timeoutMs: number;
  /** The HTTP call (Node's fetch; a test may hand in its own). */
  post?: typeof fetch;
  onDelivered?: () => void;
  onAttemptFailed?: () => void;
  logger: Logger;
}

/**
 * POSTs the stored body as it is, signed with HMAC-SHA256 over the attempt's timestamp and those exact
 * bytes (a fresh timestamp per attempt: a retry is no replay). Credentials in the URL's userinfo go as HTTP
 * basic authentication. Any 2xx is a delivery;
 * anything else (an answer, a timeout, a refused connection) throws, so BullMQ retries the job. Delivery
 * is at least once: a receiver that took the notice but answered too late gets it again, with the same
 * delivery id header.
 */
export function createCompletionNoticeProcessor(deps: CompletionNoticeDependencies) {
  const post = deps.post ?? fetch;
  const target = webhookTarget(deps.url);
  return async function deliverCompletionNotice(job: Job<CompletionNoticeJobData>): Promise<{ status: number }> {
    const { batchId, body } = job.data;
    const attempt = `${job.attemptsMade + 1}/${job.opts.attempts ?? 1}`;
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number;
    try {
      const response = await post(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'beneficiary-check',
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signNotice(body, deps.secret, timestamp),
          [DELIVERY_HEADER]: job.id ?? batchId,
          ...(target.authorization !== undefined && { authorization: target.authorization }),
        },
        body,
        signal: AbortSignal.timeout(timerDelay(deps.timeoutMs)),
        redirect: 'error',
      });
      status = response.status;
      // The body is not needed; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined);
    } catch (error) {
      deps.onAttemptFailed?.();
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${deps.timeoutMs} ms` : describe(error);
      deps.logger.warn({ batchId, attempt }, `completion notice not delivered: ${reason}`);
      throw new NoticeNotDeliveredError(reason, { cause: error });
    }
    if (status < 200 || status >= 300) {
      deps.onAttemptFailed?.();
      deps.logger.warn({ batchId, attempt, status }, `completion notice not delivered: the receiver answered HTTP ${status}`);
      throw new NoticeNotDeliveredError(`the receiver answered HTTP ${status}`);
    }
    deps.onDelivered?.();
    deps.logger.info({ batchId, status }, 'completion notice delivered');
    return { status };
  };
}

/** Why an attempt failed, never with a secret of the URL (an HTTP client's error may quote the address). */
const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return redactUrls(String(error));
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return redactUrls(`${error.message}${cause}`);
};
