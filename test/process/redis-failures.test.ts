import { access, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { waitFor } from '../ops/ops-helpers.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { readReport } from '../support/report.js';
import { answeredAccounts, errorLines, STACK_FRAME } from './process-helpers.js';

/**
 * Redis failing under the commands, on a redis-server of the test's own: gone for good, gone for a
 * moment, flushed, full. Each ends in one typed line (or is ridden out), never a wait for ever, a raw
 * stack, ioredis' "Unhandled error event", or a usage error's exit code.
 */
const accounts = syntheticAccounts(24);
let sandbox: SandboxServer;
let workDir: string;
let own: OwnRedis | undefined;
const prefix = 'bc-redis-failures';

function environment(url: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cliEnvironment({
    REDIS_URL: url,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    ...extra,
  });
}

async function beneficiaries(name: string): Promise<string> {
  const file = join(workDir, `${name}.csv`);
  await writeBeneficiaryFile(file, accounts);
  return file;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Nothing but typed lines and log lines: no stack, no ioredis complaint. */
function expectNoRawErrors(stderr: string): void {
  expect(stderr).not.toMatch(STACK_FRAME);
  expect(stderr).not.toContain('Unhandled error event');
  expect(stderr).not.toContain('unexpected error');
}

beforeAll(async () => {
  sandbox = await startSandbox({ accounts, latencyMs: { min: 20, max: 20 } });
  workDir = await mkdtemp(join(tmpdir(), 'bc-redis-failures-'));
});

afterEach(async () => {
  await own?.remove();
  own = undefined;
});

afterAll(async () => {
  await sandbox.close();
});

describe('Redis going away under run', () => {
  it('gone for good: exit 1 within the budget, naming Redis and its URL without the password', async () => {
    own = await startOwnRedis({ password: 's3cret-pw' });
    const out = join(workDir, 'gone.out.csv');
    const run = startCli(
      ['run', await beneficiaries('gone'), '--out', out, '--rate', '4/s'],
      environment(own.url, { REDIS_UNAVAILABLE_TIMEOUT: '3s' }),
    );
    await waitFor(async () => (await answeredAccounts(own!.client, prefix)).length >= 2, 30_000, 'two answers');
    await own.stop();
    const stoppedAt = Date.now();
    expect(await waitForExit(run)).toBe(1);
    // The budget (3 s) plus a heartbeat or two, far from a wait for ever.
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    const { stderr } = run.output();
    expect(errorLines(stderr)).toEqual([expect.stringContaining(`Redis at redis://:***@127.0.0.1:${own.port} did not answer for`)]);
    expect(stderr).toContain('REDIS_UNAVAILABLE_TIMEOUT=3s');
    expect(stderr).not.toContain('s3cret-pw');
    expectNoRawErrors(stderr);
    expect(await exists(out)).toBe(false);
  });

  it('gone for a moment (restarted within seconds): ridden out, every row reported, no account asked twice', async () => {
    own = await startOwnRedis({ persistent: true });
    sandbox.resetStats();
    const out = join(workDir, 'restart.out.csv');
    const run = startCli(
      ['run', await beneficiaries('restart'), '--out', out, '--rate', '6/s'],
      environment(own.url, { REDIS_UNAVAILABLE_TIMEOUT: '20s' }),
    );
    await waitFor(async () => (await answeredAccounts(own!.client, prefix)).length >= 4, 30_000, 'four answers');
    await own.stop();
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the outage itself: a fixed length is the point
    await own.start();
    expect(await waitForExit(run)).toBe(0);
    const { stderr } = run.output();
    expect(stderr).toContain('is not answering');
    expect(stderr).toContain('is answering again');
    expectNoRawErrors(stderr);
    const rows = await readReport(out);
    expect(rows.map((row) => row.beneficiary_id)).toEqual(accounts.map((_, index) => `B${index}`));
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
    expect(Object.values(sandbox.stats().inquiriesByAccount).every((count) => count === 1)).toBe(true);
  });

  it('data lost mid-run (FLUSHALL): exit 1 (not a usage error) saying the batch vanished and what to check; the same command then starts over', async () => {
    own = await startOwnRedis();
    const file = await beneficiaries('flushed');
    const out = join(workDir, 'flushed.out.csv');
    const run = startCli(['run', file, '--out', out, '--rate', '4/s'], environment(own.url));
    await waitFor(async () => (await answeredAccounts(own!.client, prefix)).length >= 2, 30_000, 'two answers');
    await own.client.flushall();
    expect(await waitForExit(run)).toBe(1);
    const { stderr } = run.output();
    expect(errorLines(stderr)).toEqual([expect.stringMatching(/batch b\S+ vanished from Redis while it was being checked/)]);
    expect(stderr).toContain('appendonly yes');
    expect(stderr).toContain('maxmemory-policy is noeviction');
    expectNoRawErrors(stderr);

    const again = await runCli(['run', file, '--out', out], environment(own.url));
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('continuing');
    expect((await readReport(out)).every((row) => row.result === 'MATCH')).toBe(true);
  });
});

describe('a full Redis (maxmemory reached, noeviction)', () => {
  it('run: exit 1 with one line naming Redis, the cause and what to do', async () => {
    own = await startOwnRedis();
    await own.client.config('SET', 'maxmemory-policy', 'noeviction');
    await own.client.config('SET', 'maxmemory', '1');
    const result = await runCli(['run', await beneficiaries('full'), '--out', join(workDir, 'full.out.csv')], environment(own.url));
    expect(result.code).toBe(1);
    expect(errorLines(result.stderr)).toEqual([expect.stringContaining(`Redis at redis://127.0.0.1:${own.port} is full`)]);
    expect(result.stderr).toContain('Raise maxmemory');
    expectNoRawErrors(result.stderr);
  });

  it('worker: Redis filling up while it works stops it with exit 1 and one line', async () => {
    own = await startOwnRedis();
    await own.client.config('SET', 'maxmemory-policy', 'noeviction');
    const env = environment(own.url, { INQUIRY_RATE: '4/s' });
    const worker = startCli(['worker'], env);
    try {
      expect((await runCli(['enqueue', await beneficiaries('worker-full')], env)).code).toBe(0);
      await waitFor(async () => (await answeredAccounts(own!.client, prefix)).length >= 2, 30_000, 'two answers');
      await own.client.config('SET', 'maxmemory', '1');
      expect(await waitForExit(worker)).toBe(1);
    } finally {
      if (worker.exitCode === null) worker.kill('SIGKILL');
    }
    const { stderr } = worker.output();
    expect(errorLines(stderr)).toEqual([expect.stringContaining('is full: it refuses writes')]);
    expectNoRawErrors(stderr);
  });
});

describe('a Redis at its maxclients', () => {
  it('run: a worker connection refused ends it with exit 1 and one line naming the limit, not a silent worker and a stack at exit', async () => {
    own = await startOwnRedis();
    // The test's own client holds one: run's commands connection and one worker's open, the other worker's is refused.
    await own.client.config('SET', 'maxclients', '3');
    const result = await runCli(
      ['run', await beneficiaries('maxclients'), '--out', join(workDir, 'maxclients.out.csv')],
      environment(own.url, { INQUIRY_RATE: '1/s' }),
    );
    expect(result.code).toBe(1);
    expect(errorLines(result.stderr)).toEqual([expect.stringContaining(`Redis at redis://127.0.0.1:${own.port} refuses new connections`)]);
    expect(result.stderr).toContain('3 of maxclients 3 open, and 1 of this process');
    expect(result.stderr).toContain("Raise Redis's maxclients");
    expectNoRawErrors(result.stderr);
  });
});

describe('long-running commands when Redis goes away', () => {
  it('worker, watch and schedule keep retrying with one clear line (no raw stack), and carry on when it is back', async () => {
    // Persistent, and back within the watcher's registration lifetime (5 s): an outage, not a loss of data.
    own = await startOwnRedis({ persistent: true });
    const source = join(workDir, 'nightly.csv');
    await writeFile(source, 'bank_code,account_number,name\n');
    const env = (extra: Record<string, string> = {}) =>
      environment(own!.url, { LOG_LEVEL: 'info', REDIS_UNAVAILABLE_TIMEOUT: '1s', ...extra });
    const services = [
      startCli(['worker'], env()),
      startCli(['watch', await mkdtemp(join(workDir, 'watched-'))], env({ WATCH_POLL: '200ms' })),
      startCli(['schedule'], env({ SCHEDULE_SOURCE: source, SCHEDULE_OUTBOX: join(workDir, 'outbox') })),
    ];
    try {
      for (const service of services)
        await waitFor(
          () => /worker started|watching .*inbox|nightly run scheduled/.test(service.output().stderr),
          30_000,
          'the service to start',
        );
      await own.stop();
      // Past the budget: each says once that Redis is gone, then that it keeps retrying.
      for (const service of services)
        await waitFor(() => service.output().stderr.includes('still retrying'), 20_000, 'the "still retrying" line');
      expect(services.map((service) => service.exitCode)).toEqual([null, null, null]);
      await own.start();
      for (const service of services)
        await waitFor(() => service.output().stderr.includes('is answering again'), 20_000, 'Redis to be seen again');
      for (const service of services) service.kill('SIGTERM');
      expect(await Promise.all(services.map(waitForExit))).toEqual([0, 0, 0]);
    } finally {
      for (const service of services) if (service.exitCode === null) service.kill('SIGKILL');
    }
    for (const service of services) {
      const { stderr } = service.output();
      expectNoRawErrors(stderr);
      expect(stderr.match(/is not answering/g)).toHaveLength(1);
    }
  });
});
