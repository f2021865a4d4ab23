import { spawnSync } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, readlink, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccountHistory } from '../../src/history/account-history.js';
import { redisKeys } from '../../src/redis/keys.js';
import { HASH_MAX_LISTPACK_VALUE } from '../../src/redis/private-server.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { waitFor } from '../ops/ops-helpers.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { readReport } from '../support/report.js';
import { answeredAccounts } from './process-helpers.js';

/**
 * The private redis-server of `run` (PRIVATE_REDIS=always: the shared Redis answers at the default address,
 * so the test asks for a private one instead of hiding the shared one). It must not outlive its run: not
 * after a normal end, not after the run is killed with SIGKILL.
 */
let workDir: string;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The redis-server processes listening on `socket` (it names itself `redis-server unixsocket:<path>`), with their working directory. */
async function redisServersOn(socket: string): Promise<Array<{ pid: number; directory: string; commandLine: string }>> {
  const found: Array<{ pid: number; directory: string; commandLine: string }> = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const title = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!title.startsWith(`redis-server unixsocket:${socket}`)) continue;
    found.push({
      pid: Number(entry),
      directory: await readlink(`/proc/${entry}/cwd`).catch(() => ''),
      commandLine: title.replace(/\0/g, ' '),
    });
  }
  return found;
}

/** The built module: its watchdog is compiled beside it. */
const builtPrivateServer = new URL('../../dist/src/redis/private-server.js', import.meta.url).href;

/** Where the run says its private server is: a unix socket path (a redis:// address before it was made private). */
const privateAddress = (stderr: string): string | undefined =>
  /started a private redis-server (?:for this run on the unix socket (\S+)|at (redis:\/\/\S+))/
    .exec(stderr)
    ?.slice(1)
    .find((each) => each !== undefined);

/**
 * What another local user (uid 65534, `nobody`) gets when it tries the address `ps` and the run showed:
 * PONG means it reached the server. Needs root to switch users (undefined otherwise).
 */
function asAnotherUser(address: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const target = address.startsWith('/') ? `{ path: ${JSON.stringify(address)} }` : `{ port: ${new URL(address).port}, host: '127.0.0.1' }`;
  const script = `const socket = require('node:net').connect(${target}); socket.on('connect', () => socket.write('PING\\r\\n')); socket.on('data', (data) => { process.stdout.write(String(data).trim()); process.exit(0); }); socket.on('error', (error) => { process.stdout.write(error.code); process.exit(0); });`;
  const result = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', script], {
    encoding: 'utf8',
    cwd: '/',
    timeout: 10_000,
  });
  return result.stdout || `exit ${result.status}: ${result.stderr}`;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-private-redis-'));
});

