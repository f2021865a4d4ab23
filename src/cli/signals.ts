/** The exit code of a process stopped by a signal, as shells report it: 128 + the signal's number. */
export const SIGNAL_EXIT_CODES: Record<StopSignal, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export type StopSignal = 'SIGHUP' | 'SIGINT' | 'SIGTERM';
const STOP_SIGNALS: StopSignal[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * The first SIGTERM, SIGINT or SIGHUP (a closed terminal) calls `onFirst`; a second one exits at once with
 * the signal's exit code.
 */
export function onStopSignal(onFirst: (signal: StopSignal) => void): void {
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
}

/** A service's exit code after a stop it completed: 0 for a requested stop (SIGTERM from a supervisor, SIGHUP), 130 for SIGINT, as shells expect. */
export const stoppedExitCode = (signal: StopSignal): number => (signal === 'SIGINT' ? 130 : 0);

/**
 * A long-running command's stop within one SHUTDOWN_TIMEOUT: the batches it checks first, given the
 * whole timeout (they may finish, else they are handed back), then the inquiries still in flight, given what
 * is left of it (app.stopWorkers). Without the shared deadline each took the timeout in turn.
 */
export async function stopInTurn(
  timeoutMs: number,
  stopBatches: (timeoutMs: number) => Promise<void>,
  stopInquiries: (withinMs: number) => Promise<void>,
): Promise<void> {
  const stopBy = performance.now() + timeoutMs;
  await stopBatches(timeoutMs);
  await stopInquiries(stopBy - performance.now());
}
