import { access, mkdir, mkdtemp, readdir, readFile, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccountHistory } from '../../src/history/account-history.js';
import { redisKeys } from '../../src/redis/keys.js';
import { freePort, HASH_MAX_LISTPACK_VALUE } from '../../src/redis/private-server.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { waitFor } from '../ops/ops-helpers.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { startOwnRedis } from '../support/own-redis.js';
import { readReport } from '../support/report.js';
import { answeredAccounts } from './process-helpers.js';

/**
 * The private redis-server of `run` (PRIVATE_REDIS=always: the shared Redis answers at the default address,
 * so the test asks for a private one instead of hiding the shared one). It must not outlive its run: not
 * after a normal end, not after the run is killed with SIGKILL.
 */
let workDir: string;

const exists = (path: string) => access(path).then(() => true, () => false);

/** The redis-server processes listening on `port` (it names itself `redis-server 127.0.0.1:<port>`), with their working directory. */
async function redisServersOn(port: string): Promise<Array<{ pid: number; directory: string }>> {
  const found: Array<{ pid: number; directory: string }> = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const title = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!title.startsWith(`redis-server 127.0.0.1:${port}`)) continue;
    found.push({ pid: Number(entry), directory: await readlink(`/proc/${entry}/cwd`).catch(() => '') });
  }
  return found;
}

/** The built module: its watchdog is compiled beside it. */
const builtPrivateServer = new URL('../../dist/src/redis/private-server.js', import.meta.url).href;

const privatePort = (stderr: string): string | undefined => /started a private redis-server at redis:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-private-redis-'));
});

describe('the private redis-server of run', () => {
  it('is gone, with its directory, within seconds after the run is killed with SIGKILL', async () => {
    const file = join(workDir, 'killed.csv');
    await writeBeneficiaryFile(file, syntheticAccounts(24));
    const run = startCli(['run', file, '--out', join(workDir, 'killed.out.csv'), '--rate', '4/s'], cliEnvironment({ PRIVATE_REDIS: 'always' }));
    try {
      const port = await waitFor(() => privatePort(run.output().stderr), 30_000, 'the private redis-server');
      const [server] = await waitFor(async () => {
        const servers = await redisServersOn(port);
        return servers.length > 0 && servers;
      }, 10_000, 'its process');
      expect(await exists(server!.directory)).toBe(true);
      // Killed while it works: once answers are stored in it.
      const privateRedis = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true });
      try {
        await waitFor(async () => (await answeredAccounts(privateRedis, 'bc')).length >= 2, 30_000, 'two answers stored');
      } finally {
        privateRedis.disconnect();
      }
      run.kill('SIGKILL');
      await waitForExit(run);
      await waitFor(async () => (await redisServersOn(port)).length === 0 && !(await exists(server!.directory)), 5_000, 'the redis-server and its directory to be gone');
    } finally {
      if (run.exitCode === null) run.kill('SIGKILL');
    }
  });

  it('checks a file end to end, then stops with the run and leaves nothing', async () => {
    const out = join(workDir, 'whole.out.csv');
    const result = await runCli(['run', 'examples/beneficiaries.csv', '--out', out], cliEnvironment({ PRIVATE_REDIS: 'always' }));
    expect(result.code).toBe(0);
    expect(await readReport(out)).toHaveLength(28);
    const port = privatePort(result.stderr)!;
    expect(await redisServersOn(port)).toEqual([]);
  });

  it("keeps an account history bucket a compact listpack (Redis's default would make it a hashtable)", async () => {
    const { startPrivateRedis } = (await import(builtPrivateServer)) as typeof import('../../src/redis/private-server.js');
    const server = await startPrivateRedis();
    const redis = new Redis(server.url);
    try {
      expect(await redis.config('GET', 'hash-max-listpack-value')).toEqual(['hash-max-listpack-value', String(HASH_MAX_LISTPACK_VALUE)]);
      const history = new AccountHistory(redis, redisKeys('bc'), 3600_000, () => 1_800_000_000_000);
      const outcome = { verdict: 'VERIFIED', reason: '', holderName: 'RADEN AJENG KARTINI DJOJOADHININGRAT', bankName: 'BANK RAKYAT INDONESIA', fee: '6500', inquiryStatus: 'SUCCESS', inquiryId: '1234567890', checkedAt: '2026-11-23T01:36:10.851126Z' } as const;
      await history.record('inquiries-sandbox-x', '002:0123456789', { outcome, batchId: 'b20261123-013610-a1b2c3', answeredAt: 1_800_000_000_000 });
      const [bucket] = await redis.keys('bc:history:*');
      expect(await redis.object('ENCODING', bucket!)).toBe('listpack');
    } finally {
      redis.disconnect();
      await server.stop();
    }
  });

  it('starts on another port when its own was taken meanwhile, and never mistakes the Redis there for its own', async () => {
    const { startPrivateRedis } = (await import(builtPrivateServer)) as typeof import('../../src/redis/private-server.js');
    // Found free, then taken before redis-server could listen: by another Redis, then by a server that is no Redis.
    const otherRedis = await startOwnRedis();
    const notRedis = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => notRedis.listen(0, '127.0.0.1', resolve));
    const notRedisPort = (notRedis.address() as AddressInfo).port;
    const ports = [otherRedis.port, notRedisPort];
    const tried: number[] = [];
    const server = await startPrivateRedis(async () => {
      const port = ports.shift() ?? (await freePort());
      tried.push(port);
      return port;
    });
    const own = new Redis(server.url);
    try {
      expect(tried).toHaveLength(3);
      expect(server.url).toBe(`redis://127.0.0.1:${tried[2]}`);
      const [, directory] = (await own.config('GET', 'dir')) as string[];
      expect(directory).toContain('beneficiary-check-redis-');
      // The other Redis is untouched, and no private server was left on either taken port.
      expect(await otherRedis.client.ping()).toBe('PONG');
      expect(await redisServersOn(String(notRedisPort))).toEqual([]);
    } finally {
      own.disconnect();
      await server.stop();
      await otherRedis.remove();
      notRedis.close();
    }
  });

  it('gives up after three taken ports, saying what to do', async () => {
    const { startPrivateRedis } = (await import(builtPrivateServer)) as typeof import('../../src/redis/private-server.js');
    const otherRedis = await startOwnRedis();
    try {
      const error = await startPrivateRedis(async () => otherRedis.port).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        `could not start a private redis-server: on ports ${[1, 2, 3].map(() => otherRedis.port).join(', ')} it exited before answering, or another server answered (a port taken at the same moment); run again, run \`redis-server --port 6390\` to see whether it starts at all, or set REDIS_URL to a Redis you have`,
      );
    } finally {
      await otherRedis.remove();
    }
  });

  it('says how to get redis-server when there is none to start', async () => {
    const emptyPath = join(workDir, 'empty-path');
    await mkdir(emptyPath);
    const result = await runCli(['run', 'examples/beneficiaries.csv', '--out', join(workDir, 'none.csv')], { ...cliEnvironment({ PRIVATE_REDIS: 'always' }), PATH: emptyPath });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no redis-server binary to start a private Redis');
    expect(result.stderr).toContain('apt-get install redis-server');
  });
});
