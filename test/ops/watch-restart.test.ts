import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import {
  ACCOUNTS_FIXTURE,
  answeredCount,
  batchesOf,
  beneficiaryCsv,
  listDir,
  opsEnvironment,
  removeTempFolders,
  tempFolder,
  waitFor,
} from './ops-helpers.js';

const ROWS = 20;
const CONCURRENCY = 2;

/**
 * The watcher stopped mid-file, by SIGKILL or SIGTERM, then started again: one report, every row once.
 * A slow rate (5/s) keeps the batch running long enough to stop it half-way.
 */
describe('watch: stopped mid-file and started again', () => {
  let sandbox: SandboxServer;
  let redis: Redis;
  const prefixes: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ accountsFile: ACCOUNTS_FIXTURE, latencyMs: { min: 0, max: 2 } });
    redis = testRedis();
  });

  beforeEach(() => sandbox.resetStats());

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    redis.disconnect();
    await sandbox?.close();
    await removeTempFolders();
  });

  async function setUp(label: string, extra: Record<string, string> = {}) {
    const prefix = testKeyPrefix();
    prefixes.push(prefix);
    const folder = await tempFolder(label);
    const env = cliEnvironment(
      opsEnvironment(prefix, sandbox.url, {
        WATCH_STABLE: '1s',
        WATCH_POLL: '100ms',
        INQUIRY_RATE: '5/s',
        INQUIRY_CONCURRENCY: String(CONCURRENCY),
        ...extra,
      }),
    );
    const csv = await beneficiaryCsv(label.toUpperCase(), ROWS);
    const start = () => startCli(['watch', folder], env);
    /** Drops the file complete (written beside the folder, renamed into the inbox): taken once it has stayed still for the stability time. */
    const drop = async () => {
      await waitFor(async () => (await listDir(folder)).includes('inbox'), 10_000, 'the inbox');
      await writeFile(join(folder, 'payouts.csv.staged'), csv.text);
      await rename(join(folder, 'payouts.csv.staged'), join(folder, 'inbox', 'payouts.csv'));
    };
    /** The file's batch, once some but not all of its accounts are answered. */
    const midway = async (atLeast: number) => {
      const batch = await waitFor(async () => (await batchesOf(redis, prefix))[0], 10_000, 'the batch');
      await waitFor(async () => (await answeredCount(redis, prefix, batch.batchId)) >= atLeast, 15_000, `${atLeast} answers`, 20);
      return batch.batchId;
    };
    const reportDone = () =>
      waitFor(async () => (await listDir(join(folder, 'outbox'))).includes('payouts.reconciled.summary.json'), 30_000, 'the report');
    /** One report, every row exactly once and answered, the input archived, nothing left in processing/, one batch. */
    const expectCompleteOnce = async () => {
      const rows = await readReport(join(folder, 'outbox', 'payouts.reconciled.csv'));
      expect(rows.map((row) => row.beneficiary_id)).toEqual(csv.lines.map((line) => line.split(',')[0]));
      expect(rows.filter((row) => row.result === 'MATCH')).toHaveLength(ROWS);
      expect(await listDir(join(folder, 'outbox'))).toEqual([
        'payouts.changes.csv',
        'payouts.reconciled.csv',
        'payouts.reconciled.summary.json',
      ]);
      expect(await listDir(join(folder, 'archive'))).toEqual(['payouts.csv']);
      expect(await readFile(join(folder, 'archive', 'payouts.csv'), 'utf8')).toBe(csv.text);
      expect(await listDir(join(folder, 'processing'))).toEqual([]);
      expect(await batchesOf(redis, prefix)).toHaveLength(1);
      expect(Object.keys(sandbox.stats().inquiriesByAccount)).toHaveLength(ROWS);
    };
    return { prefix, folder, start, drop, midway, reportDone, expectCompleteOnce };
  }

  it('SIGKILL mid-file: the next start continues the same batch; one report with every row once', async () => {
    const t = await setUp('killed');
    const first = t.start();
    await t.drop();
    const batchId = await t.midway(5);
    first.kill('SIGKILL');
    await waitForExit(first);
    const answeredAtKill = await answeredCount(redis, t.prefix, batchId);
    expect(answeredAtKill).toBeLessThan(ROWS);
    expect(await listDir(join(t.folder, 'outbox'))).toEqual([]);
    expect((await listDir(join(t.folder, 'processing'))).filter((name) => name.endsWith('--payouts.csv'))).toHaveLength(1);

    const second = t.start();
    try {
      await t.reportDone();
      await t.expectCompleteOnce();
      const summary = JSON.parse(await readFile(join(t.folder, 'outbox', 'payouts.reconciled.summary.json'), 'utf8'));
      expect(summary.batchId).toBe(batchId);
      // Not done twice: at most the inquiries in flight at the kill were asked again.
      const asked = Object.values(sandbox.stats().inquiriesByAccount).reduce((sum, count) => sum + count, 0);
      expect(asked).toBeLessThanOrEqual(ROWS + CONCURRENCY);
    } finally {
      second.kill('SIGTERM');
      await waitForExit(second);
    }
  }, 120_000);

  it('SIGTERM mid-file past the shutdown timeout: exit 0, the file is handed back, and finished after the restart; every account asked once', async () => {
    const t = await setUp('termed', { SHUTDOWN_TIMEOUT: '0.5s' });
    const first = t.start();
    await t.drop();
    const batchId = await t.midway(4);
    first.kill('SIGTERM');
    expect(await waitForExit(first)).toBe(0);
    expect(first.output().stderr).toContain('handed back at shutdown');
    expect(await answeredCount(redis, t.prefix, batchId)).toBeLessThan(ROWS);
    expect(await listDir(join(t.folder, 'outbox'))).toEqual([]);
    expect((await listDir(join(t.folder, 'processing'))).filter((name) => name.endsWith('--payouts.csv'))).toHaveLength(1);
    // The queue still holds a job for every unanswered account, none of them active: nothing was lost with the process.
    const metas = await redis.keys(`${t.prefix}:{bull}:inquiries-*:meta`);
    expect(metas).toHaveLength(1);
    const queue = metas[0]!.replace(/:meta$/, '');
    const [waiting, delayed, prioritized, active] = await Promise.all([
      redis.llen(`${queue}:wait`),
      redis.zcard(`${queue}:delayed`),
      redis.zcard(`${queue}:prioritized`),
      redis.llen(`${queue}:active`),
    ]);
    expect(active).toBe(0);
    expect(waiting + delayed + prioritized).toBe(ROWS - (await answeredCount(redis, t.prefix, batchId)));

    const second = t.start();
    try {
      await t.reportDone();
      await t.expectCompleteOnce();
      // A graceful stop lets active inquiries finish: no account was asked twice.
      expect(Object.values(sandbox.stats().inquiriesByAccount).every((count) => count === 1)).toBe(true);
    } finally {
      second.kill('SIGTERM');
      await waitForExit(second);
    }
  }, 60_000);

  it('SIGTERM mid-file within the shutdown timeout: the file is finished before the process exits', async () => {
    const t = await setUp('drained', { SHUTDOWN_TIMEOUT: '30s' });
    const watcher = t.start();
    await t.drop();
    await t.midway(4);
    watcher.kill('SIGTERM');
    expect(await waitForExit(watcher)).toBe(0);
    // Exited only after the report was written and the input archived.
    await t.expectCompleteOnce();
    expect(Object.values(sandbox.stats().inquiriesByAccount).every((count) => count === 1)).toBe(true);
  }, 60_000);
});
