import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { strFromU8, unzipSync } from 'fflate';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxAccount, type SandboxServer } from '../../src/sandbox/index.js';
import { emulatorEnvironment, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';

/**
 * Answers never cross endpoints (issue 25, defect 1): a batch, its continuation, answer reuse and the
 * account history belong to one endpoint (environment + provider base address). Before, batches were found
 * by content alone: a production run of a file the sandbox had just checked "continued" the sandbox batch,
 * asked production only the sandbox's FAILED accounts and wrote a production report of sandbox answers.
 * Two emulators stand for the two endpoints; they give different answers for the same accounts, so a
 * report shows whose answer each row is.
 */
const prefix = testKeyPrefix();
const redis = testRedis();
let workDir: string;
const emulators: SandboxServer[] = [];

const FILE = [
  'beneficiary_id,bank_code,account_number,beneficiary_name',
  'B-1,014,0012345678,Budi Santoso',
  'B-2,014,1234567890,Dewi Lestari',
  'B-3,008,5270123456,Siti Nurhaliza',
  'B-4,009,0881234567,Rina Marlina',
  'B-5,014,7770001112,Joko Widodo',
  'B-6,014,6660001113,Agus Salim',
].join('\n');

const account = (accountNumber: string, bankCode: string, holderName: string, status = 'SUCCESS'): SandboxAccount => ({
  bankCode,
  accountNumber,
  holderName,
  status,
});

/** The first endpoint: B-5 and B-6 are PENDING there (FAILED rows, asked again within 12 h by a continuation). */
const FIRST_ACCOUNTS = [
  account('0012345678', '014', 'BUDI SANTOSO'),
  account('1234567890', '014', 'DEWI LESTARI'),
  account('5270123456', '008', 'SITI NURHALIZA'),
  account('0881234567', '009', 'RINA MARLINA'),
  account('7770001112', '014', 'JOKO WIDODO', 'PENDING'),
  account('6660001113', '014', 'AGUS SALIM', 'PENDING'),
];
/** The second endpoint knows B-1 as somebody else's account: only its own answer may decide the row. */
const SECOND_ACCOUNTS = [
  account('0012345678', '014', 'ANDI WIJAYA KUSUMA'),
  account('1234567890', '014', 'DEWI LESTARI'),
  account('5270123456', '008', 'SITI NURHALIZA'),
  account('0881234567', '009', 'RINA MARLINA'),
  account('7770001112', '014', 'JOKO WIDODO'),
  account('6660001113', '014', 'AGUS SALIM'),
];

async function emulator(accounts: SandboxAccount[]): Promise<SandboxServer> {
  const started = await startSandbox({ accounts });
  emulators.push(started);
  return started;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-endpoints-'));
});

