import type { Job } from 'bullmq';
import { timerDelay } from '../src/clock/clock.js';
import type { Logger } from '../src/logging/logger.js';
import { DELIVERY_HEADER, SIGNATURE_HEADER, signBody, type CompletionNoticeJobData } from '../src/notify/notice.js';

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

/** The receiver did not take the notice (non-2xx, timeout, unreachable): BullMQ retries it with backoff. */
export class NoticeNotDeliveredError extends Error {
  override name = 'NoticeNotDeliveredError';
}

/**
 * POSTs the stored body as it is, signed with HMAC-SHA256 over those exact bytes. Any 2xx is a delivery;
 * anything else (an answer, a timeout, a refused connection) throws, so BullMQ retries the job. Delivery
 * is at least once: a receiver that took the notice but answered too late gets it again, with the same
 * delivery id header.
 */
export function createCompletionNoticeProcessor(deps: CompletionNoticeDependencies) {
  const post = deps.post ?? fetch;
  return async function deliverCompletionNotice(job: Job<CompletionNoticeJobData>): Promise<{ status: number }> {
    const { batchId, body } = job.data;
    const attempt = `${job.attemptsMade + 1}/${job.opts.attempts ?? 1}`;
    let status: number;
    try {
      const response = await post(deps.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'beneficiary-check',
          [SIGNATURE_HEADER]: signBody(body, deps.secret),
          [DELIVERY_HEADER]: job.id ?? batchId,
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

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
};
