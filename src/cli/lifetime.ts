import { openRuntime, type Runtime, type RuntimeOptions } from '../app/runtime.js';
import type { ConfigOverrides } from '../config/index.js';
import { timerDelay } from '../clock/clock.js';
import { onStopSignal, SIGNAL_EXIT_CODES, stoppedExitCode, stopInTurn, type StopSignal } from './signals.js';

/**
 * Time for what comes after the work's stop (closing Redis, a private redis-server, a report's file)
 * beyond SHUTDOWN_TIMEOUT, before a stop that still hangs ends the process anyway.
 */
export const CLOSE_GRACE_MS = 5_000;

/** What a long-running command sees of its stop. */
export interface Lifetime {
  /** Aborted at the first stop signal (SIGTERM, SIGINT, SIGHUP, or the parent process gone). */
  stopping: AbortSignal;
  /** The signal that stopped the command, if one did. */
  stoppedBy: () => StopSignal | undefined;
  /** Resolves at the first stop signal. */
  stopped: Promise<StopSignal>;
}

/**
 * The one shape of every long-running command (`run`, `resume`, `worker`, `watch`, `serve`, `schedule`):
 * open the runtime, run `body` until it ends by itself or a stop signal comes (`lifetime.stopping`: the body
 * stops taking work, lets the work in hand finish within SHUTDOWN_TIMEOUT or hands it back), then
 * close the runtime. Every stop is bounded: from the first signal, past SHUTDOWN_TIMEOUT and
 * CLOSE_GRACE_MS, the process exits with the signal's code whatever still hangs (a provider login, an HTTP
 * server waiting on a request, a close), saying so. A second signal exits at once. A process started with an
 * IPC channel (a `worker` that `run` started) stops the same way when the channel closes: its parent is gone.
 */
export async function runUntilStopped(
  overrides: ConfigOverrides,
  options: RuntimeOptions,
  body: (runtime: Runtime, lifetime: Lifetime) => Promise<number>,
  announce: (signal: StopSignal) => string = (signal) => `${signal}: finishing active work, then exiting (send it again to exit at once)`,
): Promise<number> {
  const runtime = await openRuntime(overrides, options);
  const stop = new AbortController();
  let signalled: StopSignal | undefined;
  let onStopped: (signal: StopSignal) => void = () => undefined;
  const stopped = new Promise<StopSignal>((resolve) => (onStopped = resolve));
  const begin = (signal: StopSignal, line: string) => {
    if (signalled !== undefined) return;
    signalled = signal;
    process.stderr.write(`${line}\n`);
    const boundMs = runtime.app.config.shutdownTimeoutMs + CLOSE_GRACE_MS;
    setTimeout(() => {
      process.stderr.write(
        `${signal}: not stopped within SHUTDOWN_TIMEOUT and ${CLOSE_GRACE_MS / 1000} s more: exiting without waiting for the rest\n`,
      );
      process.exit(SIGNAL_EXIT_CODES[signal]);
    }, timerDelay(boundMs)).unref();
    stop.abort();
    onStopped(signal);
  };
  onStopSignal((signal) => begin(signal, announce(signal)));
  if (process.send !== undefined) {
    const orphaned = () => begin('SIGTERM', 'the parent process is gone: finishing active work, then exiting');
    if (!process.connected) orphaned();
    else process.once('disconnect', orphaned);
  }
  try {
    return await body(runtime, { stopping: stop.signal, stoppedBy: () => signalled, stopped });
  } finally {
    await runtime.shutdown();
  }
}

/**
 * The body of a service (`worker`, `watch`, `serve`, `schedule`) once started: it runs until a stop signal,
 * or until the typed error of a Redis that refuses writes (full) ends it; at the signal, `stopWork` (stop
 * taking work; what is in hand may finish within the timeout, else it is handed back) and then the inquiries
 * still in flight share one SHUTDOWN_TIMEOUT.
 */
export async function serveUntilStopped(
  runtime: Runtime,
  lifetime: Lifetime,
  stopWork: (timeoutMs: number) => Promise<void> = async () => undefined,
): Promise<number> {
  const signal = await runtime.guard(lifetime.stopped);
  await stopInTurn(runtime.app.config.shutdownTimeoutMs, stopWork, (withinMs) => runtime.app.stopWorkers(withinMs));
  return stoppedExitCode(signal);
}
