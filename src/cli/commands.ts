import { basename, dirname, extname, join, resolve } from 'node:path';
import type { App } from '../app/app.js';
import { openRuntime } from '../app/runtime.js';
import { SANDBOX_ACCOUNTS_FILE } from '../app/builtin-sandbox.js';
import { continuationPolicy } from '../batch/continuation.js';
import type { CheckedBatch } from '../batch/lifecycle.js';
import { HandedBackError } from '../batch/settle.js';
import { formatSummary } from '../batch/summary.js';
import type { ColumnOverrides } from '../csv/columns.js';
import { formatRate, parseRate, type OutputFormat } from '../config/index.js';
import { UsageError } from '../errors.js';
import { loadSandboxAccounts, startSandbox } from '../sandbox/index.js';
import { createProgressPrinter } from './progress.js';
import { onShutdownSignal, onStopSignal, SIGNAL_EXIT_CODES } from './signals.js';

export interface CommonFlags {
  rate?: string;
  concurrency?: string;
  env?: string;
  reuseAnswers?: string;
}

export interface ColumnFlags {
  bankColumn?: string;
  accountColumn?: string;
  nameColumn?: string;
}

export const columnsFrom = (flags: ColumnFlags): ColumnOverrides => ({
  bankCode: flags.bankColumn,
  accountNumber: flags.accountColumn,
  expectedName: flags.nameColumn,
});

/** `data/partners.csv` -> `data/partners.reconciled.csv` (`.xlsx` with OUTPUT_FORMAT=xlsx). */
export const defaultReportPath = (inputPath: string, format: OutputFormat): string =>
  join(dirname(resolve(inputPath)), `${basename(inputPath, extname(inputPath))}.reconciled.${format}`);

const notice = (message: string) => process.stderr.write(`${message}\n`);

/**
 * Checks one batch in this process, with in-process workers (and any running `worker`), and prints the
 * summary: the shared body of `run` and `resume`. A stop signal hands the batch back (it stays in Redis;
 * the same command continues it) and exits with the signal's code, never 0.
 */
async function checkHere(
  flags: CommonFlags,
  provider: 'builtin' | 'required',
  check: (context: { signal: AbortSignal; app: App; startWorkers: () => Promise<void> }) => Promise<CheckedBatch>,
): Promise<number> {
  const { app, shutdown, privateRedis } = await openRuntime(flags, { provider });
  const stop = new AbortController();
  const stoppedBy = onStopSignal((signal) => {
    notice(`${signal}: stopping (send it again to exit at once)`);
    stop.abort();
  });
  try {
    const checked = await check({ signal: stop.signal, app, startWorkers: async () => void (await app.startWorkers()) });
    process.stdout.write(`${formatSummary(checked.summary)}\n`);
    if (checked.gaveUp !== undefined) {
      notice(`stopped: ${checked.gaveUp}\nrows without an answer are FAILED; run the same file again (or \`resume ${checked.batchId}\`) to ask only those`);
      return 1;
    }
    return 0;
  } catch (error) {
    const signal = stoppedBy();
    if (signal === undefined || !(error instanceof HandedBackError)) throw error;
    notice(
      privateRedis
        ? 'the private Redis of this run keeps nothing: the next run starts the file anew'
        : 'stopped before the report was written: the batch stays in Redis; run the same command again to continue where it stopped',
    );
    return SIGNAL_EXIT_CODES[signal];
  } finally {
    await shutdown();
  }
}

/** `run`: check a file end to end: enqueue, process, wait, report. Returns the exit code. */
export async function runCommand(file: string, flags: CommonFlags & ColumnFlags & { out?: string }): Promise<number> {
  return checkHere(flags, 'builtin', async ({ app, signal, startWorkers }) => {
    notice(`checking ${file} at up to ${formatRate(app.config.inquiry.rate)} with ${app.config.inquiry.concurrency} concurrent inquiries (${app.provider.environment})`);
    return app.lifecycle.check({
      input: { kind: 'file', path: file, columns: columnsFrom(flags), policy: continuationPolicy() },
      reportPath: resolve(flags.out ?? defaultReportPath(file, app.config.outputFormat)),
      signal,
      onDecided: startWorkers,
      onProgress: createProgressPrinter(),
      onNotice: notice,
    });
  });
}

/** `resume`: asks what a batch is missing (unanswered or FAILED accounts), waits, reports. */
export async function resumeCommand(batchId: string, flags: CommonFlags & { out?: string }): Promise<number> {
  return checkHere(flags, 'required', async ({ app, signal, startWorkers }) => {
    const batch = await app.store.get(batchId);
    return app.lifecycle.check({
      input: { kind: 'batch', batchId, retryFailed: true },
      reportPath: resolve(flags.out ?? defaultReportPath(batch.sourceFile, app.config.outputFormat)),
      signal,
      onDecided: startWorkers,
      onProgress: createProgressPrinter(),
      onNotice: notice,
    });
  });
}

