import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { RedisUnavailableError } from '../errors.js';
import { redisAnswers } from './connection.js';

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

export const HOW_TO_GET_REDIS =
  'install one (Debian/Ubuntu: `apt-get install redis-server`), start the one in docker-compose.yml (`docker compose up -d redis`), or set REDIS_URL to a Redis you have';

/** Compiled beside this module (dist/src/redis/), shipped with the package. */
const WATCHDOG = fileURLToPath(new URL('./private-server-watchdog.js', import.meta.url));

const START_TIMEOUT_MS = 10_000;

/**
 * The longest hash value (bytes) a Redis of the product keeps in a compact listpack; docker-compose.yml sets
 * the same. Redis's default, 64, is below every account history entry (80-92 bytes in the emulator, 86
 * typical; src/history/entry-codec.ts), so every history bucket was a hashtable: at 200,000 rows (180,000
 * accounts) the history took about 290 bytes of Redis per account instead of about 205 (bench/footprint.js).
 * 256 leaves room for long holder names, bank names and rejection reasons: one longer value turns its bucket
 * (about 14 accounts at 900,000) into a hashtable for good. A lookup in a listpack that size (a scan of a
 * dozen entries) measured no slower than in a hashtable (about 1 microsecond each).
 */
export const HASH_MAX_LISTPACK_VALUE = 256;

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

/**
 * Starts a throw-away `redis-server` for one run, when no Redis is configured and none answers on the
 * default address. It keeps nothing on disk and never outlives the run: it is started by a watchdog process
 * (private-server-watchdog.ts) that holds a pipe from this process and stops the server, and removes its
 * directory, when the pipe closes: at `stop()`, and also when this process crashes or is killed with SIGKILL.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'beneficiary-check-redis-'));
  // hash-max-ziplist-value: the name Redis 6 knows as well; Redis 7 and later read it as hash-max-listpack-value.
  const serverArgs = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory, '--hash-max-ziplist-value', String(HASH_MAX_LISTPACK_VALUE)];
  // Its own session: a Ctrl-C or a closed terminal reaches `run` (which stops gracefully), not the server under it.
  const watchdog = spawn(process.execPath, [WATCHDOG, directory, 'redis-server', ...serverArgs], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
  let ended = false;
  const exited = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
  void exited.then(() => (ended = true));
  const stop = async () => {
    watchdog.stdin?.end();
    await exited;
    // The watchdog removes it; this covers a watchdog that could not start.
    await rm(directory, { recursive: true, force: true });
  };
  const failStart = async (message: string): Promise<never> => {
    await stop();
    throw new RedisUnavailableError(message);
  };

  const firstLine = await Promise.race([
    new Promise<string | undefined>((resolve) => createInterface({ input: watchdog.stdout! }).once('line', resolve).once('close', () => resolve(undefined))),
    new Promise<Error>((resolve) => watchdog.once('error', resolve)),
  ]);
  if (firstLine instanceof Error) return failStart(`could not start the redis-server watchdog: ${firstLine.message}`);
  if (!/^started \d+$/.test(firstLine ?? '')) {
    const missing = firstLine?.startsWith('failed ENOENT') === true;
    return failStart(
      missing
        ? `no redis-server binary to start a private Redis with: ${HOW_TO_GET_REDIS}`
        : `could not start redis-server: ${firstLine?.replace(/^failed \S+ /, '') ?? 'its watchdog ended'}`,
    );
  }
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await redisAnswers(url))) {
    if (ended || Date.now() > deadline) return failStart(`redis-server did not start on port ${port}; ${HOW_TO_GET_REDIS}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop };
}
