import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect } from 'vitest';
import { inquiryQueueName } from '../../src/queue/inquiry-queue.js';
import { decodeAnswer } from '../../src/batch/batch-store.js';
import { redisKeys } from '../../src/redis/keys.js';
import { startSandbox, type SandboxAccount, type SandboxOptions, type SandboxServer } from '../../src/sandbox/index.js';
import { emulatorEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { waitFor } from '../support/wait.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';

/**
 * What a test file of the lifecycle needs: an emulator, a work folder, Redis, and key prefixes of its own;
 * set up before its tests and removed after them.
 */
export function lifecycleSuite(label: string, sandboxOptions: SandboxOptions) {
  const prefixes: string[] = [];
  const suite = {
    redis: testRedis(),
    sandbox: undefined as unknown as SandboxServer,
    folder: '',
    /** A key prefix of its own, and the CLI's environment using it (and `extra`). */
    environment(extra: Record<string, string> = {}): { prefix: string; env: NodeJS.ProcessEnv } {
      const prefix = testKeyPrefix();
      prefixes.push(prefix);
      return { prefix, env: lifecycleEnvironment(prefix, suite.sandbox, extra) };
    },
  };
  beforeAll(async () => {
    suite.sandbox = await startSandbox(sandboxOptions);
    suite.folder = await mkdtemp(join(tmpdir(), `bc-${label}-`));
  });
  afterAll(async () => {
    await suite.sandbox?.close();
    for (const prefix of prefixes) await deleteKeys(suite.redis, prefix);
    suite.redis.disconnect();
    if (suite.folder !== '') await rm(suite.folder, { recursive: true, force: true });
  });
  return suite;
}

/**
 * A payouts file: `rowsPerAccount` rows for each account, the accounts cycling (every account appears in
 * the first rows), each row with its own id. Many rows over few accounts make production and the report
 * last while few inquiries are paid for.
 */
export async function payoutFile(path: string, accounts: SandboxAccount[], rowsPerAccount: number, idPrefix: string): Promise<string[]> {
  const ids: string[] = [];
  const lines = ['beneficiary_id,bank_code,account_number,beneficiary_name,amount'];
  for (let row = 0; row < accounts.length * rowsPerAccount; row += 1) {
    const account = accounts[row % accounts.length]!;
    const id = `${idPrefix}-${row}`;
    ids.push(id);
    lines.push(`${id},${account.bankCode},${account.accountNumber},${account.holderName.toLowerCase()},${row * 10}`);
  }
  await writeFile(path, `${lines.join('\n')}\n`);
  return ids;
}

/** Every input row exactly once, in file order, and every one answered MATCH. */
export async function reportRows(path: string): Promise<{ ids: string[]; results: Set<string> }> {
  const rows = await readReport(path);
  return { ids: rows.map((row) => row.beneficiary_id!), results: new Set(rows.map((row) => row.result!)) };
}

/** The CLI's environment for a test: its Redis prefix, the emulator, a fast retry backoff. */
export function lifecycleEnvironment(prefix: string, sandbox: SandboxServer, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return emulatorEnvironment(prefix, sandbox.url, {
    INQUIRY_BACKOFF: '50ms',
    ...extra,
  });
}

/** What Redis says about the newest batch under the prefix: rows stored, produced, answers, reported, and the queue's active jobs. */
export async function batchState(redis: Redis, prefix: string, sandbox: SandboxServer) {
  const keys = redisKeys(prefix);
  const [batchId] = await redis.zrange(keys.batches(), -1, '-1'); // the newest
  const active = await redis.llen(`${keys.bullPrefix()}:${inquiryQueueName({ environment: 'sandbox', baseUrl: sandbox.url })}:active`);
  if (batchId === undefined) return { batchId, rows: 0, produced: false, answered: 0, reported: false, active };
  const [record, answered] = await Promise.all([redis.hgetall(keys.batch(batchId)), redis.hlen(keys.outcomes(batchId))]);
  return {
    batchId,
    rows: Number(record.storedRows ?? 0),
    produced: record.producedAt !== undefined,
    answered,
    reported: record.reportedAt !== undefined,
    active,
  };
}

/** Account key -> verdict of every stored answer of the batch. */
export async function storedVerdicts(redis: Redis, prefix: string, batchId: string): Promise<Map<string, string>> {
  const outcomes = await redis.hgetall(redisKeys(prefix).outcomes(batchId));
  return new Map(Object.entries(outcomes).map(([account, encoded]) => [account, decodeAnswer(encoded).outcome.verdict]));
}

export const batchCount = async (redis: Redis, prefix: string): Promise<number> => redis.zcard(redisKeys(prefix).batches());

/** What a rerun after a kill is checked on (killThenRerun): a suite's test, its file and the run's settings. */
export interface KillWhileAnswering {
  suite: ReturnType<typeof lifecycleSuite>;
  prefix: string;
  env: NodeJS.ProcessEnv;
  file: string;
  out: string;
  /** The file's row ids in order (payoutFile). */
  ids: string[];
  accounts: number;
  /** The most calls in flight at the kill: the calls a process holds at most. */
  inFlight: number;
  /** When to kill the first run, from what Redis says of the batch (batchState). */
  killWhen: (state: Awaited<ReturnType<typeof batchState>>) => boolean;
  rerunTimeoutMs: number;
}

/**
 * `run`, `kill -9` once `killWhen` holds, then the same command again: it continues the batch and asks only
 * what had no answer. Every row once in order, all MATCH, one batch; an account answered before the kill is
 * never asked again, and an account is asked twice only if it was in flight at the kill (at most `inFlight`).
 * Returns the batch, the accounts answered at the kill.
 */
export async function killWhileAnsweringThenRerun(test: KillWhileAnswering): Promise<{ batchId: string; answeredAtKill: Set<string> }> {
  const { redis, sandbox } = test.suite;
  const first = startCli(['run', test.file, '--out', test.out], test.env);
  const { batchId } = await waitFor(
    async () => {
      const state = await batchState(redis, test.prefix, sandbox);
      return test.killWhen(state) && state;
    },
    60_000,
    'some answers stored',
    5,
  );
  first.kill('SIGKILL');
  await waitForExit(first);
  const answeredAtKill = new Set((await storedVerdicts(redis, test.prefix, batchId!)).keys());
  expect(answeredAtKill.size).toBeLessThan(test.accounts);

  const rerun = await runCli(['run', test.file, '--out', test.out], test.env, test.rerunTimeoutMs);
  expect(rerun.code, rerun.stderr).toBe(0);
  expect(rerun.stderr).toContain(`continuing unfinished batch ${batchId}`);
  const report = await reportRows(test.out);
  expect(report.ids).toEqual(test.ids);
  expect([...report.results]).toEqual(['MATCH']);
  expect(await batchCount(redis, test.prefix)).toBe(1);

  const asked = sandbox.stats().inquiriesByAccount;
  expect(Object.keys(asked)).toHaveLength(test.accounts);
  const askedTwice = Object.entries(asked).filter(([, count]) => count > 1);
  // Answered before the kill: never asked again. Asked twice: only calls in flight at the kill.
  for (const [account] of askedTwice) expect(answeredAtKill.has(account)).toBe(false);
  expect(askedTwice.length).toBeLessThanOrEqual(test.inFlight);
  expect(Math.max(...Object.values(asked))).toBeLessThanOrEqual(2);
  return { batchId: batchId!, answeredAtKill };
}
