import { localTime } from '../clock/local-time.js';
import { Watcher } from '../watch/watcher.js';
import { columnsFrom, type ColumnFlags, type CommonFlags } from './commands.js';
import { startMetricsEndpoint, type MetricsFlags } from './metrics-endpoint.js';
import { runUntilStopped, serveUntilStopped } from './lifetime.js';

/**
 * `watch <folder>`: long-running. Runs in-process workers (like `run`), so one watcher works alone;
 * `worker` processes on this or other machines join through the same queue and rate limit.
 * SIGTERM/SIGINT/SIGHUP: no new file is taken, the active one may finish within SHUTDOWN_TIMEOUT,
 * else it is handed back (left in processing/, continued at the next start); workers finish their active
 * inquiries; Redis is closed. A watcher whose registration was taken over hands its file back and exits 1.
 * A Redis that goes away is waited for (the registration's lease decides how long the watcher keeps its
 * folder); a full Redis stops the watcher with exit 1.
 */
export async function watchCommand(folder: string, flags: CommonFlags & ColumnFlags & MetricsFlags): Promise<number> {
  return runUntilStopped(flags, { provider: 'required', service: true }, async (runtime, lifetime) => {
    const { app, guard } = runtime;
    await guard(app.startWorkers());
    const closeMetrics = await startMetricsEndpoint(app, flags);
    try {
      let registrationLost: () => void = () => undefined;
      const lost = new Promise<void>((resolve) => (registrationLost = resolve));
      const watcher = new Watcher(
        {
          lifecycle: app.lifecycle,
          redis: app.redis,
          keys: app.keys,
          logger: app.logger,
          settings: app.config.watch,
          outputFormat: app.config.outputFormat,
          columns: columnsFrom(flags),
          importReview: (request) => app.importReview({ ...request, columns: columnsFrom(flags) }),
          showTime: (at) => localTime(at, app.config.displayTimeZone),
          onRegistrationLost: () => registrationLost(),
        },
        folder,
      );
      // The loop only ends through stop() or a lost registration; or with the typed error of a Redis that
      // refuses writes (full).
      const watching = guard(
        (async () => {
          await watcher.start();
          await watcher.done();
          return new Promise<never>(() => undefined);
        })(),
      );
      const handedBack = lost.then(async () => {
        await watcher.done();
        return 1;
      });
      return await Promise.race([watching, handedBack, serveUntilStopped(runtime, lifetime, (timeoutMs) => watcher.stop(timeoutMs))]);
    } finally {
      await closeMetrics();
    }
  });
}
