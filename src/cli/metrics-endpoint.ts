import type { App } from '../app/app.js';
import { UsageError } from '../errors.js';

export interface MetricsFlags {
  metricsPort?: string;
  metricsHost?: string;
}

/** `--port` and `--metrics-port`: a whole number 0-65535 (0: any free port). */
export function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`${flag} must be a port number (0-65535), not ${JSON.stringify(value)}`);
  return port;
}

/**
 * `--metrics-port N` on the long-running commands (worker, watch, schedule): this process's /metrics and
 * /healthz, for Prometheus and for a container health check. Bound to 127.0.0.1 unless `--metrics-host`
 * says otherwise (the figures are counts, no personal data). Returns how to close it.
 */
export async function startMetricsEndpoint(app: App, flags: MetricsFlags): Promise<() => Promise<void>> {
  if (flags.metricsPort === undefined) return async () => undefined;
  const port = parsePort(flags.metricsPort, '--metrics-port');
  // Loaded only when asked for: Fastify and the console are no part of a command without the endpoint.
  const { buildMetricsServer } = await import('../console/server.js');
  const server = await buildMetricsServer(app);
  await server.listen({ host: flags.metricsHost ?? '127.0.0.1', port });
  const address = server.server.address();
  app.logger.info(
    { metrics: typeof address === 'object' && address !== null ? `${address.address}:${address.port}` : address },
    'metrics endpoint listening',
  );
  return () => server.close();
}
