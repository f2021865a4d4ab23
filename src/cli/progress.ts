import type { ProgressReport } from '../batch/settle.js';

/**
 * Progress on stderr: one updating line on a terminal, a line every few seconds (or when the reason
 * for waiting changes) in a log file or CI.
 */
export function createProgressPrinter(stream: NodeJS.WriteStream = process.stderr, everyMs = 5_000) {
  let lastPrintedAt = 0;
  let lastWaitingFor: string | undefined;
  return (report: ProgressReport) => {
    const { progress } = report;
    const total = progress.produced ? String(progress.accountCount) : '?';
    const percent = progress.accountCount > 0 ? ` (${Math.floor((progress.answered * 100) / progress.accountCount)}%)` : '';
    const remaining = progress.accountCount - progress.answered;
    const eta = progress.produced && report.answeredPerSecond > 0 && remaining > 0 ? `, about ${Math.ceil(remaining / report.answeredPerSecond)}s left` : '';
    const waiting = report.waitingFor ? ` - waiting for ${report.waitingFor}` : '';
    const line = `${report.batchId}: ${progress.answered}/${total} accounts answered${percent}, ${report.answeredPerSecond.toFixed(1)}/s${eta}${waiting}`;
    const now = Date.now();
    if (stream.isTTY) {
      stream.write(`\r\x1b[2K${line}${progress.complete ? '\n' : ''}`);
    } else if (progress.complete || report.waitingFor !== lastWaitingFor || now - lastPrintedAt >= everyMs) {
      stream.write(`${line}\n`);
      lastPrintedAt = now;
    }
    lastWaitingFor = report.waitingFor;
  };
}
