import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { redisKeys } from '../../src/redis/keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import {
  ACCOUNTS_FIXTURE,
  batchesOf,
  beneficiaryCsv,
  listDir,
  opsEnvironment,
  removeTempFolders,
  tempFolder,
  waitFor,
} from './ops-helpers.js';

const STABLE_SECONDS = 3;
const POLL_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watch <folder>', () => {
  let sandbox: SandboxServer;
  let redis: Redis;
  let prefix: string;
  let folder: string;
  let watcher: ReturnType<typeof startCli>;
  const inbox = () => join(folder, 'inbox');
  const outbox = () => join(folder, 'outbox');

  beforeAll(async () => {
    sandbox = await startSandbox({ accountsFile: ACCOUNTS_FIXTURE, latencyMs: { min: 0, max: 5 } });
    redis = testRedis();
    prefix = testKeyPrefix();
    folder = await tempFolder('watch');
    watcher = startCli(
      ['watch', folder],
      cliEnvironment(
        opsEnvironment(prefix, sandbox.url, {
          WATCH_STABLE: `${STABLE_SECONDS}s`,
          WATCH_POLL: `${POLL_MS}ms`,
          INQUIRY_RATE: '50/s',
          LOG_LEVEL: 'info',
        }),
      ),
    );
    await waitFor(
      async () => (await listDir(folder)).includes('inbox') && (await listDir(folder)).includes('failed'),
      10_000,
      'the watcher to create its folders',
    );
  });

  afterAll(async () => {
    if (watcher.exitCode === null) {
      watcher.kill('SIGTERM');
      await waitForExit(watcher);
    }
    await deleteKeys(redis, prefix);
    redis.disconnect();
    await sandbox?.close();
    await removeTempFolders();
  });

  /** Drops a file the way a careful writer does: as `.part`, renamed once complete (taken at once). */
  async function dropViaPart(name: string, text: string): Promise<void> {
    await writeFile(join(inbox(), `${name}.part`), text);
    // Seen under its .part name by at least one scan: a scan is not visible from outside the watcher, so
    // three poll intervals stand for it (too few only costs the stability wait, never a wrong result).
    await sleep(POLL_MS * 3);
    await rename(join(inbox(), `${name}.part`), join(inbox(), name));
  }

  it('takes a file written slowly in chunks only once it is complete: one report with every row', async () => {
    const csv = await beneficiaryCsv('SLOW', 20);
    const path = join(inbox(), 'slow.csv');
    // Pauses longer than the poll interval, shorter than the stability time.
    await writeFile(path, `${csv.header}\n`);
    for (let start = 0; start < csv.lines.length; start += 4) {
      await sleep(700);
      await appendFile(path, `${csv.lines.slice(start, start + 4).join('\n')}\n`);
    }
    const reportPath = join(outbox(), 'slow.reconciled.csv');
    await waitFor(async () => (await listDir(outbox())).includes('slow.reconciled.summary.json'), 20_000, 'the report of slow.csv');

    const rows = await readReport(reportPath);
    expect(rows.map((row) => row.beneficiary_id)).toEqual(csv.lines.map((line) => line.split(',')[0]));
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
    const summary = JSON.parse(await readFile(join(outbox(), 'slow.reconciled.summary.json'), 'utf8'));
    expect(summary).toMatchObject({ rows: 20, receivedAs: 'slow.csv', sourceFile: join(folder, 'archive', 'slow.csv') });
    expect(summary.counts.MATCH).toBe(20);
    // Never taken half-way: exactly one batch for the file, of all 20 rows; the whole file archived.
    const batches = (await batchesOf(redis, prefix)).filter((batch) => batch.sourceFile.endsWith('--slow.csv'));
    expect(batches).toHaveLength(1);
    expect(Number(await redis.hget(redisKeys(prefix).batch(batches[0]!.batchId), 'rowCount'))).toBe(20);
    expect(await readFile(join(folder, 'archive', 'slow.csv'), 'utf8')).toBe(csv.text);
    expect(await listDir(join(folder, 'processing'))).toEqual([]);
    expect(await listDir(join(folder, 'failed'))).toEqual([]);
  });

  it('takes a file renamed from .part at once, without the stability wait', async () => {
    const csv = await beneficiaryCsv('PART', 10);
    await writeFile(join(inbox(), 'fast.csv.part'), csv.text);
    await sleep(POLL_MS * 3); // seen under its .part name by a scan (not visible from outside: three poll intervals)
    const renamedAt = Date.now();
    await rename(join(inbox(), 'fast.csv.part'), join(inbox(), 'fast.csv'));
    await waitFor(async () => !(await listDir(inbox())).includes('fast.csv'), 10_000, 'fast.csv to be taken');
    expect(Date.now() - renamedAt).toBeLessThan(STABLE_SECONDS * 1000 - 500);
    await waitFor(async () => (await listDir(outbox())).includes('fast.reconciled.summary.json'), 15_000, 'the report of fast.csv');
    const rows = await readReport(join(outbox(), 'fast.reconciled.csv'));
    expect(rows.map((row) => row.beneficiary_id)).toEqual(csv.lines.map((line) => line.split(',')[0]));
    expect(await listDir(join(folder, 'archive'))).toContain('fast.csv');
  });

  it('moves a file without the required columns, or empty, to failed/ with the reason; leaves hidden, non-CSV and .part files alone', async () => {
    const batchesBefore = (await batchesOf(redis, prefix)).length;
    await writeFile(join(inbox(), '.hidden.csv'), 'bank_code,account_number\n014,0012345678\n');
    await writeFile(join(inbox(), 'readme.txt'), 'not a CSV\n');
    await writeFile(join(inbox(), 'pending.csv.part'), 'bank_code,account_number\n014,0012345678\n');
    await writeFile(join(inbox(), 'no-account.csv'), 'id,bank_code,holder\n1,014,Budi Santoso\n');
    await writeFile(join(inbox(), 'empty.csv'), '');

    const failed = join(folder, 'failed');
    await waitFor(
      async () => {
        const names = await listDir(failed);
        return names.includes('no-account.error.txt') && names.includes('empty.error.txt') && names.includes('empty.csv');
      },
      20_000,
      'the refused files in failed/',
    );
    expect(await listDir(failed)).toEqual(['empty.csv', 'empty.error.txt', 'no-account.csv', 'no-account.error.txt']);
    const missing = await readFile(join(failed, 'no-account.error.txt'), 'utf8');
    expect(missing).toContain('no-account.csv was not checked: required column(s) missing: account number');
    expect(missing).toContain('the header has: "id", "bank_code", "holder"');
    expect(await readFile(join(failed, 'empty.error.txt'), 'utf8')).toMatch(
      /empty\.csv was not checked: .*is empty: a header row is required/,
    );
    expect(await readFile(join(failed, 'no-account.csv'), 'utf8')).toBe('id,bank_code,holder\n1,014,Budi Santoso\n');
    // Nothing was queued for them, and the others stay where they are, well past the stability time.
    expect((await batchesOf(redis, prefix)).length).toBe(batchesBefore);
    expect(await listDir(inbox())).toEqual(['.hidden.csv', 'pending.csv.part', 'readme.txt']);
  });

  it('recognises the same content dropped twice: the second report repeats the first, nothing is asked again', async () => {
    const csv = await beneficiaryCsv('DUP', 8);
    await dropViaPart('dup-first.csv', csv.text);
    await waitFor(
      async () => (await listDir(outbox())).includes('dup-first.reconciled.summary.json'),
      15_000,
      'the report of dup-first.csv',
    );
    const first = JSON.parse(await readFile(join(outbox(), 'dup-first.reconciled.summary.json'), 'utf8'));
    const inquiriesAfterFirst = sandbox.stats().inquiries;
    const batchesAfterFirst = (await batchesOf(redis, prefix)).length;

    await dropViaPart('dup-second.csv', csv.text);
    // The summary, the duplicate note and the archived input are written one after another: wait for all.
    await waitFor(
      async () => {
        const written = await listDir(outbox());
        return (
          written.includes('dup-second.reconciled.summary.json') &&
          written.includes('dup-second.duplicate.txt') &&
          (await listDir(join(folder, 'archive'))).includes('dup-second.csv')
        );
      },
      15_000,
      'the report, the duplicate note and the archived dup-second.csv',
    );
    const second = JSON.parse(await readFile(join(outbox(), 'dup-second.reconciled.summary.json'), 'utf8'));
    expect(second.batchId).toBe(first.batchId);
    expect(second.duplicateOf).toMatchObject({
      file: 'dup-first.csv',
      batchId: first.batchId,
      report: join(outbox(), 'dup-first.reconciled.csv'),
    });
    expect(second.receivedAs).toBe('dup-second.csv');
    expect(await readFile(join(outbox(), 'dup-second.duplicate.txt'), 'utf8')).toContain(`dup-second.csv: duplicate of dup-first.csv`);
    const firstRows = await readReport(join(outbox(), 'dup-first.reconciled.csv'));
    const secondRows = await readReport(join(outbox(), 'dup-second.reconciled.csv'));
    expect(secondRows).toEqual(firstRows);
    expect(secondRows).toHaveLength(8);
    expect(sandbox.stats().inquiries).toBe(inquiriesAfterFirst);
    expect((await batchesOf(redis, prefix)).length).toBe(batchesAfterFirst);
    expect(await listDir(join(folder, 'archive'))).toEqual(expect.arrayContaining(['dup-first.csv', 'dup-second.csv']));
  });

  it('stops on SIGTERM when idle: exit 0, registration released', async () => {
    watcher.kill('SIGTERM');
    expect(await waitForExit(watcher)).toBe(0);
    expect(await redis.keys(`${prefix}:watch:*:alive`)).toEqual([]);
  });
});
