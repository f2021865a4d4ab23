import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { opsEnvironment, removeTempFolders, tempFolder } from '../ops/ops-helpers.js';

/**
 * Headers as Indonesian transfer sheets write them (an outside review): a payee column the product did not
 * know (`Nama Penerima`) left every row VERIFIED, a payout to another person's account green; a group
 * heading above the real header was taken for the header, with the same result. Now the usual names are
 * read, a column that looks like names is never left unread in silence, and a second header row is refused.
 */
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let folder: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: [
      { bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' },
      { bankCode: '014', accountNumber: '5550004444', holderName: 'SITI AMINAH', status: 'SUCCESS' },
    ],
  });
  folder = await tempFolder('header-rows');
});

beforeEach(() => sandbox.resetStats());

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await removeTempFolders();
});

const env = () => cliEnvironment(opsEnvironment(prefix, sandbox.url, { INQUIRY_RATE: '200/s' }));

async function run(name: string, content: string, ...flags: string[]) {
  const file = join(folder, name);
  await writeFile(file, content);
  const out = join(folder, `${name}.out.csv`);
  return { ...(await runCli(['run', file, '--out', out, ...flags], env())), out };
}

describe('headers of transfer sheets', () => {
  it('`Kode Bank`, `No. Rekening`, `Nama Penerima` are read: the names are compared', async () => {
    const result = await run(
      'penerima.csv',
      'Kode Bank,No. Rekening,Nama Penerima,Nominal\n014,0012345678,Siti Aminah,100\n014,5550004444,Siti Aminah,100\n',
    );
    expect(result.code, result.stderr).toBe(0);
    expect((await readReport(result.out)).map((row) => row.result)).toEqual(['NO_MATCH', 'MATCH']);
  });

  it('a group heading above the header is refused (exit 2), nothing asked', async () => {
    const result = await run(
      'two-rows.csv',
      'No,Bank,Rekening,Penerima,\n,Kode Bank,Nomor Rekening,Nama Pemilik,Nominal\n1,014,0012345678,Siti Aminah,1500000\n',
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('the row at line 2 looks like a second header row');
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('names in a column of another name are refused unless named or waived with --name-column', async () => {
    const content = 'bank_code,account_number,Nama Lengkap\n014,0012345678,Siti Aminah\n';
    const refused = await run('lengkap.csv', content);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('"Nama Lengkap" looks like one: name it with --name-column');
    const named = await run('lengkap.csv', content, '--name-column', 'Nama Lengkap');
    expect(named.code, named.stderr).toBe(0);
    expect((await readReport(named.out)).map((row) => row.result)).toEqual(['NO_MATCH']);
    const waived = await run('lengkap-waived.csv', content, '--name-column', 'none');
    expect(waived.code, waived.stderr).toBe(0);
    expect((await readReport(waived.out)).map((row) => row.result)).toEqual(['VERIFIED']);
  });

  it('a tab-separated file is read by its tabs', async () => {
    const result = await run('tabs.csv', 'bank_code\taccount_number\tnama\n014\t0012345678\tBudi Santoso\n');
    expect(result.code, result.stderr).toBe(0);
    expect((await readReport(result.out, '\t')).map((row) => row.result)).toEqual(['MATCH']);
  });
});
