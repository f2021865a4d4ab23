import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { redisKeys } from '../../src/redis/keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { ACCOUNTS_FIXTURE, beneficiaryCsv, listDir, opsEnvironment, removeTempFolders, tempFolder, waitFor } from './ops-helpers.js';

interface RunRecord {
  jobId: string;
  status: string;
  startedAt: string;
  finishedAt: string;
  report?: string;
  sourceFile?: string;
  rows?: number;
  reason?: string;
}

describe('schedule', () => {
  let sandbox: SandboxServer;
  let redis: Redis;
  let prefix: string;
  let exports: string;
  let env: NodeJS.ProcessEnv;
  const ROWS = 16;

  beforeAll(async () => {
    sandbox = await startSandbox({ accountsFile: ACCOUNTS_FIXTURE, latencyMs: { min: 0, max: 2 } });
    redis = testRedis();
    prefix = testKeyPrefix();
    const root = await tempFolder('schedule');
    exports = join(root, 'exports');
    await mkdir(exports);
    // Two exports: the newer one is validated; a hidden and a .part file are never taken, however new.
    await writeFile(join(exports, 'older.csv'), (await beneficiaryCsv('OLD', ROWS)).text);
    await utimes(join(exports, 'older.csv'), new Date(Date.now() - 7200_000), new Date(Date.now() - 7200_000));
    await writeFile(join(exports, 'active.csv'), (await beneficiaryCsv('NEW', ROWS)).text);
    await utimes(join(exports, 'active.csv'), new Date(Date.now() - 600_000), new Date(Date.now() - 600_000));
    await writeFile(join(exports, '.in-progress.csv'), 'bank_code,account_number\n');
    await writeFile(join(exports, 'tonight.csv.part'), 'bank_code,account_number\n');
    env = cliEnvironment(
      opsEnvironment(prefix, sandbox.url, {
        // Every 2 s, while a run takes about 3 s (16 accounts at 6/s): every other run comes due during one.
        SCHEDULE_CRON: '*/2 * * * * *',
        SCHEDULE_TZ: 'UTC',
        SCHEDULE_SOURCE: exports,
        SCHEDULE_OUTBOX: join(root, 'outbox'),
        INQUIRY_RATE: '6/s',
        WATCH_STABLE: '1s',
        LOG_LEVEL: 'info',
      }),
    );
  });

  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
    await sandbox?.close();
    await removeTempFolders();
  });

  const history = async (): Promise<RunRecord[]> =>
    (await redis.lrange(`${prefix}:schedule:runs`, 0, -1)).map((entry) => JSON.parse(entry) as RunRecord).reverse();

  it('runs on a seconds-level pattern without overlap: a run due while another works is skipped, saying why', async () => {
    const scheduler = startCli(['schedule'], env);
    try {
      await waitFor(
        async () => {
          const runs = await history();
          return runs.filter((run) => run.status === 'completed').length >= 2 && runs.some((run) => run.status === 'skipped');
        },
        30_000,
        'two completed runs and a skipped one',
        200,
      );
    } finally {
      scheduler.kill('SIGTERM');
    }
    expect(await waitForExit(scheduler)).toBe(0);

    const runs = await history();
    const completed = runs.filter((run) => run.status === 'completed');
    const skipped = runs.filter((run) => run.status === 'skipped');
    expect(runs.filter((run) => run.status === 'failed')).toEqual([]);
    // No overlap: sorted by start, every completed run starts after the previous one finished.
    const byStart = [...completed].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    for (let index = 1; index < byStart.length; index += 1) {
      expect(Date.parse(byStart[index]!.startedAt)).toBeGreaterThanOrEqual(Date.parse(byStart[index - 1]!.finishedAt));
    }
    // Every skip happened while a completed run was working, and names it.
    for (const skip of skipped) {
      const during = completed.find((run) => run.startedAt <= skip.startedAt && skip.startedAt <= run.finishedAt);
      expect(during, `a run working at ${skip.startedAt}`).toBeDefined();
      expect(skip.reason).toContain(`previous run ${during!.jobId}`);
      expect(skip.reason).toContain('is still in progress');
    }
    // Each completed run validated the newest export in full and wrote its own report to the outbox.
    const reports = new Set(completed.map((run) => run.report));
    expect(reports.size).toBe(completed.length);
    for (const [index, run] of completed.entries()) {
      expect(run.sourceFile).toBe(join(exports, 'active.csv'));
      expect(run.report).toMatch(/outbox\/active\.\d{8}-\d{6}\.reconciled\.csv$/);
      const rows = await readReport(run.report!);
      expect(rows).toHaveLength(ROWS);
      expect(rows.every((row) => row.beneficiary_id!.startsWith('NEW-') && row.result === 'MATCH')).toBe(true);
      // The first night every account is NEW; the next ones compare with it: nothing changed, an empty changes file.
      expect(new Set(rows.map((row) => row.change))).toEqual(new Set([index === 0 ? 'NEW' : 'UNCHANGED']));
      expect(await readReport(run.report!.replace(/\.reconciled\.csv$/, '.changes.csv'))).toEqual([]);
    }
    const outbox = await listDir(join(exports, '..', 'outbox'));
    expect(outbox.filter((name) => name.endsWith('.reconciled.csv'))).toHaveLength(completed.length);
    // SIGTERM let the run in progress finish (default timeout): nothing holds the run lock afterwards.
    expect(await redis.exists(`${prefix}:schedule:lock`)).toBe(0);
  }, 60_000);

  it('--list shows the schedule and the last runs; --remove deletes it', async () => {
    const listed = await runCli(['schedule', '--list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('nightly-validation  pattern "*/2 * * * * *"  tz UTC');
    expect(listed.stdout).toContain(`source ${exports}`);
    expect(listed.stdout).toMatch(/completed +repeat:nightly-validation:\d+ +16 rows MATCH 16 -> /);
    expect(listed.stdout).toMatch(
      /skipped +repeat:nightly-validation:\d+ +previous run repeat:nightly-validation:\d+ .* is still in progress/,
    );

    expect(await redis.zcard(`${prefix}:{bull}:scheduled-validation:repeat`)).toBe(1);
    const removed = await runCli(['schedule', '--remove'], env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('removed the schedule nightly-validation');
    const after = await runCli(['schedule', '--list'], env);
    expect(after.stdout).toContain('no schedule registered');
    expect(await redis.zcard(`${prefix}:{bull}:scheduled-validation:repeat`)).toBe(0);
  }, 30_000);

  it('SIGTERM during a run past the shutdown timeout hands the run back; the next start finishes that same run and batch', async () => {
    const ownPrefix = testKeyPrefix();
    const ownEnv = { ...env, BC_KEY_PREFIX: ownPrefix, SCHEDULE_CRON: '*/3 * * * * *' };
    try {
      const first = startCli(['schedule'], { ...ownEnv, SHUTDOWN_TIMEOUT: '0.3s' });
      const holder = await waitFor(
        async () => {
          const lease = await redis.get(redisKeys(ownPrefix).scheduleLock());
          return lease === null ? undefined : (JSON.parse(lease) as { jobId: string }).jobId;
        },
        15_000,
        'a run to start',
      );
      const batchId = await waitFor(async () => (await redis.zrange(`${ownPrefix}:batches`, 0, '0'))[0], 10_000, 'its batch');
      await waitFor(async () => (await redis.hlen(redisKeys(ownPrefix).outcomes(batchId))) >= 3, 10_000, 'some answers', 20);
      first.kill('SIGTERM');
      expect(await waitForExit(first)).toBe(0);
      expect(first.output().stderr).toContain('nightly run handed back');
      expect(await redis.hlen(redisKeys(ownPrefix).outcomes(batchId))).toBeLessThan(ROWS);
      // Back in the waiting list, with its input pinned; no run was recorded as done or failed.
      expect(await redis.lrange(`${ownPrefix}:{bull}:scheduled-validation:wait`, 0, -1)).toContain(holder);
      const data = JSON.parse((await redis.hget(`${ownPrefix}:{bull}:scheduled-validation:${holder}`, 'data')) ?? '{}');
      expect(data.pinned.sourceFile).toBe(join(exports, 'active.csv'));
      expect(await redis.llen(`${ownPrefix}:schedule:runs`)).toBe(0);

      // A call still on its way when the timeout ran out (the run's hand-back took all of it) is left
      // behind: its job comes back when its lock expires, 30 s and up to 30 s more for BullMQ's stalled check.
      const leftBehind = first.output().stderr.includes('still in flight after SHUTDOWN_TIMEOUT');
      const second = startCli(['schedule'], ownEnv);
      try {
        const finished = await waitFor(
          async () =>
            (await redis.lrange(`${ownPrefix}:schedule:runs`, 0, -1))
              .map((entry) => JSON.parse(entry) as RunRecord & { batchId?: string })
              .find((run) => run.jobId === holder),
          leftBehind ? 75_000 : 20_000,
          'the handed-back run to finish',
        );
        expect(finished).toMatchObject({ status: 'completed', batchId, report: data.pinned.reportPath, rows: ROWS });
        const rows = await readReport(data.pinned.reportPath);
        expect(rows.map((row) => row.result)).toEqual(new Array(ROWS).fill('MATCH'));
      } finally {
        second.kill('SIGTERM');
        await waitForExit(second);
      }
    } finally {
      await deleteKeys(redis, ownPrefix);
    }
  }, 120_000);

  it('refuses a bad pattern, time zone or missing source with exit 2 and the reason', async () => {
    const badCron = await runCli(['schedule'], { ...env, SCHEDULE_CRON: 'every night' });
    expect(badCron.code).toBe(2);
    expect(badCron.stderr).toContain('SCHEDULE_CRON must be a cron pattern');
    const badZone = await runCli(['schedule'], { ...env, SCHEDULE_TZ: 'Asia/Atlantis' });
    expect(badZone.code).toBe(2);
    expect(badZone.stderr).toContain('SCHEDULE_TZ must be an IANA time zone');
    const badValue = await runCli(['schedule'], { ...env, SCHEDULE_CRON: '0 99 * * *' });
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain('is not a valid cron pattern');
    const noSource = await runCli(['schedule'], { ...env, SCHEDULE_SOURCE: '' });
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toContain('SCHEDULE_SOURCE is not set');
  }, 30_000);
});
