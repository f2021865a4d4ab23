import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../src/sandbox/index.js';
import { runCli, startCli, waitForExit } from '../support/cli.js';
import { readReport } from '../support/report.js';
import { listDir, waitFor } from '../ops/ops-helpers.js';
import { startWorld, type World } from './world.js';

// One emulator for every run: history applies only to answers from the same provider address.
const ACCOUNTS = {
  stays: { bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' },
  closes: { bankCode: '014', accountNumber: '5270123456', holderName: 'SITI NURHALIZA', status: 'SUCCESS' },
  renamed: { bankCode: '014', accountNumber: '0881234567', holderName: 'MUHAMMAD RIZKY PRATAMA', status: 'SUCCESS' },
  company: { bankCode: '008', accountNumber: '1234509876', holderName: 'PT SUMBER REJEKI ABADI', status: 'SUCCESS' },
};
const OPENED_LATER = { bankCode: '009', accountNumber: '7770001112', holderName: 'RINA MARLINA', status: 'SUCCESS' };
const NEW_IN_FILE = { bankCode: '009', accountNumber: '6660001113', holderName: 'JOKO WIDODO', status: 'SUCCESS' };

const HEADER = 'beneficiary_id,bank_code,account_number,beneficiary_name';
const FIRST_FILE = [
  HEADER,
  'B-1,014,0012345678,Budi Santoso',
  'B-2,014,5270123456,Siti Nurhaliza',
  'B-3,014,0881234567,Muhammad Rizky Pratama',
  'B-4,008,1234509876,PT Sumber Rejeki Abadi',
  'B-5,009,7770001112,Rina Marlina',
  'B-6,,0012345678,No Bank',
].join('\n');
// The next export: B-4's expected name changed, B-7 is a new beneficiary.
const SECOND_FILE = [
  HEADER,
  'B-1,014,0012345678,Budi Santoso',
  'B-2,014,5270123456,Siti Nurhaliza',
  'B-3,014,0881234567,Muhammad Rizky Pratama',
  'B-4,008,1234509876,Dewi Lestari',
  'B-5,009,7770001112,Rina Marlina',
  'B-6,,0012345678,No Bank',
  'B-7,009,6660001113,Joko Widodo',
].join('\n');

const byId = (rows: Record<string, string>[]) => new Map(rows.map((row) => [row.beneficiary_id!, row]));

describe('changes since the last check, and answer reuse', () => {
  let world: World;
  let sandbox: SandboxServer;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    world = await startWorld('history', Object.values(ACCOUNTS), { WATCH_STABLE: '30s', WATCH_POLL: '200ms' });
    ({ sandbox, folder, env } = world);
  });
  afterAll(() => world?.close());

  it('marks every change against the last answer, writes the changes file, reuses fresh answers and reports the same again', async () => {
    // 1. First check, through `run`: everything is NEW (the invalid row has no change).
    const first = await runCli(['run', join(folder, 'first.csv')], env);
    expect(first.code).toBe(2); // no such file yet: usage error, nothing asked
    await writeFile(join(folder, 'first.csv'), `${FIRST_FILE}\n`);
    const firstRun = await runCli(['run', join(folder, 'first.csv')], env);
    expect(firstRun.code, firstRun.stderr).toBe(0);
    const firstRows = byId(await readReport(join(folder, 'first.reconciled.csv')));
    expect(Object.keys(firstRows.get('B-1')!).slice(-7)).toEqual([
      'checked_at',
      'reason',
      'change',
      'account_number_checked',
      'decision',
      'decided_by',
      'decided_at',
    ]);
    expect([...firstRows.values()].map((row) => [row.beneficiary_id, row.result, row.change])).toEqual([
      ['B-1', 'MATCH', 'NEW'],
      ['B-2', 'MATCH', 'NEW'],
      ['B-3', 'MATCH', 'NEW'],
      ['B-4', 'MATCH', 'NEW'],
      ['B-5', 'ACCOUNT_INVALID', 'NEW'],
      ['B-6', 'INPUT_INVALID', ''],
    ]);
    const firstSummary = JSON.parse(await readFile(join(folder, 'first.reconciled.summary.json'), 'utf8'));
    expect(firstSummary.changes).toEqual({ NEW: 5, UNCHANGED: 0, HOLDER_CHANGED: 0, NOW_INVALID: 0, NOW_VALID: 0, RESULT_CHANGED: 0 });

    // 2. The bank's side changes, through the emulator's control endpoint: one account closed, one renamed, one opened.
    const control = await fetch(`${sandbox.url}/__sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        accounts: [
          { bank_code: '014', account_number: '5270123456', account_holder: 'SITI NURHALIZA', behaviour: 'closed' },
          { bank_code: '014', account_number: '0881234567', account_holder: 'AGUS WIJAYA' },
          ...[OPENED_LATER, NEW_IN_FILE].map((account) => ({
            bank_code: account.bankCode,
            account_number: account.accountNumber,
            account_holder: account.holderName,
          })),
        ],
      }),
    });
    expect(control.status).toBe(200);

    // 3. The next export through the watched folder: the report says what changed, the changes file holds only those rows.
    const watcher = startCli(['watch', folder], env);
    try {
      await waitFor(async () => (await listDir(folder)).includes('inbox'), 10_000, 'the watcher to create its folders');
      await writeFile(join(folder, 'inbox', 'second.csv.part'), `${SECOND_FILE}\n`);
      await new Promise((resolve) => setTimeout(resolve, 600)); // seen under its .part name, so the rename is taken at once
      await rename(join(folder, 'inbox', 'second.csv.part'), join(folder, 'inbox', 'second.csv'));
      await waitFor(
        async () => (await listDir(join(folder, 'outbox'))).includes('second.reconciled.summary.json'),
        30_000,
        'the report of second.csv',
      );
    } finally {
      watcher.kill('SIGTERM');
      await waitForExit(watcher);
    }
    const outbox = join(folder, 'outbox');
    expect(await listDir(outbox)).toEqual(['second.changes.csv', 'second.reconciled.csv', 'second.reconciled.summary.json']);
    const second = await readReport(join(outbox, 'second.reconciled.csv'));
    expect(second.map((row) => [row.beneficiary_id, row.result, row.change])).toEqual([
      ['B-1', 'MATCH', 'UNCHANGED'],
      ['B-2', 'ACCOUNT_INVALID', 'NOW_INVALID'],
      ['B-3', 'NO_MATCH', 'HOLDER_CHANGED'],
      ['B-4', 'NO_MATCH', 'RESULT_CHANGED'],
      ['B-5', 'MATCH', 'NOW_VALID'],
      ['B-6', 'INPUT_INVALID', ''],
      ['B-7', 'MATCH', 'NEW'],
    ]);
    const secondById = byId(second);
    const firstBatch = firstSummary.batchId as string;
    expect(secondById.get('B-2')!.reason).toMatch(
      /^provider: Account closed; previously valid, holder "SITI NURHALIZA" \(batch \S+, \d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
    );
    expect(secondById.get('B-2')!.reason).toContain(`(batch ${firstBatch}, `);
    expect(secondById.get('B-3')!.reason).toContain(`previous holder "MUHAMMAD RIZKY PRATAMA" (batch ${firstBatch}`);
    expect(secondById.get('B-4')!.reason).toContain(`previous result MATCH (batch ${firstBatch}`);
    expect(secondById.get('B-5')!.reason).toContain(`previously rejected: provider: Account not found (batch ${firstBatch}`);
    expect(secondById.get('B-1')!.reason).toBe('');
    const changes = await readReport(join(outbox, 'second.changes.csv'));
    expect(Object.keys(changes[0]!)).toEqual(Object.keys(second[0]!));
    expect(changes).toEqual(second.filter((row) => ['B-2', 'B-3', 'B-4', 'B-5'].includes(row.beneficiary_id!)));
    const secondSummary = JSON.parse(await readFile(join(outbox, 'second.reconciled.summary.json'), 'utf8'));
    expect(secondSummary).toMatchObject({
      changes: { NEW: 1, UNCHANGED: 1, HOLDER_CHANGED: 1, NOW_INVALID: 1, NOW_VALID: 1, RESULT_CHANGED: 1 },
      changesReport: join(outbox, 'second.changes.csv'),
      reusedAnswers: 0,
    });

    // 4. The first batch reported again: still NEW everywhere (it compares with what was known before its own answers).
    const exported = await runCli(['export', firstBatch, '--out', join(folder, 'first.again.csv')], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect((await readReport(join(folder, 'first.again.csv'))).map((row) => row.change)).toEqual(['NEW', 'NEW', 'NEW', 'NEW', 'NEW', '']);

    // 5. The same accounts again with --reuse-answers 1h: no inquiry at all, the same answers, each row saying whose answer it is.
    sandbox.resetStats();
    await writeFile(join(folder, 'third.csv'), `${SECOND_FILE}\n`);
    const reused = await runCli(['run', join(folder, 'third.csv'), '--reuse-answers', '1h'], env);
    expect(reused.code, reused.stderr).toBe(0);
    expect(sandbox.stats().inquiries).toBe(0);
    const third = await readReport(join(folder, 'third.reconciled.csv'));
    const pick = (rows: Record<string, string>[]) =>
      rows.map(({ beneficiary_id, result, name_score, account_holder, bank_name, inquiry_status, inquiry_id, checked_at }) => ({
        beneficiary_id,
        result,
        name_score,
        account_holder,
        bank_name,
        inquiry_status,
        inquiry_id,
        checked_at,
      }));
    expect(pick(third)).toEqual(pick(second));
    expect(third.map((row) => row.change)).toEqual(['UNCHANGED', 'UNCHANGED', 'UNCHANGED', 'UNCHANGED', 'UNCHANGED', '', 'UNCHANGED']);
    const secondBatch = secondSummary.batchId as string;
    for (const row of third.filter((row) => row.result !== 'INPUT_INVALID'))
      expect(row.reason).toContain(`answer reused from batch ${secondBatch} checked at `);
    const thirdSummary = JSON.parse(await readFile(join(folder, 'third.reconciled.summary.json'), 'utf8'));
    expect(thirdSummary).toMatchObject({ calls: 0, reusedAnswers: 6, changes: { UNCHANGED: 6 } });
    expect(reused.stdout).toContain('6 answer(s) reused');
  });
});
