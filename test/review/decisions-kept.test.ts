import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/redis/keys.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { emulatorEnvironment, runCli } from '../support/cli.js';
import { startDurableRedis, type DurableRedis } from '../support/redis-processes.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { removeTempFolders, tempFolder } from '../ops/ops-helpers.js';
import { startWorld, type World } from '../history/world.js';
import { Redis } from 'ioredis';
import { ACCOUNTS, EXPORT, reportRows, reviewedCopy, summaryOf, trailOf } from './review-helpers.js';

/**
 * Decisions are records, not working state: `delete`, `prune` and a Redis restart (the append-only file on,
 * as in the compose file) leave them standing; only their own retention (DECISION_RETENTION, default
 * for ever) ends them.
 */
describe('where decisions live and how long', () => {
  let durable: DurableRedis | undefined;
  let sandbox: SandboxServer | undefined;
  let world: World | undefined;

  afterAll(async () => {
    await sandbox?.close();
    await durable?.stop();
    await world?.close();
    await removeTempFolders();
  });

  it('outlive delete, prune and a Redis restart', async () => {
    durable = await startDurableRedis();
    sandbox = await startSandbox({ accounts: Object.values(ACCOUNTS) });
    const prefix = testKeyPrefix();
    const folder = await tempFolder('decisions-kept');
    const env = emulatorEnvironment(prefix, sandbox.url, { REDIS_URL: durable.url, INQUIRY_RATE: '100/s' });
    const input = join(folder, 'payouts.csv');
    await writeFile(input, EXPORT);
    expect((await runCli(['run', input], env)).code).toBe(0);
    const report = join(folder, 'payouts.reconciled.csv');
    const reviewed = join(folder, 'reviewed.csv');
    await reviewedCopy(report, reviewed, { 'B-2': 'APPROVED', 'B-3': 'REJECTED' });
    const review = await runCli(['review', reviewed, '--by', 'ratna'], env);
    expect(review.stdout).toContain('2 recorded');
    // This Redis keeps an append-only file: no warning about decisions lost at a restart.
    expect(review.stderr).not.toContain('append-only');

    expect((await runCli(['delete', (await summaryOf(report)).batchId as string], env)).code).toBe(0);
    expect((await runCli(['prune', '--older-than', '0s'], env)).code).toBe(0);
    await durable.restart();

    const again = join(folder, 'again.csv');
    await writeFile(again, EXPORT);
    const run = await runCli(['run', again], env);
    expect(run.code, run.stderr).toBe(0);
    const rows = await reportRows(join(folder, 'again.reconciled.csv'));
    expect(rows.get('B-2')).toMatchObject({ decision: 'APPROVED', decided_by: 'ratna' });
    expect(rows.get('B-3')).toMatchObject({ decision: 'REJECTED', decided_by: 'ratna' });
    const redis = new Redis(durable.url);
    try {
      expect((await trailOf(redis, prefix)).map((entry) => entry.decision)).toEqual(['APPROVED', 'REJECTED']);
    } finally {
      redis.disconnect();
    }
  });

  it('stand only as long as DECISION_RETENTION, and prune then removes them with their audit entries', async () => {
    // A retention of a few seconds: the passing time is what is tested here.
    const keepMs = 6_000;
    const keepDays = keepMs / 86_400_000;
    world = await startWorld('decision-retention', Object.values(ACCOUNTS), { DECISION_RETENTION: `${keepDays}d` });
    const { folder, env, prefix } = world;
    const input = join(folder, 'payouts.csv');
    await writeFile(input, EXPORT);
    expect((await runCli(['run', input], env)).code).toBe(0);
    const reviewed = join(folder, 'reviewed.csv');
    await reviewedCopy(join(folder, 'payouts.reconciled.csv'), reviewed, { 'B-2': 'APPROVED', 'B-3': 'REJECTED' });
    expect((await runCli(['review', reviewed, '--by', 'ratna'], env)).stdout).toContain('2 recorded');
    expect(
      (
        await runCli(
          ['export', (await summaryOf(join(folder, 'payouts.reconciled.csv'))).batchId as string, '--out', join(folder, 'fresh.csv')],
          env,
        )
      ).code,
    ).toBe(0);
    expect((await reportRows(join(folder, 'fresh.csv'))).get('B-2')).toMatchObject({ decision: 'APPROVED' });
    const redis = testRedis();
    const decidedAt = Number((await trailOf(redis, prefix))[0]!.id!.split('-')[0]);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, decidedAt + keepMs + 500 - Date.now())));
    expect(
      (
        await runCli(
          ['export', (await summaryOf(join(folder, 'payouts.reconciled.csv'))).batchId as string, '--out', join(folder, 'later.csv')],
          env,
        )
      ).code,
    ).toBe(0);
    expect((await reportRows(join(folder, 'later.csv'))).get('B-2')).toMatchObject({ decision: '', decided_by: '' });
    expect(await summaryOf(join(folder, 'later.csv'))).toMatchObject({ needsReview: 2 });
    const prune = await runCli(['prune'], env);
    expect(prune.stdout).toContain('2 decision(s) older than DECISION_RETENTION removed, with their audit entries');
    try {
      expect(await redis.exists(redisKeys(prefix).decisionsStanding())).toBe(0);
      expect(await trailOf(redis, prefix)).toEqual([]);
    } finally {
      await deleteKeys(redis, prefix);
      redis.disconnect();
    }
  });
});
