import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULT_COLUMNS } from '../../src/csv/report-columns.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { CLI, emulatorEnvironment, PROJECT_ROOT, runCli, type CliResult } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';

/**
 * The files a check writes (issue 25, low items): the summary written whole (a full disk left a 0-byte
 * summary.json), reports readable by their owner only, and a workbook report within Excel's limits (past
 * 16,384 columns it failed after every call was paid for; a cell over 32,767 characters was written as is).
 */
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;

const FILE = 'id,bank_code,account_number,name\n1,014,0012345678,Budi Santoso\n';

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: [{ bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' }],
  });
  workDir = await mkdtemp(join(tmpdir(), 'bc-output-files-'));
});

beforeEach(() => sandbox.resetStats());

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

const env = () => emulatorEnvironment(prefix, sandbox.url, { INQUIRY_RATE: '200/s' });

/** The CLI with its files limited to `kilobytes` (RLIMIT_FSIZE): a write past it fails with EFBIG, as on a full disk. */
async function runWithFileLimit(kilobytes: number, args: string[]): Promise<CliResult> {
  const child = spawn('bash', ['-c', `ulimit -f ${kilobytes} && exec "$@"`, 'bash', process.execPath, CLI, ...args], {
    env: env(),
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('the files a check writes', () => {
  it("a summary that cannot be written whole is not there at all (never 0 bytes, cut, or an earlier report's); the same command then writes both, asking nothing", async () => {
    const input = join(workDir, 'full-disk.csv');
    const report = join(workDir, 'full-disk.reconciled.csv');
    const summary = join(workDir, 'full-disk.reconciled.summary.json');
    // An earlier check of other content wrote a report and a summary there.
    await writeFile(input, FILE.replace('Budi Santoso', 'Budi'));
    expect((await runCli(['run', input, '--out', report], env())).code).toBe(0);
    expect(JSON.parse(await readFile(summary, 'utf8')).rows).toBe(1);

    // The report (under 1 KB) fits; the summary (over 1 KB) does not.
    await writeFile(input, FILE);
    const full = await runWithFileLimit(1, ['run', input, '--out', report]);
    expect(full.code, full.stderr).toBe(2);
    expect(full.stderr).toContain(`cannot write the summary ${summary}: EFBIG`);
    expect(await readdir(workDir)).not.toContain('full-disk.reconciled.summary.json');
    expect((await readdir(workDir)).filter((name) => name.includes('.tmp-'))).toEqual([]);

    sandbox.resetStats();
    const again = await runCli(['run', input, '--out', report], env());
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('every account is answered, only its report is written; nothing is asked');
    expect(sandbox.stats().inquiries).toBe(0);
    expect(JSON.parse(await readFile(summary, 'utf8'))).toMatchObject({ rows: 1, counts: { MATCH: 1 } });
  });

  it('a report that cannot be written whole leaves no file under its name and no temporary one', async () => {
    const input = join(workDir, 'big.csv');
    await writeFile(input, `id,bank_code,account_number,name,note\n1,014,0012345678,Budi Santoso,${'x'.repeat(4_000)}\n`);
    const report = join(workDir, 'big-out', 'big.reconciled.csv');
    const full = await runWithFileLimit(2, ['run', input, '--out', report]);
    expect(full.code, full.stderr).toBe(2);
    expect(full.stderr).toContain(`cannot write the report ${report}: EFBIG`);
    expect(await readdir(join(workDir, 'big-out'))).toEqual([]);
  });

  it('reports and summaries are created 0600, in folders created 0700', async () => {
    const input = join(workDir, 'private.csv');
    await writeFile(input, FILE);
    for (const out of [join(workDir, 'new', 'deeper', 'private.csv'), join(workDir, 'book', 'private.xlsx')]) {
      const result = await runCli(['run', input, '--out', out], env());
      expect(result.code, result.stderr).toBe(0);
      expect(await mode(out)).toBe(0o600);
      expect(await mode(out.replace(/\.(csv|xlsx)$/, '.summary.json'))).toBe(0o600);
    }
    expect(await mode(join(workDir, 'new'))).toBe(0o700);
    expect(await mode(join(workDir, 'new', 'deeper'))).toBe(0o700);
    expect(await mode(join(workDir, 'book'))).toBe(0o700);
  });

  it('a workbook report past 16,384 columns is refused before any call (exit 2); as CSV the file is checked', async () => {
    const input = join(workDir, 'wide.csv');
    const extra = Array.from({ length: 16_380 }, (_, index) => `c${index}`);
    await writeFile(
      input,
      `bank_code,account_number,name,${extra.join(',')}\n014,0012345678,Budi Santoso,${extra.map(() => 'x').join(',')}\n`,
    );
    const book = await runCli(['run', input, '--out', join(workDir, 'wide.xlsx')], env());
    expect(book.code, book.stderr).toBe(2);
    const columns = (16_383 + RESULT_COLUMNS.length).toLocaleString('en-US');
    expect(book.stderr).toContain(
      `would have ${columns} columns (the input's 16,383 and the result columns), more than the 16,384 a workbook holds: write it as CSV`,
    );
    expect(sandbox.stats().inquiries).toBe(0);
    const csv = await runCli(['run', input, '--out', join(workDir, 'wide.out.csv')], env());
    expect(csv.code, csv.stderr).toBe(0);
  });

  it('a cell over 32,767 characters is cut in a workbook and says so in itself; the CSV keeps it whole', async () => {
    const input = join(workDir, 'long-cell.csv');
    const note = `${'catatan '.repeat(5_000)}end`;
    await writeFile(input, `id,bank_code,account_number,name,note\n1,014,0012345678,Budi Santoso,${note}\n`);
    const book = join(workDir, 'long-cell.xlsx');
    expect((await runCli(['run', input, '--out', book], env())).code).toBe(0);
    const sheet = strFromU8(unzipSync(await readFile(book))['xl/worksheets/sheet1.xml']!);
    const texts = [...sheet.matchAll(/<(?:v|t)(?: [^>]*)?>([\s\S]*?)<\/(?:v|t)>/g)].map((match) => match[1]!);
    const cut = texts.find((text) => text.startsWith('catatan'))!;
    expect(cut.length).toBe(32_767);
    expect(cut.endsWith(`[cut: ${note.length.toLocaleString('en')} characters in all; a CSV report keeps the whole cell]`)).toBe(true);
    expect(texts.find((text) => text === 'MATCH')).toBeDefined();
    const csv = join(workDir, 'long-cell.out.csv');
    expect((await runCli(['run', input, '--out', csv], env())).code).toBe(0);
    expect((await readReport(csv))[0]!.note).toBe(note);
  });
});
