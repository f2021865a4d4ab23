import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/host/process.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../../src/sandbox/synthetic-accounts.js';
import { readFile } from 'node:fs/promises';
import { cliEnvironment, emulatorEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { waitFor } from '../support/wait.js';
import { answeredAccounts } from './process-helpers.js';

/**
 * `run` with worker processes of its own (RUN_WORKER_PROCESSES=1: one from the start, on this 2-core
 * machine the most there may be): they answer with it, and none outlives it, however it ends.
 */
const redis = testRedis();
const accounts = syntheticAccounts(120);
const prefixes: string[] = [];
let sandbox: SandboxServer;
let workDir: string;
let file: string;

/** Info lines (JSON on a pipe) name the worker processes `run` started and the `worker started` line of each. */
function environment(extra: Record<string, string> = {}): { prefix: string; env: NodeJS.ProcessEnv } {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  return { prefix, env: emulatorEnvironment(prefix, sandbox.url, { RUN_WORKER_PROCESSES: '1', LOG_LEVEL: 'info', ...extra }) };
}

const logLines = (stderr: string): Array<Record<string, unknown>> =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The pid of each worker process `run` said it started. */
const childPids = (stderr: string): number[] =>
  logLines(stderr).flatMap((line) =>
    typeof line.childPid === 'number' && /^started worker process/.test(String(line.msg)) ? [line.childPid] : [],
  );

/** Whether a `worker` process with that pid wrote its `worker started` line (it joined the queue). */
const workerStarted = (stderr: string, pid: number): boolean =>
  logLines(stderr).some((line) => line.pid === pid && line.msg === 'worker started');

beforeAll(async () => {
  sandbox = await startSandbox({ accounts, latencyMs: { min: 20, max: 20 } });
  workDir = await mkdtemp(join(tmpdir(), 'bc-worker-processes-'));
  file = join(workDir, 'payees.csv');
  await writeBeneficiaryFile(file, accounts);
});

afterAll(async () => {
  await sandbox.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

/** A slow `run` (10/s) whose worker process has started and which has stored four answers: mid-way, to be stopped. */
async function runAnsweringWithWorkerProcess(report: string) {
  const { prefix, env } = environment();
  const run = startCli(['run', file, '--out', join(workDir, report), '--rate', '10/s'], env);
  const pid = await waitFor(
    () => childPids(run.output().stderr).find((each) => workerStarted(run.output().stderr, each)),
    60_000,
    'the worker process started',
  );
  await waitFor(async () => (await answeredAccounts(redis, prefix)).length >= 4, 30_000, 'four answers stored');
  return { run, pid };
}

describe('run with worker processes', () => {
  it('answers every row exactly once with a worker process beside it, says so in the summary, and leaves no process behind', async () => {
    sandbox.resetStats();
    const { env } = environment();
    const out = join(workDir, 'together.csv');
    // Slow enough that the worker process is up and answering before the batch is.
    const result = await runCli(['run', file, '--out', out, '--rate', '30/s', '--json'], env, 120_000);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { workerProcesses: number; rows: number };
    expect(summary.workerProcesses).toBe(1);
    const [pid] = childPids(result.stderr);
    expect(pid).toBeDefined();
    expect(workerStarted(result.stderr, pid!)).toBe(true);
    expect(isProcessAlive(pid!)).toBe(false);
    const rows = await readReport(out);
    expect(rows.map((row) => row.beneficiary_id)).toEqual(accounts.map((_, index) => `B${index}`));
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
    const calls = sandbox.stats().inquiriesByAccount;
    expect(Object.keys(calls).length).toBe(accounts.length);
    expect(Object.values(calls).every((count) => count === 1)).toBe(true);
  });

  it('joins a private redis-server and the built-in emulator, which exist only in run, told through the environment, never the command line', async () => {
    const out = join(workDir, 'builtin.csv');
    const run = startCli(
      ['run', 'examples/beneficiaries.csv', '--out', out, '--rate', '3/s', '--json'],
      cliEnvironment({ PRIVATE_REDIS: 'always', RUN_WORKER_PROCESSES: '1', LOG_LEVEL: 'info' }),
    );
    const pid = await waitFor(
      () => childPids(run.output().stderr).find((each) => workerStarted(run.output().stderr, each)),
      60_000,
      'the worker process started',
    );
    // Its arguments are the command alone: the emulator's password and the Redis address are in its environment.
    const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((arg) => arg !== '');
    expect(args.at(-1)).toBe('worker');
    expect(args.join(' ')).not.toMatch(/redis:\/\/|sandbox/);
    expect(await waitForExit(run)).toBe(0);
    expect((JSON.parse(run.output().stdout) as { workerProcesses: number }).workerProcesses).toBe(1);
    expect(isProcessAlive(pid)).toBe(false);
    expect((await readReport(out)).length).toBe(28);
  });

  it('RUN_WORKER_PROCESSES=0 starts none, and a value that is not a number is refused before anything starts', async () => {
    const { env } = environment({ RUN_WORKER_PROCESSES: '0' });
    const result = await runCli(['run', file, '--out', join(workDir, 'alone.csv'), '--json'], env, 120_000);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { workerProcesses: number }).workerProcesses).toBe(0);
    expect(childPids(result.stderr)).toEqual([]);
    const wrong = await runCli(['run', file, '--out', join(workDir, 'wrong.csv')], environment({ RUN_WORKER_PROCESSES: 'many' }).env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('RUN_WORKER_PROCESSES must be "auto" or a whole number');
  });

  it('SIGTERM: run exits 143 and its worker process is gone by then', async () => {
    const { run, pid } = await runAnsweringWithWorkerProcess('stopped.csv');
    run.kill('SIGTERM');
    expect(await waitForExit(run)).toBe(143);
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('SIGKILL: the worker process notices its parent is gone and exits on its own', async () => {
    const { run, pid } = await runAnsweringWithWorkerProcess('killed.csv');
    run.kill('SIGKILL');
    await waitForExit(run);
    await waitFor(() => !isProcessAlive(pid), 10_000, 'the orphaned worker process to exit');
  });

  it('a worker process that dies is logged once and the run still answers every row', async () => {
    const { prefix, env } = environment();
    const out = join(workDir, 'survived.csv');
    const run = startCli(['run', file, '--out', out, '--rate', '20/s'], env);
    const pid = await waitFor(
      () => childPids(run.output().stderr).find((each) => workerStarted(run.output().stderr, each)),
      60_000,
      'the worker process started',
    );
    await waitFor(async () => (await answeredAccounts(redis, prefix)).length >= 10, 30_000, 'ten answers stored');
    process.kill(pid, 'SIGKILL');
    expect(await waitForExit(run)).toBe(0);
    const died = logLines(run.output().stderr).filter((line) => /^worker process 1 \(pid \d+\) exited on its own/.test(String(line.msg)));
    expect(died).toHaveLength(1);
    expect(died[0]!.signal).toBe('SIGKILL');
    const rows = await readReport(out);
    expect(rows.map((row) => row.beneficiary_id)).toEqual(accounts.map((_, index) => `B${index}`));
    expect(rows.every((row) => row.result === 'MATCH')).toBe(true);
  }, 180_000);
});
