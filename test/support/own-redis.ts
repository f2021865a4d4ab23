import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/**
 * A redis-server of a test's own, on a free port, for fault tests (stopped, restarted, flushed, full): the
 * shared Redis is never stopped, flushed or reconfigured.
 */
export interface OwnRedis {
  port: number;
  /** With the password when there is one. */
  url: string;
  /** A client for the test itself (reconnects after a restart). */
  client: Redis;
  /** Stops the server (SIGTERM: with persistence on, what it holds is on disk). */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  remove(): Promise<void>;
}

/** A port nothing listens on now (127.0.0.1). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startOwnRedis(options: { persistent?: boolean; password?: string } = {}): Promise<OwnRedis> {
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'bc-own-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--dir',
    directory,
    ...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    ...(options.password ? ['--requirepass', options.password] : []),
  ];
  const url = `redis://${options.password ? `:${options.password}@` : ''}127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);

  const start = async () => {
    server = spawn('redis-server', args, { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        probe.disconnect();
        if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const stop = async () => {
    const running = server;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  const client = new Redis(url, { maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  return {
    port,
    url,
    client,
    stop,
    start,
    async remove() {
      client.disconnect();
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
