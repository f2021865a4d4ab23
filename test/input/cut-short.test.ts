import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { listDir, opsEnvironment, removeTempFolders, tempFolder, waitFor } from '../ops/ops-helpers.js';
import { startServe, stopServe, uploadCsv } from '../console/console-helpers.js';

/**
 * A last row cut short (issue 25, defect 3): a file whose transfer stopped mid-row (`...\nB,014,71000`, no
 * line end, fewer fields than the header) sent account `71000` and reported it, VERIFIED by a provider that
 * knows it. Now the file is refused, with exit 2 and the reason, whichever way it comes in: nothing is asked.
 */
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let folder: string;

const WHOLE = 'beneficiary_id,bank_code,account_number,beneficiary_name\nA,014,0012345678,Budi Santoso\nB,014,7100012345,Dewi Lestari\n';
const CUT = 'beneficiary_id,bank_code,account_number,beneficiary_name\nA,014,0012345678,Budi Santoso\nB,014,71000';
const REASON = 'stops in the middle of a row: its last line (3) has 3 of the header\'s 4 fields and no line end';

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: [
      { bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' },
      { bankCode: '014', accountNumber: '7100012345', holderName: 'DEWI LESTARI', status: 'SUCCESS' },
      // The provider knows the cut number too: asked, it would be VERIFIED.
      { bankCode: '014', accountNumber: '71000', holderName: 'SOMEBODY ELSE', status: 'SUCCESS' },
    ],
  });
  folder = await tempFolder('cut-short');
});

beforeEach(() => sandbox.resetStats());

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await removeTempFolders();
});

const env = (extra: Record<string, string> = {}) => cliEnvironment(opsEnvironment(prefix, sandbox.url, { INQUIRY_RATE: '200/s', ...extra }));

describe('a last row cut short', () => {
  it('`run` and `enqueue` refuse the file (exit 2, the line named, no account number shown); nothing is asked', async () => {
    const file = join(folder, 'cut.csv');
    await writeFile(file, CUT);
    for (const args of [['run', file, '--out', join(folder, 'cut.out.csv')], ['enqueue', file]]) {
      const result = await runCli(args, env());
      expect(result.code, `${args[0]}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(REASON);
      expect(result.stderr).not.toMatch(/71000|0012345678/);
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('the whole file, or a complete last row without a line end, is checked as before', async () => {
    const whole = join(folder, 'whole.csv');
    await writeFile(whole, WHOLE.trimEnd());
    const result = await runCli(['run', whole, '--out', join(folder, 'whole.out.csv')], env());
    expect(result.code, result.stderr).toBe(0);
    expect((await readReport(join(folder, 'whole.out.csv'))).map((row) => [row.beneficiary_id, row.result])).toEqual([
      ['A', 'MATCH'],
      ['B', 'MATCH'],
    ]);
  });

  it('the watched folder moves it to failed/ with the reason; the console refuses the upload (422)', async () => {
    const watched = join(folder, 'watched');
    const watcher = startCli(['watch', watched], env({ WATCH_STABLE: '1s', WATCH_POLL: '100ms' }));
    try {
      await waitFor(async () => (await listDir(watched)).includes('inbox'), 10_000, 'the watcher to create its folders');
      await writeFile(join(watched, 'inbox', 'payouts.csv.part'), CUT);
      await rename(join(watched, 'inbox', 'payouts.csv.part'), join(watched, 'inbox', 'payouts.csv'));
      await waitFor(async () => (await listDir(join(watched, 'failed'))).includes('payouts.error.txt'), 30_000, 'the cut file in failed/');
      expect(await readFile(join(watched, 'failed', 'payouts.error.txt'), 'utf8')).toContain(REASON);
      expect(await listDir(join(watched, 'outbox'))).toEqual([]);
    } finally {
      watcher.kill('SIGTERM');
      await waitForExit(watcher);
    }

    const serve = await startServe([], env({ CONSOLE_REPORTS_DIR: join(folder, 'console') }));
    try {
      const response = await uploadCsv(serve.url, 'payouts.csv', CUT);
      expect(response.status).toBe(422);
      expect(await response.text()).toContain(REASON);
    } finally {
      await stopServe(serve);
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('a workbook cut short is refused too (a broken zip, exit 2), nothing asked', async () => {
    const source = join(folder, 'for-book.csv');
    await writeFile(source, WHOLE);
    const book = join(folder, 'book.xlsx');
    const made = await runCli(['run', source, '--out', book], env());
    expect(made.code, made.stderr).toBe(0);
    sandbox.resetStats();
    const bytes = await readFile(book);
    const cut = join(folder, 'cut-book.xlsx');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    const result = await runCli(['run', cut, '--out', join(folder, 'cut-book.out.csv')], env());
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('not a readable XLSX workbook');
    expect(sandbox.stats().inquiries).toBe(0);
  });
});
