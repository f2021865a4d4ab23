import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { redisKeys } from '../../src/redis/keys.js';
import { loadSandboxAccounts } from '../../src/sandbox/index.js';
import { TEST_REDIS_URL } from '../support/redis.js';

export { waitFor } from '../support/wait.js';

export const ACCOUNTS_FIXTURE = fileURLToPath(new URL('../../examples/sandbox-accounts.csv', import.meta.url));

/** Accounts the emulator answers SUCCESS for, with the holder name it returns: every row MATCHes. */
export async function matchingAccounts(): Promise<Array<{ bankCode: string; accountNumber: string; holderName: string }>> {
  const accounts = await loadSandboxAccounts(ACCOUNTS_FIXTURE);
  return accounts.filter((account) => account.status === 'SUCCESS' && (account.behaviour === undefined || account.behaviour === 'normal'));
}

/** A CSV of `count` rows with ids `<idPrefix>-001`...; different prefixes give different content. */
export async function beneficiaryCsv(idPrefix: string, count: number): Promise<{ header: string; lines: string[]; text: string }> {
  const accounts = await matchingAccounts();
  if (count > accounts.length) throw new Error(`only ${accounts.length} matching accounts in the fixture`);
  const header = 'beneficiary_id,bank_code,account_number,beneficiary_name';
  const lines = accounts
    .slice(0, count)
    .map(
      (account, index) =>
        `${idPrefix}-${String(index + 1).padStart(3, '0')},${account.bankCode},${account.accountNumber},"${account.holderName}"`,
    );
  return { header, lines, text: `${[header, ...lines].join('\n')}\n` };
}

const created: string[] = [];

export async function tempFolder(label: string): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), `bc-ops-${label}-`));
  created.push(path);
  return path;
}

/** Removes the folders this test file created. */
export async function removeTempFolders(): Promise<void> {
  for (const path of created.splice(0)) await rm(path, { recursive: true, force: true });
}

export const listDir = async (path: string): Promise<string[]> => {
  try {
    return (await readdir(path)).sort();
  } catch {
    return [];
  }
};

/** Batches under the prefix, with their source file. */
export async function batchesOf(redis: Redis, prefix: string): Promise<Array<{ batchId: string; sourceFile: string }>> {
  const ids = await redis.zrange(`${prefix}:batches`, 0, '-1');
  return Promise.all(
    ids.map(async (batchId) => ({ batchId, sourceFile: (await redis.hget(redisKeys(prefix).batch(batchId), 'sourceFile')) ?? '' })),
  );
}

export const answeredCount = (redis: Redis, prefix: string, batchId: string): Promise<number> =>
  redis.hlen(redisKeys(prefix).outcomes(batchId));

export function opsEnvironment(prefix: string, sandboxUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    BC_KEY_PREFIX: prefix,
    REDIS_URL: TEST_REDIS_URL,
    H2H_BASE_URL: sandboxUrl,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    ...extra,
  };
}
