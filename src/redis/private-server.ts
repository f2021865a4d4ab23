import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisUnavailableError } from '../errors.js';
import { redisAnswers } from './connection.js';

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

export const HOW_TO_GET_REDIS =
  'install one (Debian/Ubuntu: `apt-get install redis-server`), start the one in docker-compose.yml (`docker compose up -d redis`), or set REDIS_URL to a Redis you have';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a throw-away `redis-server` for one run, when no Redis is configured and none answers on the
 * default address. It keeps nothing on disk and stops with the run.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'beneficiary-check-redis-'));
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory], {
    stdio: 'ignore',
  });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const failed = await Promise.race([spawnError, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100))]);
    if (failed) {
      await rm(directory, { recursive: true, force: true });
      const missing = (failed as NodeJS.ErrnoException).code === 'ENOENT';
      throw new RedisUnavailableError(
        missing
          ? `no Redis at the default address and no redis-server binary to start one: ${HOW_TO_GET_REDIS}`
          : `could not start redis-server: ${failed.message}`,
      );
    }
    if (await redisAnswers(url)) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      await rm(directory, { recursive: true, force: true });
      throw new RedisUnavailableError(`redis-server did not start on port ${port}; ${HOW_TO_GET_REDIS}`);
    }
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
