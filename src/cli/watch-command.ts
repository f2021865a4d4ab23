import { Watcher } from '../watch/watcher.js';
import { columnsFrom, type ColumnFlags, type CommonFlags } from './commands.js';
import { openRuntime } from './runtime.js';
import { onShutdownSignal } from './signals.js';

/**
 * `watch <folder>`: long-running. Runs in-process workers (like `run`), so one watcher works alone;
 * `worker` processes on this or other machines join through the same queue and rate limit.
 * SIGTERM/SIGINT: no new file is taken, the active one may finish within SHUTDOWN_TIMEOUT_SECONDS,
 * else it is handed back (left in processing/, continued at the next start); workers finish their
 * active inquiries; Redis is closed.
 */
export async function watchCommand(folder: string, flags: CommonFlags & ColumnFlags): Promise<number> {
  const { services, shutdown } = await openRuntime(flags, { oneShot: false });
  try {
    await services.startWorkers();
    const watcher = new Watcher(services, folder, {
      columns: columnsFrom(flags),
    });
    onShutdownSignal(async () => {
      await watcher.stop(services.config.shutdownTimeoutMs);
      await shutdown();
    });
    await watcher.start();
    await watcher.done();
    // The loop only ends through stop(), whose signal handler exits the process.
    await new Promise(() => undefined);
    return 0;
  } catch (error) {
    await shutdown();
    throw error;
  }
}
