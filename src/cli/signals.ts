import { timerDelay } from '../clock/clock.js';

/** The exit code of a process stopped by a signal, as shells report it: 128 + the signal's number. */
export const SIGNAL_EXIT_CODES: Record<StopSignal, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export type StopSignal = 'SIGHUP' | 'SIGINT' | 'SIGTERM';
const STOP_SIGNALS: StopSignal[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * The first SIGTERM, SIGINT or SIGHUP (a closed terminal) calls `onFirst`; a second one exits at once with
 * the signal's exit code. Returns which signal came, if any.
 */
export function onStopSignal(onFirst: (signal: StopSignal) => void): () => StopSignal | undefined {
  let received: StopSignal | undefined;
  const handler = (signal: StopSignal) => {
    if (received !== undefined) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(SIGNAL_EXIT_CODES[signal]);
    }
    received = signal;
    onFirst(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return () => received;
}

/**
 * Graceful shutdown for long-running commands: the first signal runs `stop` (stop taking work, finish or
 * hand back active work, close Redis), then exits: 0 for a requested stop (SIGTERM from a supervisor, SIGHUP),
 * 130 for SIGINT, as shells expect. A process started with an IPC channel (a `worker` that `run` started)
 * stops the same way when the channel closes: its parent exited or was killed, and it must not outlive it;
 * then nobody is left to send a second signal, so the stop is bounded by `orphanTimeoutMs`.
 */
export function onShutdownSignal(stop: (signal: StopSignal) => Promise<void>, orphanTimeoutMs?: number): void {
  let stopping = false;
  const finish = (signal: StopSignal, line: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${line}\n`);
    stop(signal).then(
      () => process.exit(signal === 'SIGINT' ? 130 : 0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  onStopSignal((signal) => finish(signal, `${signal}: finishing active work, then exiting (send it again to exit at once)`));
  if (process.send === undefined || orphanTimeoutMs === undefined) return;
  const orphaned = () => {
    setTimeout(() => {
      process.stderr.write(`the parent process is gone and active work did not finish within ${orphanTimeoutMs / 1000}s: exiting\n`);
      process.exit(1);
    }, timerDelay(orphanTimeoutMs)).unref();
    finish('SIGTERM', 'the parent process is gone: finishing active work, then exiting');
  };
  if (!process.connected) orphaned();
  else process.once('disconnect', orphaned);
}

/**
 * A long-running command's stop within one SHUTDOWN_TIMEOUT: the batches it checks first, given the
 * whole timeout (they may finish, else they are handed back), then the inquiries still in flight, given what
 * is left of it (app.stopWorkers). Without the shared deadline each took the timeout in turn.
 */
export async function stopInTurn(timeoutMs: number, stopBatches: (timeoutMs: number) => Promise<void>, stopInquiries: (withinMs: number) => Promise<void>): Promise<void> {
  const stopBy = performance.now() + timeoutMs;
  await stopBatches(timeoutMs);
  await stopInquiries(stopBy - performance.now());
}
