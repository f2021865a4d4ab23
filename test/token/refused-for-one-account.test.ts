import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, runCli } from '../support/cli.js';
import { answerSuccess, sendJson, startMisbehavingProvider, type MisbehavingProvider } from '../support/misbehaving-provider.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';

/**
 * A provider that answers HTTP 401 for one account whatever the token (a bank its credentials may not ask
 * about), and answers every other account. One batch's bad row must never block another batch: the next run
 * of another file asks its own accounts and finishes; and the message of the run that met it names the batch
 * and the (masked) account.
 */
const POISON = '0099999999';
const prefix = testKeyPrefix();
const redis = testRedis();
let provider: MisbehavingProvider;
let workDir: string;

beforeAll(async () => {
  provider = await startMisbehavingProvider((inquiry, response) =>
    inquiry.accountNumber === POISON
      ? sendJson(response, 401, { error: true, message: 'Unauthenticated.' })
      : answerSuccess(response, inquiry),
  );
  workDir = await mkdtemp(join(tmpdir(), 'bc-poison-'));
});

afterAll(async () => {
  await provider.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

const env = () =>
  cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: provider.url,
    H2H_USERNAME: 'u',
    H2H_PASSWORD: 'p',
    RUN_WORKER_PROCESSES: '0',
  });

async function beneficiaries(name: string, accounts: string[]): Promise<{ file: string; out: string }> {
  const file = join(workDir, `${name}.csv`);
  await writeFile(file, `bank_code,account_number,name\n${accounts.map((account) => `014,${account},Budi Santoso`).join('\n')}\n`);
  return { file, out: join(workDir, `${name}.out.csv`) };
}

describe('a 401 for one account', () => {
  it('stops only the batch it belongs to, naming the batch and the masked account; the next file runs to the end', async () => {
    const poisoned = await beneficiaries('poisoned', [POISON]);
    const first = await runCli(['run', poisoned.file, '--out', poisoned.out], env());
    expect(first.code).toBe(1);
    const batchId = /batch (b\d{8}-\d{6}-[0-9a-f]+)/.exec(first.stderr)?.[1];
    expect(batchId).toBeDefined();
    expect(first.stderr).toMatch(
      new RegExp(`refused a freshly issued token \\(HTTP 401: Unauthenticated\\.\\) for account 014:\\*+9999 of batch ${batchId}`),
    );
    expect(first.stderr).not.toContain(POISON);

    // Another file, other accounts: the job the first batch left behind must not stop it.
    const others = ['0012345601', '0012345602', '0012345603'];
    const clean = await beneficiaries('clean', others);
    const second = await runCli(['run', clean.file, '--out', clean.out], env());
    // Its workers may meet the job left behind (and say so, naming that batch); its own accounts are asked all the same.
    for (const line of second.stderr.split('\n').filter((text) => text.includes('refused a freshly issued token')))
      expect(line).toContain(`of batch ${batchId}`);
    expect(second.code).toBe(0);
    const rows = await readReport(clean.out);
    expect(rows.map((row) => [row.account_number, row.result])).toEqual(others.map((account) => [account, 'MATCH']));
    for (const account of others) expect(provider.counts.byAccount[`014:${account}`]).toBe(1);
  });
});