afterAll(async () => {
  await Promise.all(emulators.map((each) => each.close()));
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

const summaryOf = async (reportPath: string) =>
  JSON.parse(await readFile(reportPath.replace(/\.csv$/, '.summary.json'), 'utf8')) as Record<string, unknown>;

describe('answers never cross endpoints', () => {
  it.each([
    ['a sandbox run, then a production run of the same file', 'production'],
    ['a run at one provider address, then a run at another address of the same environment', 'sandbox'],
  ])(
    '%s: the second endpoint asks every account; its report, history and reuse hold only its own answers',
    async (label, secondEnvironment) => {
      const first = await emulator(FIRST_ACCOUNTS);
      const second = await emulator(SECOND_ACCOUNTS);
      const runPrefix = `${prefix}-${secondEnvironment}`;
      const file = join(workDir, `${secondEnvironment}-payouts.csv`);
      await writeFile(file, `${FILE}\n`);
      const firstEnv = emulatorEnvironment(runPrefix, first.url, { INQUIRY_RATE: '200/s' });
      const secondEnv = emulatorEnvironment(runPrefix, second.url, { INQUIRY_RATE: '200/s', H2H_ENV: secondEnvironment });

      const firstOut = join(workDir, `${secondEnvironment}-first.csv`);
      const firstRun = await runCli(['run', file, '--out', firstOut], firstEnv);
      expect(firstRun.code, firstRun.stderr).toBe(0);
      const firstRows = await readReport(firstOut);
      expect(firstRows.map((row) => row.result)).toEqual(['MATCH', 'MATCH', 'MATCH', 'MATCH', 'FAILED', 'FAILED']);
      const firstBatch = (await summaryOf(firstOut)).batchId as string;

      // The same file at the other endpoint, with answer reuse on: a new batch, every account asked there.
      const secondOut = join(workDir, `${secondEnvironment}-second.csv`);
      const secondRun = await runCli(['run', file, '--out', secondOut, '--reuse-answers', '7d'], secondEnv);
      expect(secondRun.code, secondRun.stderr).toBe(0);
      expect(secondRun.stderr, label).not.toContain('continuing');
      expect(second.stats().inquiries).toBe(6);
      const secondRows = await readReport(secondOut);
      expect(secondRows.map((row) => [row.beneficiary_id, row.result, row.account_holder, row.change])).toEqual([
        ['B-1', 'NO_MATCH', 'ANDI WIJAYA KUSUMA', 'NEW'],
        ['B-2', 'MATCH', 'DEWI LESTARI', 'NEW'],
        ['B-3', 'MATCH', 'SITI NURHALIZA', 'NEW'],
        ['B-4', 'MATCH', 'RINA MARLINA', 'NEW'],
        ['B-5', 'MATCH', 'JOKO WIDODO', 'NEW'],
        ['B-6', 'MATCH', 'AGUS SALIM', 'NEW'],
      ]);
      // No row carries the first endpoint's answer: none of its answer times (`checked_at`) comes back.
      const firstAnswers = new Set(firstRows.map((row) => row.checked_at).filter((at) => at !== ''));
      expect(secondRows.filter((row) => firstAnswers.has(row.checked_at!))).toEqual([]);
      expect(secondRows.every((row) => !/reused/.test(row.reason!))).toBe(true);

      // The summary (JSON and printed) names the endpoint, and so does `status`.
      const summary = await summaryOf(secondOut);
      expect(summary.batchId).not.toBe(firstBatch);
      expect(summary.endpoint).toEqual({ environment: secondEnvironment, address: second.url });
      expect(secondRun.stdout).toContain(`endpoint: ${secondEnvironment} ${second.url}`);
      const status = await runCli(['status', firstBatch, '--json'], firstEnv);
      expect(JSON.parse(status.stdout).endpoint).toEqual({ environment: 'sandbox', address: first.url });
      // A workbook of the report says it in its properties (File > Info).
      const book = join(workDir, `${secondEnvironment}-second.xlsx`);
      expect((await runCli(['export', summary.batchId as string, '--out', book], secondEnv)).code).toBe(0);
      expect(strFromU8(unzipSync(await readFile(book))['docProps/core.xml']!)).toContain(
        `every answer from ${secondEnvironment} ${second.url}`,
      );

      // Back at the first endpoint: its own batch is continued (its FAILED rows asked again), never the other's answers.
      first.resetStats();
      first.upsertAccounts([account('7770001112', '014', 'JOKO WIDODO'), account('6660001113', '014', 'AGUS SALIM')]);
      const againOut = join(workDir, `${secondEnvironment}-again.csv`);
      const again = await runCli(['run', file, '--out', againOut, '--reuse-answers', '7d'], firstEnv);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`continuing finished batch ${firstBatch}`);
      expect(first.stats().inquiries).toBe(2);
      const againRows = await readReport(againOut);
      expect(againRows.map((row) => [row.beneficiary_id, row.result, row.account_holder])).toEqual([
        ['B-1', 'MATCH', 'BUDI SANTOSO'],
        ['B-2', 'MATCH', 'DEWI LESTARI'],
        ['B-3', 'MATCH', 'SITI NURHALIZA'],
        ['B-4', 'MATCH', 'RINA MARLINA'],
        ['B-5', 'MATCH', 'JOKO WIDODO'],
        ['B-6', 'MATCH', 'AGUS SALIM'],
      ]);
      const secondAnswers = new Set(secondRows.map((row) => row.checked_at));
      expect(againRows.filter((row) => secondAnswers.has(row.checked_at!))).toEqual([]);

      // `resume` of a batch of one endpoint from a process configured for the other is refused: nothing asked.
      second.resetStats();
      const resume = await runCli(['resume', firstBatch, '--out', join(workDir, `${secondEnvironment}-resume.csv`)], secondEnv);
      expect(resume.code, resume.stderr).toBe(2);
      expect(resume.stderr).toContain(`batch ${firstBatch} was checked at sandbox ${first.url}`);
      expect(second.stats().inquiries).toBe(0);
    },
  );

  it('`enqueue` of the same file at another endpoint makes a batch of its own', async () => {
    const first = await emulator(FIRST_ACCOUNTS);
    const second = await emulator(SECOND_ACCOUNTS);
    const file = join(workDir, 'enqueued.csv');
    await writeFile(file, `${FILE}\n`);
    const runPrefix = `${prefix}-enqueue`;
    const atFirst = await runCli(['enqueue', file], emulatorEnvironment(runPrefix, first.url));
    const atSecond = await runCli(['enqueue', file], emulatorEnvironment(runPrefix, second.url, { H2H_ENV: 'production' }));
    const atFirstAgain = await runCli(['enqueue', file], emulatorEnvironment(runPrefix, `${first.url}/`));
    for (const result of [atFirst, atSecond, atFirstAgain]) expect(result.code, result.stderr).toBe(0);
    expect(atSecond.stdout.trim()).not.toBe(atFirst.stdout.trim());
    // The same address written with a trailing slash is the same endpoint: the unfinished batch is joined.
    expect(atFirstAgain.stdout.trim()).toBe(atFirst.stdout.trim());
  });
});
