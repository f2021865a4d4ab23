// The names dev set end to end (issue 26): every pair becomes a row of an input file and an account of the emulator
// whose holder name is the pair's holder; `run` (the built CLI, a real process) checks the file against the emulator
// over HTTP, and the reconciliation report says what the product answered. Used by dev-set-run.test.ts (the
// targets); bench/name-matching-eval.ts --end-to-end does the same with the bench's own helpers (the tables).

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { startSandbox } from '../../src/sandbox/index.js';
import { emulatorEnvironment, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import type { DevPair } from '../matching/dev-set.js';

export interface AnsweredPair extends DevPair {
  /** The report's `result` for the pair's row: MATCH, CLOSE_MATCH or NO_MATCH. */
  result: string;
  reason: string;
}

const BANK_CODE = '014';
const accountNumber = (index: number) => String(1_000_000_000 + index);

/** Runs `pairs` through `run` against the emulator; `env` adds settings (NAME_MATCH_POLICY, NAME_RULES_FILE). */
export async function runPairsThroughCli(pairs: readonly DevPair[], env: Record<string, string | undefined> = {}): Promise<AnsweredPair[]> {
  const workDir = await mkdtemp(join(tmpdir(), 'bc-dev-set-'));
  const prefix = testKeyPrefix();
  const redis = testRedis();
  const accounts = join(workDir, 'accounts.csv');
  const input = join(workDir, 'payouts.csv');
  const out = join(workDir, 'report.csv');
  await writeFile(
    accounts,
    stringify([
      ['bank_code', 'account_number', 'account_holder'],
      ...pairs.map((pair, index) => [BANK_CODE, accountNumber(index), pair.holder]),
    ]),
  );
  await writeFile(
    input,
    stringify([
      ['id', 'bank_code', 'account_number', 'name'],
      ...pairs.map((pair, index) => [`P${index}`, BANK_CODE, accountNumber(index), pair.expected]),
    ]),
  );
  const sandbox = await startSandbox({ accountsFile: accounts });
  try {
    const result = await runCli(['run', input, '--out', out], emulatorEnvironment(prefix, sandbox.url, env), 300_000);
    if (result.code !== 0) throw new Error(`run exited ${result.code}: ${result.stderr}`);
    const rows = new Map((await readReport(out)).map((row) => [row.id!, row]));
    return pairs.map((pair, index) => {
      const row = rows.get(`P${index}`);
      if (row === undefined) throw new Error(`row P${index} missing from the report`);
      return { ...pair, result: row.result!, reason: row.reason ?? '' };
    });
  } finally {
    await sandbox.close();
    await deleteKeys(redis, prefix);
    redis.disconnect();
    await rm(workDir, { recursive: true, force: true });
  }
}
