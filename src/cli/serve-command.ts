import { checkBind, checkConsoleToken } from '../console/access.js';
import { buildConsole } from '../console/server.js';
import { BatchRunner } from '../console/uploads.js';
import { openNightlyRunQueue } from '../schedule/scheduler.js';
import type { CommonFlags } from './commands.js';
import { parsePort } from './metrics-endpoint.js';
import { runUntilStopped, serveUntilStopped } from './lifetime.js';

export interface ServeFlags extends CommonFlags {
  port: string;
  host: string;
  queueActions?: boolean;
}

/**
 * `serve`: the operations console (pages, JSON API, the review desk, /queues, /metrics, /healthz, /readyz)
 * with in-process inquiry workers for the files uploaded to it (like `watch`), and the completion-notice
 * worker. Without the provider's settings it starts read-only: no workers, uploads refused. Binds
 * 127.0.0.1 unless `--host` says otherwise; any other address needs CONSOLE_TOKEN. SIGTERM/SIGINT: no new
 * request; uploaded batches may finish within SHUTDOWN_TIMEOUT, else they are handed back (see
 * runUntilStopped for the bound).
 */
/** How often a stopping console closes the connections whose requests were answered meanwhile. */
const IDLE_CLOSE_MS = 100;

export async function serveCommand(flags: ServeFlags): Promise<number> {
  const port = parsePort(flags.port, '--port');
  return runUntilStopped(flags, { provider: 'optional', service: true }, async (runtime, lifetime) => {
    const { app, guard, providerReady, providerMissing } = runtime;
    const scheduleQueue = openNightlyRunQueue(app.redis, app.keys, app.logger);
    try {
      checkConsoleToken(app.config.console.token);
      checkBind(flags.host, app.config.console.token);
      // Without the provider's settings the console still shows every batch, report and decision: it only
      // cannot check new files (a review desk that holds no provider credentials is a fine thing to run).
      if (providerReady) await guard(app.startWorkers());
      else
        app.logger.warn(
          { reason: providerMissing },
          'no provider settings: the console starts read-only (uploads are refused; batches, reports and decisions are shown)',
        );
      const runner = providerReady ? new BatchRunner(app.lifecycle, app.logger) : undefined;
      const server = await buildConsole(app, runner, {
        settings: app.config.console,
        uploadsOff: providerMissing,
        queueActions: flags.queueActions === true,
        extraQueues: [scheduleQueue, ...(app.notices.queue === undefined ? [] : [app.notices.queue])],
      });
      await server.listen({ host: flags.host, port });
      const address = server.server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : port;
      const shown = flags.host.includes(':') ? `[${flags.host}]` : flags.host;
      process.stdout.write(`operations console at http://${shown}:${bound}/ (queues at /queues, metrics at /metrics)\n`);
      app.logger.info(
        {
          host: flags.host,
          port: bound,
          access: app.config.console.token === undefined ? 'open (loopback)' : 'CONSOLE_TOKEN',
          decisions: app.config.console.userHeader ?? 'off (no CONSOLE_USER_HEADER)',
          reports: app.config.console.reportsDir,
        },
        'console started',
      );
      const persistence = await app.decisions.persistenceWarning();
      if (persistence !== undefined) app.logger.warn(persistence);
      // At the stop: no new request, and the uploaded batches (an upload's request may be waiting on their
      // start, a login for one) finish or are handed back meanwhile, so that neither waits on the other. A
      // connection is closed as soon as its last answer is sent: the server closes only those idle at its
      // close, and would keep the others alive for their keep-alive timeout.
      return await serveUntilStopped(runtime, lifetime, async (timeoutMs) => {
        const closeIdle = setInterval(() => server.server.closeIdleConnections(), IDLE_CLOSE_MS);
        try {
          await Promise.all([server.close(), runner?.stop(timeoutMs)]);
        } finally {
          clearInterval(closeIdle);
        }
      });
    } finally {
      await scheduleQueue.close();
    }
  });
}
