import { settledWithin } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { ProgressReport } from './settle.js';

const PROGRESS_LOG_EVERY_MS = 30_000;

/** Progress of a batch as log lines (services without a terminal): every 30 s, and whenever the reason for waiting changes. */
export function progressLogger(logger: Logger, context: Record<string, unknown>) {
  let lastAt = 0;
  let lastWaitingFor: string | undefined;
  return (report: ProgressReport) => {
    const now = Date.now();
    if (report.progress.complete || report.waitingFor !== lastWaitingFor || now - lastAt >= PROGRESS_LOG_EVERY_MS) {
      const { answered, accountCount, produced } = report.progress;
      logger.info(
        {
          ...context,
          batchId: report.batchId,
          answered,
          accounts: produced ? accountCount : undefined,
          perSecond: Number(report.answeredPerSecond.toFixed(1)),
        },
        report.waitingFor ? `waiting for ${report.waitingFor}` : report.progress.complete ? 'batch answered' : 'batch in progress',
      );
      lastAt = now;
    }
    lastWaitingFor = report.waitingFor;
  };
}

/**
 * Graceful stop of long work: `work` may finish within `timeoutMs`; past that `handBack` asks it to hand
 * its work back (left for the next start), and it is awaited once more.
 */
export async function finishOrHandBack(work: Promise<unknown>, timeoutMs: number, handBack: () => void): Promise<void> {
  if (await settledWithin(work, timeoutMs)) return;
  handBack();
  await work;
}