/** `enqueue`: producer only (through the same lifecycle start); prints the batch id. */
export async function enqueueCommand(file: string, flags: CommonFlags & ColumnFlags): Promise<number> {
  const { app, shutdown } = await openRuntime(flags, { provider: 'required' });
  try {
    const started = await app.lifecycle.start({
      input: { kind: 'file', path: file, columns: columnsFrom(flags), policy: continuationPolicy() },
      onNotice: notice,
      loginFirst: false,
    });
    process.stdout.write(`${started.batchId}\n`);
    return 0;
  } finally {
    await shutdown();
  }
}

/** `worker`: long-running; stops gracefully on SIGTERM/SIGINT/SIGHUP. */
export async function workerCommand(flags: CommonFlags): Promise<number> {
  const { app, shutdown } = await openRuntime(flags, { provider: 'required' });
  const worker = await app.startWorkers();
  app.logger.info({ queue: app.queue.name, rate: formatRate(app.config.inquiry.rate), concurrency: app.config.inquiry.concurrency }, 'worker started');
  onShutdownSignal(async () => {
    await worker.close();
    await shutdown();
  });
  await new Promise(() => undefined);
  return 0;
}

/** `export`: (re)writes a finished batch's report; needs only Redis. */
export async function exportCommand(batchId: string, flags: CommonFlags & { out: string }): Promise<number> {
  const { app, shutdown } = await openRuntime(flags, { provider: 'none' });
  try {
    const summary = await app.lifecycle.export(batchId, resolve(flags.out));
    process.stdout.write(`${formatSummary(summary)}\n`);
    return 0;
  } finally {
    await shutdown();
  }
}

/** `status`: progress of one batch, or of the most recent ones; needs only Redis. */
export async function statusCommand(batchId: string | undefined, flags: CommonFlags): Promise<number> {
  const { app, shutdown } = await openRuntime(flags, { provider: 'none' });
  try {
    const ids = batchId === undefined ? await app.store.list(20) : [batchId];
    if (ids.length === 0) process.stdout.write('no batches yet\n');
    for (const id of ids) {
      const [batch, progress] = await Promise.all([app.store.get(id), app.store.progress(id)]);
      const state = progress.reported ? 'reported' : progress.complete ? 'answered' : progress.produced ? 'checking' : 'reading';
      process.stdout.write(
        `${id}  ${state.padEnd(9)} ${progress.answered}/${progress.produced ? progress.accountCount : '?'} accounts, ${batch.rowCount} rows (${batch.invalidCount} invalid), ${batch.calls} calls  ${new Date(batch.createdAt).toISOString()}  ${batch.sourceFile}\n`,
      );
    }
    return 0;
  } finally {
    await shutdown();
  }
}

export interface SandboxFlags {
  port: string;
  host: string;
  accounts?: string;
  latency?: string;
  rateLimit?: string;
  tokenLifetime?: string;
  errorRate?: string;
  hangRate?: string;
  username: string;
  password: string;
}

/** `sandbox`: the provider emulator as a standalone server, for demos, workers on other processes and tests. */
export async function sandboxCommand(flags: SandboxFlags): Promise<number> {
  const accountsFile = flags.accounts ?? SANDBOX_ACCOUNTS_FILE;
  const [minLatency, maxLatency] = (flags.latency ?? '0').split('-').map(Number);
  const rateLimit = flags.rateLimit === undefined ? null : parseRate(flags.rateLimit);
  const sandbox = await startSandbox({
    host: flags.host,
    port: Number(flags.port),
    accountsFile,
    username: flags.username,
    password: flags.password,
    latencyMs: { min: minLatency ?? 0, max: maxLatency ?? minLatency ?? 0 },
    rateLimit: rateLimit && { max: rateLimit.max, windowMs: rateLimit.perMs },
    ...(flags.tokenLifetime !== undefined && { tokenLifetimeSeconds: Number(flags.tokenLifetime) }),
    ...(flags.errorRate !== undefined && { serverErrorRate: Number(flags.errorRate) }),
    ...(flags.hangRate !== undefined && { hangRate: Number(flags.hangRate) }),
  }).catch((error: unknown) => {
    // The emulator names the knob or the port that is wrong.
    throw new UsageError(`cannot start the emulator: ${error instanceof Error ? error.message : String(error)}`);
  });
  const accounts = await loadSandboxAccounts(accountsFile);
  process.stdout.write(
    `provider emulator listening at ${sandbox.url} with ${accounts.length} accounts from ${accountsFile}\n` +
      `use: H2H_BASE_URL=${sandbox.url} H2H_USERNAME=${flags.username} H2H_PASSWORD=<the password>\n` +
      `control: GET ${sandbox.url}/__sandbox/stats, POST ${sandbox.url}/__sandbox/knobs, POST ${sandbox.url}/__sandbox/accounts, POST ${sandbox.url}/__sandbox/revoke-tokens\n`,
  );
  onShutdownSignal(() => sandbox.close());
  await new Promise(() => undefined);
  return 0;
}
