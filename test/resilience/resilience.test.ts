import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inquiryQueueName } from '../../src/queue/inquiry-queue.js';
import { redisKeys } from '../../src/redis/keys.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { emulatorEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { waitFor } from '../support/wait.js';

const redis = testRedis();
const accounts = syntheticAccounts(40);
const prefixes: string[] = [];
let sandbox: SandboxServer;
let workDir: string;

function environment(extra: Record<string, string> = {}) {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  return emulatorEnvironment(prefix, sandbox.url, {
    INQUIRY_BACKOFF: '50ms',
    ...extra,
  });
}

async function fileOf(name: string, count: number, from = 0): Promise<string> {
  const path = join(workDir, `${name}.csv`);
  await writeBeneficiaryFile(path, accounts.slice(from, from + count));
  return path;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: [
      ...accounts,
      { bankCode: '014', accountNumber: '5550001111', holderName: 'GONE', status: 'SUCCESS', behaviour: 'not_found' },
    ],
  });
  workDir = await mkdtemp(join(tmpdir(), 'bc-resilience-'));
});

afterAll(async () => {
  await sandbox.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

const answeredCounts = () => Object.values(sandbox.stats().inquiriesByAccount);

describe('retries', () => {
  it('retries 5xx within the attempt budget, then FAILED with the reason (no usable answer at all: exit 1); never retries a business rejection', async () => {
    sandbox.resetStats();
    sandbox.setKnobs({ serverErrorRate: 1 });
    const file = join(workDir, 'budget.csv');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, `bank_code,account_number,name\n${accounts[0]!.bankCode},${accounts[0]!.accountNumber},x\n014,5550001111,Gone\n`);
    const runPromise = runCli(['run', file, '--out', join(workDir, 'budget.out.csv')], environment({ INQUIRY_ATTEMPTS: '3' }));
    // The rejection is answered only once 5xx stop; until then both rows are retried.
    const result = await runPromise;
    sandbox.setKnobs({ serverErrorRate: 0 });
    // The provider gave no usable answer to any call: a systemic failure, as a 5xx outage is (the report is written).
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the provider gave no usable answer');
    const rows = await readReport(join(workDir, 'budget.out.csv'));
    expect(rows.map((row) => row.result)).toEqual(['FAILED', 'FAILED']);
    expect(rows[0]!.reason).toMatch(/^no answer after 3 attempt\(s\): provider answered HTTP 50[023]$/);
    expect(sandbox.stats().serverErrors).toBe(6);

    sandbox.resetStats();
    const rejected = await runCli(['run', file, '--out', join(workDir, 'budget2.out.csv')], environment({ INQUIRY_ATTEMPTS: '3' }));
    expect(rejected.code).toBe(0);
    expect((await readReport(join(workDir, 'budget2.out.csv')))[1]).toMatchObject({
      result: 'ACCOUNT_INVALID',
      reason: 'provider: Account not found',
    });
    expect(sandbox.stats().inquiriesByAccount['014:5550001111']).toBe(1);
  });

  it('gives up on a hanging provider after the timeout, saying so (exit 1: no usable answer)', async () => {
    sandbox.resetStats();
    sandbox.setKnobs({ hangRate: 1 });
    const file = await fileOf('hang', 1);
    const result = await runCli(
      ['run', file, '--out', join(workDir, 'hang.out.csv')],
      environment({ INQUIRY_ATTEMPTS: '2', H2H_TIMEOUT: '300ms' }),
    );
    sandbox.setKnobs({ hangRate: 0 });
    expect(result.code).toBe(1);
    const [row] = await readReport(join(workDir, 'hang.out.csv'));
    expect(row).toMatchObject({ result: 'FAILED' });
    expect(row!.reason).toContain('no answer within the timeout');
    expect(sandbox.stats().hangs).toBe(2);
  });
});

describe('429', () => {
  it('holds every worker for Retry-After without spending attempts, and answers every row once', async () => {
    sandbox.resetStats();
    sandbox.setKnobs({ rateLimit: { max: 3, windowMs: 1000 } });
    const file = await fileOf('limited', 12);
    // The configured rate is above the provider's real limit: only 429s can slow it down.
    const result = await runCli(
      ['run', file, '--out', join(workDir, 'limited.out.csv'), '--rate', '20/s'],
      environment({ INQUIRY_ATTEMPTS: '1' }),
    );
    sandbox.setKnobs({ rateLimit: null });
    expect(result.code).toBe(0);
    const stats = sandbox.stats();
    expect(stats.rateLimited).toBeGreaterThan(0);
    expect(stats.maxInquiriesInAnyWindow).toBeLessThan(20);
    expect(answeredCounts()).toEqual(new Array(12).fill(1));
    expect((await readReport(join(workDir, 'limited.out.csv'))).every((row) => row.result === 'MATCH')).toBe(true);
  });

  // Retried: the emulator stamps calls in this test's process, and on a machine loaded by the other test
  // files it can stamp two calls ten apart more than the window guard's 15 ms margin closer than they left
  // (one 429 in 1 of 4 runs of the whole suite on 2026-11-29, none in 6 runs of this test alone). The guard
  // itself is checked against Redis's clock in test/pacing; a pacer that overran the limit would meet a 429
  // on every try.
  it('with the limit known, stays under it: no 429 at all', { retry: 2 }, async () => {
    sandbox.resetStats();
    sandbox.setKnobs({ rateLimit: { max: 10, windowMs: 1000 } });
    const file = await fileOf('paced', 30, 10);
    const result = await runCli(
      ['run', file, '--out', join(workDir, 'paced.out.csv'), '--rate', '10/s', '--concurrency', '8'],
      environment(),
    );
    sandbox.setKnobs({ rateLimit: null });
    expect(result.code).toBe(0);
    expect(sandbox.stats()).toMatchObject({ rateLimited: 0, answeredInquiries: 30 });
    expect(sandbox.stats().maxInquiriesInAnyWindow).toBeLessThanOrEqual(10);
  });
});

describe('429 storm', () => {
  // How many calls meet a 429 before the slowed rate reaches every worker depends on when the in-process
  // emulator stamps them, which a loaded machine moves: alone, and in six full runs of 2026-11-29, at most 4
  // of about 45 (the earlier bound, 10%, held); beside the
  // other test files of a clean-clone CI run on 2026-11-29, 8 of 48 and 6 of 46 three times in a row (9 of
  // 49 and 17 of 57 before). Without the slow-down, 47% of the calls were answered 429: the bound (a
  // quarter) still tells the two apart, and the summary and the message check that the rate slowed.
  it('slows the shared pacer down on 429s: at most a quarter of calls answered 429, no row FAILED, the summary says the rate allowed', async () => {
    sandbox.resetStats();
    sandbox.setKnobs({ rateLimit: { max: 5, windowMs: 1000 } });
    const file = await fileOf('storm', 40);
    const out = join(workDir, 'storm.out.csv');
    // --rate says 40/s, the provider allows 5/s: before the pacer slowed down, 47% of calls were answered 429.
    const result = await runCli(['run', file, '--out', out, '--rate', '40/s', '--json'], environment(), 120_000);
    sandbox.setKnobs({ rateLimit: null });
    expect(result.code).toBe(0);
    const stats = sandbox.stats();
    expect(stats.answeredInquiries).toBe(40);
    expect(stats.rateLimited).toBeGreaterThan(0);
    expect(stats.rateLimited).toBeLessThanOrEqual(stats.inquiries * 0.25);
    const rows = await readReport(out);
    expect(rows).toHaveLength(40);
    expect(rows.filter((row) => row.result === 'FAILED')).toEqual([]);
    const summary = JSON.parse(await readFile(out.replace(/\.csv$/, '.summary.json'), 'utf8')) as {
      allowedRate: number;
      rateLimited: number;
    };
    expect(summary.rateLimited).toBe(stats.rateLimited);
    expect(summary.allowedRate).toBeGreaterThan(0);
    expect(summary.allowedRate).toBeLessThan(40);
    expect(result.stderr).toMatch(/provider rate limit reached \(HTTP 429\).*then sends at [\d.]+\/s \(was 40\/s\)/);
  });
});

/** The provider back: the same file finishes, every row with a result and every account asked once. */
async function finishesOnceHealed(file: string, out: string, env: NodeJS.ProcessEnv, rowCount: number): Promise<void> {
  sandbox.setKnobs({ serverErrorRate: 0 });
  sandbox.resetStats();
  expect((await runCli(['run', file, '--out', out, '--rate', '500/s'], env)).code).toBe(0);
  const rows = await readReport(out);
  expect(rows).toHaveLength(rowCount);
  expect(rows.filter((row) => row.result === 'FAILED')).toEqual([]);
  expect(Math.max(...answeredCounts())).toBe(1);
}

describe('outage', () => {
  it('stops past the outage budget with the rest FAILED, then the same file continues and asks only what is missing', async () => {
    sandbox.resetStats();
    const env = environment({ INQUIRY_OUTAGE_BUDGET: '3s', INQUIRY_ATTEMPTS: '50' });
    const file = await fileOf('outage', 20, 20);
    const out = join(workDir, 'outage.out.csv');
    const first = startCli(['run', file, '--out', out, '--rate', '10/s', '--concurrency', '2'], env);
    await waitFor(() => sandbox.stats().answeredInquiries >= 6, 20_000, 'six answers', 20);
    sandbox.setKnobs({ serverErrorRate: 1 });
    expect(await waitForExit(first)).toBe(1);
    sandbox.setKnobs({ serverErrorRate: 0 });
    const stderr = first.output().stderr;
    expect(stderr).toContain('waiting for the provider: failing since');
    expect(stderr).toContain('run the same file again');
    const firstRows = await readReport(out);
    const answeredFirst = firstRows.filter((row) => row.result === 'MATCH').map((row) => row.account_number);
    const failedFirst = firstRows.filter((row) => row.result === 'FAILED');
    expect(answeredFirst.length).toBeGreaterThanOrEqual(6);
    expect(failedFirst.length).toBe(20 - answeredFirst.length);
    expect(failedFirst[0]!.reason).toContain('no answer from the provider since');

    sandbox.resetStats();
    const second = await runCli(['run', file, '--out', out], env);
    expect(second.code).toBe(0);
    // The first run wrote its report (rows FAILED with the reason): the batch is finished, with FAILED rows.
    expect(second.stderr).toContain('its FAILED rows are asked again');
    const asked = Object.keys(sandbox.stats().inquiriesByAccount).map((key) => key.split(':')[1]);
    expect(asked.sort()).toEqual(failedFirst.map((row) => row.account_number).sort());
    expect(Math.max(...answeredCounts())).toBe(1);
    const rows = await readReport(out);
    expect(rows).toHaveLength(20);
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
  });

  it('a call on its way when the run gives up is paid once: its answer comes after the FAILED, and the rerun takes it instead of asking again', async () => {
    // The provider fails until the outage is posted, then answers again, but slower than what is left of
    // the outage budget: the calls then on their way are answered after the run gave up and wrote FAILED.
    sandbox.resetStats();
    sandbox.setKnobs({ serverErrorRate: 1 });
    const env = environment({ INQUIRY_OUTAGE_BUDGET: '2s', INQUIRY_ATTEMPTS: '50' });
    const file = await fileOf('outage-late', 30);
    const out = join(workDir, 'outage-late.out.csv');
    try {
      const first = startCli(['run', file, '--out', out, '--rate', '100/s'], env);
      await waitFor(() => sandbox.stats().serverErrors >= 10, 20_000, 'the provider failing', 10);
      sandbox.setKnobs({ serverErrorRate: 0, latencyMs: { min: 2_500, max: 2_500 } });
      expect(await waitForExit(first)).toBe(1);
      const failedFirst = (await readReport(out)).filter((row) => row.result === 'FAILED');
      expect(failedFirst).toHaveLength(30);
      // Every call sent after the provider came back was answered, after the report was written.
      const answeredLate = sandbox.stats().answeredInquiries;
      expect(answeredLate).toBeGreaterThan(0);
      sandbox.setKnobs({ latencyMs: { min: 0, max: 0 } });

      const second = await runCli(['run', file, '--out', out, '--rate', '100/s'], env);
      expect(second.code).toBe(0);
      expect(second.stderr).toContain(`${answeredLate} FAILED account(s) were answered after the last run gave up`);
      // Both runs together: every account answered once, none paid for twice.
      expect(Object.keys(sandbox.stats().inquiriesByAccount)).toHaveLength(30);
      expect(Math.max(...answeredCounts())).toBe(1);
      expect((await readReport(out)).every((row) => row.result === 'MATCH')).toBe(true);
    } finally {
      sandbox.setKnobs({ serverErrorRate: 0, latencyMs: { min: 0, max: 0 } });
    }
  });

  it('a provider down while a file larger than the backlog is still being queued: stops past the outage budget, no row marked; the rerun finishes it', async () => {
    // The queueing waits for room in the queue (1,000 jobs at 100/s), and a failing provider drains none:
    // the budget, which used to run only once the file was queued, never ran, and `run` hung.
    sandbox.resetStats();
    sandbox.setKnobs({ serverErrorRate: 1 });
    const env = environment({ INQUIRY_OUTAGE_BUDGET: '2s', INQUIRY_ATTEMPTS: '50' });
    const file = join(workDir, 'outage-queueing.csv');
    await writeBeneficiaryFile(file, syntheticAccounts(1_500));
    const out = join(workDir, 'outage-queueing.out.csv');
    try {
      const first = await runCli(['run', file, '--out', out, '--rate', '100/s'], env);
      expect(first.code).toBe(1);
      expect(first.stderr).toContain('the file was still being queued and no row was marked: run the same file again to continue');
      expect(existsSync(out)).toBe(false);
      await finishesOnceHealed(file, out, env, 1_500);
    } finally {
      sandbox.setKnobs({ serverErrorRate: 0 });
    }
  });

  it('the provider still down while a rerun queues its FAILED accounts again, more than the backlog: stops past the budget too', async () => {
    // The rerun of a batch whose rows are all stored queues its unanswered accounts without reading the
    // file (2,500 of them at 100/s: a backlog of 1,000, more than it and every worker slot); that queueing
    // waited for room for ever as well.
    sandbox.resetStats();
    sandbox.setKnobs({ serverErrorRate: 1 });
    const env = environment({ INQUIRY_OUTAGE_BUDGET: '2s', INQUIRY_ATTEMPTS: '50' });
    const file = join(workDir, 'outage-requeue.csv');
    await writeBeneficiaryFile(file, syntheticAccounts(2_500));
    const out = join(workDir, 'outage-requeue.out.csv');
    try {
      // Queued at once at 2000/s (a backlog of 4,000): the first run gives up with every row FAILED. Its
      // budget outlasts the queueing of 2,500 rows on a loaded machine (at 2 s, a CI run stopped it queueing).
      const queuedAtOnce = { ...env, INQUIRY_OUTAGE_BUDGET: '6s' };
      expect((await runCli(['run', file, '--out', out, '--rate', '2000/s'], queuedAtOnce)).code).toBe(1);
      expect((await readReport(out)).every((row) => row.result === 'FAILED')).toBe(true);
      const second = await runCli(['run', file, '--out', out, '--rate', '100/s'], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('the file was still being queued and no row was marked');
      await finishesOnceHealed(file, out, env, 2_500);
    } finally {
      sandbox.setKnobs({ serverErrorRate: 0 });
    }
  });

  it('a rerun started while the run that gave up still waits for its calls on their way waits for them too: every account paid once', async () => {
    // An operator reruns as soon as the first report is written. The first run is still closing, its calls
    // out for seconds: the rerun forgot their FAILED answers and asked the accounts again, and then both
    // calls were answered.
    sandbox.resetStats();
    sandbox.setKnobs({ serverErrorRate: 1 });
    const env = environment({ INQUIRY_OUTAGE_BUDGET: '2s', INQUIRY_ATTEMPTS: '50' });
    const file = await fileOf('outage-closing', 30);
    const out = join(workDir, 'outage-closing.out.csv');
    try {
      const first = startCli(['run', file, '--out', out, '--rate', '100/s'], env);
      await waitFor(() => sandbox.stats().serverErrors >= 10, 20_000, 'the provider failing', 10);
      sandbox.setKnobs({ serverErrorRate: 0, latencyMs: { min: 6_000, max: 6_000 } });
      await waitFor(() => existsSync(out), 20_000, 'the first report', 10);
      // The calls already out keep their 6 s; the rerun's own are answered at once.
      sandbox.setKnobs({ latencyMs: { min: 0, max: 0 } });
      expect(sandbox.stats().answeredInquiries).toBe(0);
      const second = startCli(['run', file, '--out', out, '--rate', '100/s'], env);
      expect(await waitForExit(first)).toBe(1);
      expect(await waitForExit(second)).toBe(0);
      expect(second.output().stderr).toMatch(/waiting for \d+ call\(s\) of the last run still on their way/);
      expect(Object.keys(sandbox.stats().inquiriesByAccount)).toHaveLength(30);
      expect(Math.max(...answeredCounts())).toBe(1);
      expect((await readReport(out)).every((row) => row.result === 'MATCH')).toBe(true);
    } finally {
      sandbox.setKnobs({ serverErrorRate: 0, latencyMs: { min: 0, max: 0 } });
    }
  });

  it('a batch waiting behind another batch is not stopped by a 429 past its budget while the provider answers that one', async () => {
    // 600 jobs of an enqueued batch come first, about 6 s at 100/s: the run's own batch has no answer for
    // longer than its 3 s budget, and a 429 then (met by a call of the other batch) stopped it with every
    // row FAILED, though the provider was answering all along (an outside review's finding).
    sandbox.resetStats();
    const env = environment({ INQUIRY_OUTAGE_BUDGET: '3s' });
    const ahead = join(workDir, 'ahead.csv');
    await writeBeneficiaryFile(ahead, syntheticAccounts(600));
    expect((await runCli(['enqueue', ahead], env)).code).toBe(0);
    const file = await fileOf('behind', 10);
    const out = join(workDir, 'behind.out.csv');
    try {
      const run = startCli(['run', file, '--out', out, '--rate', '100/s'], env);
      await waitFor(() => sandbox.stats().answeredInquiries >= 400, 30_000, 'two thirds of the batch ahead', 20);
      sandbox.setKnobs({ rateLimit: { max: 1, windowMs: 1000 } });
      await waitFor(() => sandbox.stats().rateLimited >= 1, 10_000, 'a 429', 10);
      sandbox.setKnobs({ rateLimit: null });
      expect(await waitForExit(run), run.output().stderr).toBe(0);
      expect((await readReport(out)).map((row) => row.result)).toEqual(new Array(10).fill('MATCH'));
    } finally {
      sandbox.setKnobs({ rateLimit: null });
    }
  });

  it('the rerun asks every account once: the retries the stopped run gave up on are gone from the queue', async () => {
    // The first run gives up with every account's retry delayed in the queue. Left there, each took a start
    // of the queue's limiter from the rerun only to skip; and before jobs carried their round, a retry
    // that came due with the rerun's job and found no answer called too (the round check itself:
    // test/pacing/pre-call.test.ts).
    sandbox.resetStats();
    sandbox.setKnobs({ serverErrorRate: 1, latencyMs: { min: 150, max: 150 } });
    const env = environment({ INQUIRY_OUTAGE_BUDGET: '2s', INQUIRY_ATTEMPTS: '50', INQUIRY_BACKOFF: '1500ms' });
    const file = await fileOf('outage-retries', 40);
    const out = join(workDir, 'outage-retries.out.csv');
    try {
      expect((await runCli(['run', file, '--out', out, '--rate', '100/s'], env)).code).toBe(1);
      expect((await readReport(out)).every((row) => row.result === 'FAILED')).toBe(true);
      // The retries it gave up on are gone from the queue: the next run does not wait them out at its rate.
      const queueKey = `${redisKeys(prefixes.at(-1)!).bullPrefix()}:${inquiryQueueName({ environment: 'sandbox', baseUrl: sandbox.url })}`;
      expect([await redis.zcard(`${queueKey}:delayed`), await redis.llen(`${queueKey}:wait`)]).toEqual([0, 0]);
      sandbox.setKnobs({ serverErrorRate: 0 });
      sandbox.resetStats();
      const second = await runCli(['run', file, '--out', out, '--rate', '100/s'], env);
      expect(second.code).toBe(0);
      expect(Object.keys(sandbox.stats().inquiriesByAccount)).toHaveLength(40);
      expect(Math.max(...answeredCounts())).toBe(1);
      expect((await readReport(out)).every((row) => row.result === 'MATCH')).toBe(true);
    } finally {
      sandbox.setKnobs({ serverErrorRate: 0, latencyMs: { min: 0, max: 0 } });
    }
  });
});
