import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';

// NAME_MATCH_POLICY travels from the environment through loadConfig and the app into the report writer: the
// same file, the same provider answers, two policies, two results for the bank-truncated name only.
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;
let input: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-policy-'));
  const accounts = join(workDir, 'accounts.csv');
  await writeFile(
    accounts,
    [
      'bank_code,account_number,account_holder',
      '014,0011223344,SITI NURHALIZA KARTIKASARI PUT',
      '014,0055667788,BUDI SANTOSO',
      '014,0099887766,PARLINDUNGAN SINAGA',
    ].join('\n'),
  );
  input = join(workDir, 'payouts.csv');
  await writeFile(
    input,
    `${['id,bank_code,account_number,name', 'A,014,0011223344,Siti Nurhaliza Kartikasari Putri Handayani', 'B,014,0055667788,Budi Santoso', 'C,014,0099887766,Ucok Sinaga'].join('\n')}\n`,
  );
  sandbox = await startSandbox({ accountsFile: accounts });
});

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

async function run(policy: string | undefined): Promise<Map<string, Record<string, string>>> {
  const out = join(workDir, `report-${policy ?? 'default'}.csv`);
  const env = cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: `${prefix}:${policy ?? 'default'}`,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    NAME_MATCH_POLICY: policy,
  });
  const result = await runCli(['run', input, '--out', out], env);
  expect(result.code, result.stderr).toBe(0);
  return new Map((await readReport(out)).map((row) => [row.id!, row]));
}

describe('NAME_MATCH_POLICY in a run', () => {
  it('standard (the default) takes a bank-truncated name that identifies the person as MATCH; strict leaves it to a person', async () => {
    const standard = await run(undefined);
    expect(standard.get('A')).toMatchObject({ result: 'MATCH', account_holder: 'SITI NURHALIZA KARTIKASARI PUT' });
    expect(standard.get('A')!.reason).toContain(
      "holder name cut at 30 characters: 'PUT' read as the start of 'PUTRI', 'HANDAYANI' not shown",
    );
    const strict = await run('strict');
    expect(strict.get('A')).toMatchObject({ result: 'CLOSE_MATCH' });
    expect(strict.get('A')!.reason).toContain('strict policy: a person confirms');
    for (const rows of [standard, strict]) expect(rows.get('B')).toMatchObject({ result: 'MATCH', name_score: '100' });
  });

  it("takes a site's name rules from NAME_RULES_FILE, and refuses a broken file with exit 2 before doing anything", async () => {
    const rules = join(workDir, 'name-rules.json');
    await writeFile(rules, JSON.stringify({ nicknames: [{ short: 'UCOK', full: ['PARLINDUNGAN'], kind: 'nickname', source: 'ops' }] }));
    const env = (file: string) =>
      cliEnvironment({
        REDIS_URL: TEST_REDIS_URL,
        BC_KEY_PREFIX: `${prefix}:rules`,
        H2H_BASE_URL: sandbox.url,
        H2H_USERNAME: 'sandbox',
        H2H_PASSWORD: 'sandbox',
        NAME_RULES_FILE: file,
      });
    const out = join(workDir, 'report-rules.csv');
    const ok = await runCli(['run', input, '--out', out], env(rules));
    expect(ok.code, ok.stderr).toBe(0);
    const rows = new Map((await readReport(out)).map((row) => [row.id!, row]));
    expect(rows.get('C')).toMatchObject({
      result: 'CLOSE_MATCH',
      reason: expect.stringContaining("'UCOK' may be a short form of 'PARLINDUNGAN'"),
    });
    expect((await run(undefined)).get('C')).toMatchObject({ result: 'NO_MATCH' });

    const broken = join(workDir, 'broken-rules.json');
    await writeFile(broken, JSON.stringify({ nicknames: [{ short: 'BUDI', kind: 'nickname' }] }));
    const refused = await runCli(['run', input, '--out', join(workDir, 'never-rules.csv')], env(broken));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`NAME_RULES_FILE ${broken} is not a valid name rules file`);
    expect(refused.stderr).toContain('nicknames[0].full: missing');
    expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('refuses an unknown policy as a usage error before doing anything', async () => {
    const result = await runCli(
      ['run', input, '--out', join(workDir, 'never.csv')],
      cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix, NAME_MATCH_POLICY: 'lenient' }),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('NAME_MATCH_POLICY must be "standard" or "strict", not "lenient"');
  });
});
