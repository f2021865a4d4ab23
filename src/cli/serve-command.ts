import { openRuntime } from '../app/runtime.js';
import { checkBind } from '../console/access.js';
import { buildConsole } from '../console/server.js';
import { BatchRunner } from '../console/uploads.js';
import { openScheduleQueue } from '../schedule/scheduler.js';
import type { CommonFlags } from './commands.js';
import { parsePort } from './metrics-endpoint.js';
import { onShutdownSignal, stopInTurn } from './signals.js';

export interface ServeFlags extends CommonFlags {
  port: string;
  host: string;
  queueActions?: boolean;
}

/**
 * `serve`: the operations console (pages, JSON API, /queues, /metrics, /healthz, /readyz) with in-process
 * inquiry workers for the files uploaded to it (like `watch`), and the completion-notice worker. Binds
 * 127.0.0.1 unless `--host` says otherwise; any other address needs CONSOLE_TOKEN. SIGTERM/SIGINT: no new
 * request; uploaded batches may finish within SHUTDOWN_TIMEOUT_SECONDS, else they are handed back.
 */
export async function serveCommand(flags: ServeFlags): Promise<number> {
  const port = parsePort(flags.port, '--port');
  const { app, shutdown, guard } = await openRuntime(flags, { provider: 'required', service: true });
  const scheduleQueue = openScheduleQueue(app.redis, app.keys, app.logger);
  const closeAll = async () => {
    await scheduleQueue.close();
    await shutdown();
  };
  try {
    checkBind(flags.host, app.config.console.token);
    await guard(app.startWorkers());
    const runner = new BatchRunner(app.lifecycle, app.logger);
    const server = await buildConsole(app, runner, {
      settings: app.config.console,
      queueActions: flags.queueActions === true,
      extraQueues: [scheduleQueue, ...(app.notices.queue === undefined ? [] : [app.notices.queue])],
    });
    await server.listen({ host: flags.host, port });
    const address = server.server.address();
    const bound = typeof address === 'object' && address !== null ? address.port : port;
    const shown = flags.host.includes(':') ? `[${flags.host}]` : flags.host;
    process.stdout.write(`operations console at http://${shown}:${bound}/ (queues at /queues, metrics at /metrics)\n`);
    app.logger.info({ host: flags.host, port: bound, access: app.config.console.token === undefined ? 'open (loopback)' : 'CONSOLE_TOKEN', reports: app.config.console.reportsDir }, 'console started');
    onShutdownSignal(async () => {
      await server.close();
      await stopInTurn(app.config.shutdownTimeoutMs, (timeoutMs) => runner.stop(timeoutMs), (withinMs) => app.stopWorkers(withinMs));
      await closeAll();
    });
    // Runs until a signal; or until Redis refuses writes (full): its typed error ends the console.
    return await guard(new Promise<never>(() => undefined));
  } catch (error) {
    await closeAll();
    throw error;
  }
}
