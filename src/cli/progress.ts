import { Writable } from 'node:stream';
import { createLogUpdate } from 'log-update';
import type { DestinationStream } from 'pino';
import type { ProgressReport } from '../batch/settle.js';

/** Counts of the rows decided so far that a person watching wants to see early. */
export interface CountsSoFar {
  NO_MATCH: number;
  FAILED: number;
}

export interface ProgressDisplay {
  /** Shows a progress report (and the counts so far, when known). */
  update(report: ProgressReport, counts?: CountsSoFar): void;
  /** Leaves the last line in place (the summary follows on its own line). */
  done(): void;
  /** For the logger: log lines written above the live line, never through it. */
  readonly logDestination: DestinationStream | undefined;
}

/** The line itself: plain text, no colours, so it can be cut to the terminal's width by characters. */
export function progressText(report: ProgressReport, counts: CountsSoFar | undefined): string {
  const { progress } = report;
  const total = progress.produced ? String(progress.accountCount) : '?';
  const percent = progress.accountCount > 0 ? ` (${Math.floor((progress.answered * 100) / progress.accountCount)}%)` : '';
  const remaining = progress.accountCount - progress.answered;
  const eta =
    progress.produced && report.answeredPerSecond > 0 && remaining > 0
      ? `, about ${Math.ceil(remaining / report.answeredPerSecond)}s left`
      : '';
  // The counts come early in the line: a narrow terminal cuts the end, and these matter more than the speed.
  const soFar = counts === undefined ? '' : `, so far ${counts.NO_MATCH} NO_MATCH ${counts.FAILED} FAILED`;
  const waiting = report.waitingFor ? ` - waiting for ${report.waitingFor}` : '';
  return `${report.batchId}: ${progress.answered}/${total} answered${percent}${soFar}, ${report.answeredPerSecond.toFixed(1)}/s${eta}${waiting}`;
}

/** Cut to one terminal line: a wrapped line could not be redrawn in place on every terminal. */
export const fitToWidth = (text: string, columns: number | undefined): string =>
  columns === undefined || columns < 10 || text.length < columns ? text : `${text.slice(0, columns - 2)}…`;

/**
 * Progress on stderr. On a terminal: one live line redrawn in place (log-update), cut to the terminal's
 * width, with log lines written above it; `done()` leaves it, so the summary starts on a clean line. In a
 * log file or CI: a line every few seconds, and whenever the reason for waiting changes.
 */
export function createProgressDisplay(stream: NodeJS.WriteStream = process.stderr, everyMs = 5_000): ProgressDisplay {
  // A pseudo-terminal that reports no rows would have every frame cut away: lines then, as in a log.
  if (stream.isTTY && (stream.rows ?? 0) > 0) {
    const live = createLogUpdate(stream);
    let current = '';
    let finished = false;
    return {
      update: (report, counts) => {
        if (finished) return;
        current = fitToWidth(progressText(report, counts), stream.columns);
        live(current);
      },
      done: () => {
        if (finished) return;
        finished = true;
        if (current === '') live.clear();
        else live.done();
      },
      // A real stream: the readable (pino-pretty) formatter pipes into it.
      logDestination: new Writable({
        write(line: Buffer | string, _encoding, callback) {
          if (finished || current === '') {
            stream.write(line);
          } else {
            live.clear();
            stream.write(line);
            live(current);
          }
          callback();
        },
      }),
    };
  }
  let lastPrintedAt = 0;
  let lastWaitingFor: string | undefined;
  return {
    update: (report, counts) => {
      const now = Date.now();
      if (report.progress.complete || report.waitingFor !== lastWaitingFor || now - lastPrintedAt >= everyMs) {
        stream.write(`${progressText(report, counts)}\n`);
        lastPrintedAt = now;
      }
      lastWaitingFor = report.waitingFor;
    },
    done: () => undefined,
    logDestination: undefined,
  };
}
