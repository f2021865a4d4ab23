import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { RedisUnavailableError } from '../errors.js';
import { connectRedis } from './connection.js';

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
 * Ports tried: the free port is found by binding and releasing it, and another process (a second run
 * starting at the same moment, a test's server) can take it before redis-server binds it. redis-server
 * then exits, and a Redis that answers on that port is somebody else's.
 */
const PORT_ATTEMPTS = 3;

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
 * `findPort` gives the port to try each time (PORT_ATTEMPTS at most); tests give taken ones on purpose.
 */
export async function startPrivateRedis(findPort: () => Promise<number> = freePort): Promise<PrivateRedis> {
  const taken: number[] = [];
  for (;;) {
    const port = await findPort();
    const server = await startOn(port);
    if (server !== 'port taken') return server;
    taken.push(port);
    if (taken.length === PORT_ATTEMPTS) {
      throw new RedisUnavailableError(
        `could not start a private redis-server: on ports ${taken.join(', ')} it exited before answering, or another server answered (a port taken at the same moment); run again, run \`redis-server --port 6390\` to see whether it starts at all, or set REDIS_URL to a Redis you have`,
      );
    }
  }
}

/**
 * The working directory of the Redis answering at `url` ('' when it will not say), or undefined while none
 * answers. The private server's is a directory made for it alone: that is how it is told from another.
 */
async function answeringDirectory(url: string): Promise<string | undefined> {
  let redis;
  try {
    redis = await connectRedis({ kind: 'server', url }, 1_000);
  } catch {
    return undefined;
  }
  try {
    const [, directory] = (await redis.config('GET', 'dir')) as string[];
    return directory ?? '';
  } catch {
    return '';
  } finally {
    redis.disconnect();
  }
}

/** Starts the server on `port`: 'port taken' when it exited before answering, or another process answers there. */
async function startOn(port: number): Promise<PrivateRedis | 'port taken'> {
  const directory = await mkdtemp(join(tmpdir(), 'beneficiary-check-redis-'));
  // Resolved now: a server that exits at once (its port taken) has its directory removed by the watchdog.
  const ownDirectory = await realpath(directory);
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
  for (;;) {
    const answering = await answeringDirectory(url);
    if (answering === ownDirectory) return { url, stop };
    if (ended || answering !== undefined) {
      await stop();
      return 'port taken';
    }
    if (Date.now() > deadline) return failStart(`redis-server did not start on port ${port}; ${HOW_TO_GET_REDIS}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