describe('the private redis-server of run', () => {
  it('is gone, with its directory, within seconds after the run is killed with SIGKILL', async () => {
    const file = join(workDir, 'killed.csv');
    await writeBeneficiaryFile(file, syntheticAccounts(24));
    const run = startCli(
      ['run', file, '--out', join(workDir, 'killed.out.csv'), '--rate', '4/s'],
      cliEnvironment({ PRIVATE_REDIS: 'always' }),
    );
    try {
      const socket = await waitFor(() => privateAddress(run.output().stderr), 30_000, 'the private redis-server');
      const [server] = await waitFor(
        async () => {
          const servers = await redisServersOn(socket);
          return servers.length > 0 && servers;
        },
        10_000,
        'its process',
      );
      expect(await exists(server!.directory)).toBe(true);
      // Killed while it works: once answers are stored in it.
      const privateRedis = new Redis(socket, { lazyConnect: true });
      try {
        await waitFor(async () => (await answeredAccounts(privateRedis, 'bc')).length >= 2, 30_000, 'two answers stored');
      } finally {
        privateRedis.disconnect();
      }
      run.kill('SIGKILL');
      await waitForExit(run);
      await waitFor(
        async () => (await redisServersOn(socket)).length === 0 && !(await exists(server!.directory)),
        5_000,
        'the redis-server and its directory to be gone',
      );
    } finally {
      if (run.exitCode === null) run.kill('SIGKILL');
    }
  });

  it('checks a file end to end, then stops with the run and leaves nothing', async () => {
    const out = join(workDir, 'whole.out.csv');
    const result = await runCli(['run', 'examples/beneficiaries.csv', '--out', out], cliEnvironment({ PRIVATE_REDIS: 'always' }));
    expect(result.code).toBe(0);
    expect(await readReport(out)).toHaveLength(28);
    const socket = privateAddress(result.stderr)!;
    expect(await redisServersOn(socket)).toEqual([]);
  });

  it("keeps an account history bucket a compact listpack (Redis's default would make it a hashtable)", async () => {
    const { startPrivateRedis } = (await import(builtPrivateServer)) as typeof import('../../src/redis/private-server.js');
    const server = await startPrivateRedis();
    const redis = new Redis(server.url);
    try {
      expect(await redis.config('GET', 'hash-max-listpack-value')).toEqual(['hash-max-listpack-value', String(HASH_MAX_LISTPACK_VALUE)]);
      const history = new AccountHistory(redis, redisKeys('bc'), 3600_000, () => 1_800_000_000_000);
      const outcome = {
        verdict: 'VERIFIED',
        reason: '',
        holderName: 'RADEN AJENG KARTINI DJOJOADHININGRAT',
        bankName: 'BANK RAKYAT INDONESIA',
        fee: '6500',
        inquiryStatus: 'SUCCESS',
        inquiryId: '1234567890',
        checkedAt: '2026-11-23T01:36:10.851126Z',
      } as const;
      await history.record('inquiries-sandbox-x', '002:0123456789', {
        outcome,
        batchId: 'b20261123-013610-a1b2c3',
        answeredAt: 1_800_000_000_000,
      });
      const [bucket] = await redis.keys('bc:history:*');
      expect(await redis.object('ENCODING', bucket!)).toBe('listpack');
    } finally {
      redis.disconnect();
      await server.stop();
    }
  });

  it('is private: no TCP port, a 0700 socket in a 0700 directory; another local user who reads `ps` cannot reach it', async () => {
    const file = join(workDir, 'private.csv');
    await writeBeneficiaryFile(file, syntheticAccounts(24));
    const run = startCli(
      ['run', file, '--out', join(workDir, 'private.out.csv'), '--rate', '4/s'],
      cliEnvironment({ PRIVATE_REDIS: 'always' }),
    );
    try {
      const address = await waitFor(() => privateAddress(run.output().stderr), 30_000, 'the private redis-server');
      // A unix socket, never a TCP address: nothing on any port for a local process to try.
      expect(address).toMatch(/^\/.*\/redis\.sock$/);
      const [server] = await waitFor(
        async () => {
          const servers = await redisServersOn(address);
          return servers.length > 0 && servers;
        },
        10_000,
        'its process',
      );
      // What `ps` shows: the socket path, no port and no password.
      expect(server!.commandLine).not.toMatch(/:\d{2,5}\b|requirepass/);
      const own = new Redis(address);
      try {
        expect(await own.config('GET', 'port')).toEqual(['port', '0']);
        expect(await own.config('GET', 'unixsocketperm')).toEqual(['unixsocketperm', '700']);
      } finally {
        own.disconnect();
      }
      expect((await stat(address)).mode & 0o777).toBe(0o700);
      expect((await stat(dirname(address))).mode & 0o777).toBe(0o700);
      const attempt = asAnotherUser(address);
      if (attempt === undefined) console.warn('SKIPPED: not root, so no other user to try the socket as; the modes above were checked');
      else expect(attempt).toBe('EACCES');
      // The run itself, and its answers, go on through the socket.
      expect(await waitForExit(run)).toBe(0);
    } finally {
      if (run.exitCode === null) run.kill('SIGKILL');
    }
  });

  it('says how to get redis-server when there is none to start', async () => {
    const emptyPath = join(workDir, 'empty-path');
    await mkdir(emptyPath);
    const result = await runCli(['run', 'examples/beneficiaries.csv', '--out', join(workDir, 'none.csv')], {
      ...cliEnvironment({ PRIVATE_REDIS: 'always' }),
      PATH: emptyPath,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no redis-server binary to start a private Redis');
    expect(result.stderr).toContain('apt-get install redis-server');
  });
});
