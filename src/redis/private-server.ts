import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { RedisUnavailableError } from '../errors.js';
import { redisAnswers } from './connection.js';

export interface PrivateRedis {
  /** The server's unix socket path (ioredis reads a path as a socket; REDIS_URL takes one too). */
  url: string;
  stop(): Promise<void>;
}

export const HOW_TO_GET_REDIS =
  'install one (Debian/Ubuntu: `apt-get install redis-server`), start the one in docker-compose.yml (`docker compose up -d redis`), or set REDIS_URL to a Redis you have';

/** Compiled beside this module (dist/src/redis/), shipped with the package. */
const WATCHDOG = fileURLToPath(new URL('./private-server-watchdog.js', import.meta.url));

const START_TIMEOUT_MS = 10_000;

/** The socket's name in the server's directory. */
const SOCKET_NAME = 'redis.sock';

/** The longest unix socket path the kernel takes (sun_path: 108 bytes on Linux, 104 on macOS, with its NUL). */
const MAX_SOCKET_PATH_BYTES = 103;

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

/**
 * Starts a throw-away `redis-server` for one run, when no Redis is configured and none answers on the
 * default address. It keeps nothing on disk and never outlives the run: it is started by a watchdog process
 * (private-server-watchdog.ts) that holds a pipe from this process and stops the server, and removes its
 * directory, when the pipe closes: at `stop()`, and also when this process crashes or is killed with SIGKILL.
 *
 * It is private to the user who runs it: no TCP port at all, only a unix socket (mode 0700) in a directory
 * made for it (mode 0700, mkdtemp). Another local user who reads its command line in `ps` learns the path,
 * and the kernel refuses them the directory. The run's `worker` processes are given the path in REDIS_URL.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const directory = await mkdtemp(join(tmpdir(), 'beneficiary-check-redis-'));
  const socket = join(directory, SOCKET_NAME);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH_BYTES) {
    await rm(directory, { recursive: true, force: true });
    throw new RedisUnavailableError(
      `cannot start a private redis-server: its socket path ${socket} is longer than a unix socket path may be (${MAX_SOCKET_PATH_BYTES} bytes); set TMPDIR to a shorter folder (e.g. /tmp), or set REDIS_URL to a Redis you have`,
    );
  }
  // hash-max-ziplist-value: the name Redis 6 knows as well; Redis 7 and later read it as hash-max-listpack-value.
  const serverArgs = [
    '--port',
    '0',
    '--unixsocket',
    socket,
    '--unixsocketperm',
    '700',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    directory,
    '--hash-max-ziplist-value',
    String(HASH_MAX_LISTPACK_VALUE),
  ];
  // Its own session: a Ctrl-C or a closed terminal reaches `run` (which stops gracefully), not the server under it.
  const watchdog = spawn(process.execPath, [WATCHDOG, directory, 'redis-server', ...serverArgs], {
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
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
    new Promise<string | undefined>((resolve) =>
      createInterface({ input: watchdog.stdout! })
        .once('line', resolve)
        .once('close', () => resolve(undefined)),
    ),
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
  // Nobody else can create a socket in this directory: whatever answers there is this server.
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await redisAnswers(socket))) {
    if (ended)
      return failStart(`redis-server exited at once: run \`redis-server --port 6390\` to see why, or set REDIS_URL to a Redis you have`);
    if (Date.now() > deadline)
      return failStart(`redis-server did not answer on its socket ${socket} within ${START_TIMEOUT_MS / 1000} s; ${HOW_TO_GET_REDIS}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: socket, stop };
}
