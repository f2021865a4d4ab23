import { mkdtemp, readFile, writeFile, access, constants } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { CLI, cliEnvironment, emulatorEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';

const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;

const providerEnv = (extra: Record<string, string> = {}) =>
  emulatorEnvironment(prefix, sandbox.url, {
    INQUIRY_RATE: '200/s',
    ...extra,
  });

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-run-'));
});

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('run on the shipped example, with the built-in emulator and no credentials', () => {
  it('writes the reconciliation CSV with every row in order and every kind of result', async () => {
    const out = join(workDir, 'example.csv');
    const result = await runCli(
      ['run', 'examples/beneficiaries.csv', '--out', out],
      cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix }),
    );
    expect(result.stderr).toContain('built-in provider emulator');
    expect(result.code).toBe(0);
    const input = await readReport(join(PROJECT_ROOT, 'examples/beneficiaries.csv'));
    const rows = await readReport(out);
    expect(rows.map((row) => row.beneficiary_id)).toEqual(input.map((row) => row.beneficiary_id));
    const byId = new Map(rows.map((row) => [row.beneficiary_id, row]));
    expect(byId.get('SEL-0001')).toMatchObject({
      result: 'MATCH',
      name_score: '100',
      account_holder: 'BUDI SANTOSO',
      bank_name: 'BCA',
      fee: '6500',
      inquiry_status: 'SUCCESS',
    });
    expect(byId.get('SEL-0001')!.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(byId.get('EMP-0303')).toMatchObject({ result: 'MATCH', inquiry_id: byId.get('SEL-0001')!.inquiry_id });
    expect(byId.get('AGT-0201')!.result).toBe('NO_MATCH');
    expect(byId.get('AGT-0205')!.result).toBe('NO_MATCH');
    expect(byId.get('EMP-0302')).toMatchObject({ result: 'VERIFIED', name_score: '' });
    expect(byId.get('EMP-0304')).toMatchObject({ result: 'FAILED', inquiry_status: 'PENDING' });
    expect(byId.get('EMP-0306')).toMatchObject({ result: 'FAILED', account_holder: '' });
    expect(byId.get('EMP-0305')).toMatchObject({ result: 'ACCOUNT_INVALID', reason: 'provider: Account not found' });
    expect(byId.get('EMP-0307')).toMatchObject({ result: 'ACCOUNT_INVALID', reason: 'provider: Bank not supported' });
    expect(byId.get('EMP-0308')!.reason).toContain('scientific notation');
    expect(byId.get('EMP-0309')).toMatchObject({ result: 'INPUT_INVALID', reason: 'bank code is empty' });
    expect(byId.get('EMP-0310')!.result).toBe('INPUT_INVALID');
    expect(byId.get('EMP-0311')!.notes).toBe(`'=HYPERLINK("http://example.invalid","click")`);
    expect(byId.get('EMP-0312')!.beneficiary_name).toBe('Saputra, Dimas Arya');
    const results = new Set(rows.map((row) => row.result));
    for (const value of ['MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'VERIFIED', 'ACCOUNT_INVALID', 'INPUT_INVALID', 'FAILED'])
      expect(results).toContain(value);

    const summary = JSON.parse(await readFile(join(workDir, 'example.summary.json'), 'utf8'));
    expect(summary.rows).toBe(28);
    expect(summary.accounts).toBe(24);
    expect(summary.calls).toBe(24);
    expect(Object.values(summary.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(28);
    expect(result.stdout).toContain('report: ');
  });
});

describe('input formats', () => {
  it('reads ; with BOM, CRLF and quoted newlines, keeps leading zeros and untouched columns, writes ; back', async () => {
    const file = join(workDir, 'semicolon.csv');
    const lines = [
      'No Rekening;Kode Bank;Nama Pemilik;Catatan',
      '0012345678;014;Budi Santoso;"baris satu\r\nbaris dua; dengan titik koma"',
      '0881234567;014;"Muhammad ""Rizky"" Pratama";',
      '0060009876543;008;Ratna Sari Dewi;plain',
    ];
    await writeFile(file, `\uFEFF${lines.join('\r\n')}\r\n`);
    const out = join(workDir, 'semicolon.reconciled.csv');
    const result = await runCli(['run', file, '--out', out], providerEnv());
    expect(result.code).toBe(0);
    const raw = await readFile(out, 'utf8');
    expect(raw.split('\r\n')[0]).toBe(
      '\uFEFFNo Rekening;Kode Bank;Nama Pemilik;Catatan;result;name_score;account_holder;bank_name;fee;inquiry_status;inquiry_id;checked_at;reason;change;account_number_checked;decision;decided_by;decided_at',
    );
    const rows = await readReport(out, ';');
    expect(rows.map((row) => row['No Rekening'])).toEqual(['0012345678', '0881234567', '0060009876543']);
    expect(rows[0]!.Catatan).toBe('baris satu\r\nbaris dua; dengan titik koma');
    expect(rows[1]!['Nama Pemilik']).toBe('Muhammad "Rizky" Pratama');
    expect(rows.map((row) => row.result)).toEqual(['MATCH', 'MATCH', 'MATCH']);
  });

  it('honours column flags over the aliases', async () => {
    const file = join(workDir, 'flags.csv');
    await writeFile(file, 'name,legal_name,bank,acct\nNickname,Budi Santoso,014,0012345678\n');
    const result = await runCli(
      ['run', file, '--out', join(workDir, 'flags.out.csv'), '--name-column', 'legal_name', '--account-column', 'acct'],
      providerEnv(),
    );
    expect(result.code).toBe(0);
    expect((await readReport(join(workDir, 'flags.out.csv')))[0]).toMatchObject({ name: 'Nickname', result: 'MATCH' });
  });
});

describe('duplicates and ordering', () => {
  it('asks each account once, answers every duplicate row, and keeps input order under random latency', async () => {
    sandbox.setKnobs({ latencyMs: { min: 0, max: 60 } });
    sandbox.resetStats();
    const accounts = [
      ['014', '0012345678', 'Budi Santoso'],
      ['009', '1122334455', 'Dewi Lestari'],
      ['002', '034101000123456', 'Agus Setiawan'],
      ['022', '800123456789', 'Tan Siew Ling'],
      ['200', '0011501234567890', 'Fitriani Rahmawati'],
    ];
    const lines = ['row,bank_code,account_number,beneficiary_name,amount'];
    for (let row = 0; row < 60; row += 1) {
      const [bank, account, name] = accounts[(row * 7) % accounts.length]!;
      lines.push(`${row},${bank},${account},${name},${row * 1000}`);
    }
    const file = join(workDir, 'duplicates.csv');
    await writeFile(file, `${lines.join('\n')}\n`);
    const out = join(workDir, 'duplicates.out.csv');
    const result = await runCli(['run', file, '--out', out, '--concurrency', '8'], providerEnv());
    sandbox.setKnobs({ latencyMs: { min: 0, max: 0 } });
    expect(result.code).toBe(0);
    const stats = sandbox.stats();
    expect(stats.answeredInquiries).toBe(5);
    expect(Object.values(stats.inquiriesByAccount)).toEqual([1, 1, 1, 1, 1]);
    const rows = await readReport(out);
    expect(rows.map((row) => row.row)).toEqual(lines.slice(1).map((line) => line.split(',')[0]));
    expect(rows.map((row) => row.amount)).toEqual(lines.slice(1).map((line) => line.split(',')[4]));
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
  });
});

describe('bad input and systemic failures', () => {
  it('exits 2 with the path for a missing file', async () => {
    const result = await runCli(['run', join(workDir, 'nope.csv')], providerEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(workDir, 'nope.csv'));
  });

  it('exits 2 naming the columns found when the account column is missing', async () => {
    const file = join(workDir, 'columns.csv');
    await writeFile(file, 'id,bank,holder\n1,014,Budi\n');
    const result = await runCli(['run', file], providerEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('account number');
    expect(result.stderr).toContain('"id", "bank", "holder"');
  });

  it('exits 2 on a bad flag', async () => {
    const result = await runCli(['run', 'examples/beneficiaries.csv', '--rate', 'fast'], providerEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invalid rate');
  });

  it('writes an empty report and a summary for a header-only file, exit 0', async () => {
    const file = join(workDir, 'empty.csv');
    await writeFile(file, 'bank_code,account_number,name\n');
    const out = join(workDir, 'empty.out.csv');
    const result = await runCli(['run', file, '--out', out], providerEnv());
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('has a header and no data rows: the report holds none');
    expect(await readReport(out)).toEqual([]);
    expect(JSON.parse(await readFile(join(workDir, 'empty.out.summary.json'), 'utf8'))).toMatchObject({
      rows: 0,
      accounts: 0,
      calls: 0,
      notes: ['the file has a header and no data rows: the report holds none'],
    });
  });

  it('exits 1 after one login call and no inquiry when the password is wrong', async () => {
    sandbox.resetStats();
    // A prefix of its own: a token cached by an earlier test would (rightly) still be used.
    const ownPrefix = testKeyPrefix();
    const result = await runCli(
      ['run', 'examples/beneficiaries.csv', '--out', join(workDir, 'wrong.csv')],
      providerEnv({ H2H_PASSWORD: 'wrong', BC_KEY_PREFIX: ownPrefix }),
    );
    await deleteKeys(redis, ownPrefix);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('login failed: Invalid username or password');
    expect(result.stderr).not.toContain('wrong');
    expect(sandbox.stats()).toMatchObject({ logins: 0, failedLogins: 1, inquiries: 0 });
  });

  it('exits 1 naming the URL when Redis is unreachable', async () => {
    const result = await runCli(['run', 'examples/beneficiaries.csv'], providerEnv({ REDIS_URL: 'redis://127.0.0.1:1' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Redis is unreachable at redis://127.0.0.1:1');
  });
});

describe('the binary', () => {
  it('is the built entry point, executable, and answers --help', async () => {
    const pkg = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    expect(join(PROJECT_ROOT, pkg.bin['beneficiary-check'])).toBe(CLI);
    await access(CLI, constants.X_OK);
    const result = await runCli(['--help'], cliEnvironment({}));
    expect(result.code).toBe(0);
    for (const command of ['run', 'enqueue', 'worker', 'export', 'status', 'sandbox']) expect(result.stdout).toContain(command);
  });

  it('reads the provider environment the same way from --env and H2H_ENV: in any case, refused with one message', async () => {
    const env = cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: testKeyPrefix() });
    const file = join(workDir, 'env-case.csv');
    await writeFile(file, 'bank_code,account_number,name\n014,0012345678,Budi Santoso\n');
    for (const [args, extra] of [
      [['--env', 'Production'], {}],
      [[], { H2H_ENV: 'PRODUCTION' }],
    ] as const) {
      const result = await runCli(['run', file, ...args], { ...env, ...extra });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('production needs H2H_BASE_URL');
    }
    for (const [args, extra] of [
      [['--env', 'prod'], {}],
      [[], { H2H_ENV: 'prod' }],
    ] as const) {
      const result = await runCli(['run', file, ...args], { ...env, ...extra });
      expect(result.code).toBe(2);
      // One rule; the message names what the user wrote it in.
      expect(result.stderr).toContain(`${args.length > 0 ? '--env' : 'H2H_ENV'} must be "sandbox" or "production", not "prod"`);
    }
  });
});
