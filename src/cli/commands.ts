import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ColumnOverrides } from '../csv/columns.js';
import { formatRate, parseRate } from '../config/index.js';
import { SystemicError, UsageError } from '../errors.js';
import { checkFile, ensureLogin, finishBatch } from '../pipeline/check-file.js';
import { standardWaitOptions } from '../pipeline/wait-for-batch.js';
import { formatSummary, writeReport } from '../report/writer.js';
import { loadSandboxAccounts, startSandbox } from '../sandbox/index.js';
import { SANDBOX_ACCOUNTS_FILE } from '../pipeline/builtin-sandbox.js';
import { createProgressPrinter } from './progress.js';
import { openRuntime } from './runtime.js';
import { onShutdownSignal } from './signals.js';

export interface CommonFlags {
  rate?: string;
  concurrency?: string;
  env?: string;
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

/** `data/partners.csv` -> `data/partners.reconciled.csv`. */
export const defaultReportPath = (inputPath: string): string =>
  join(dirname(resolve(inputPath)), `${basename(inputPath, extname(inputPath))}.reconciled.csv`);

/** `run`: enqueue, process with in-process workers (and any running `worker`), wait, report. Returns the exit code. */
export async function runCommand(file: string, flags: CommonFlags & ColumnFlags & { out?: string }): Promise<number> {
  const { services, shutdown, privateRedis } = await openRuntime(flags, { oneShot: true });
  onShutdownSignal(async () => {
    process.stderr.write(
      privateRedis
        ? 'the private Redis of this run keeps nothing: the next run starts the file anew\n'
        : 'the batch stays in Redis: run the same file again to continue where it stopped\n',
    );
    await shutdown();
  });
  try {
    await services.startWorkers();
    process.stderr.write(
      `checking ${file} at up to ${formatRate(services.config.inquiry.rate)} with ${services.config.inquiry.concurrency} concurrent inquiries (${services.provider.environment})\n`,
    );
    const checked = await checkFile(services, file, {
      reportPath: resolve(flags.out ?? defaultReportPath(file)),
      columns: columnsFrom(flags),
      wait: standardWaitOptions(services.config.inquiry, createProgressPrinter()),
      onBatch: (batchId, resumed) =>
        process.stderr.write(resumed ? `continuing unfinished batch ${batchId} of the same file: only unanswered accounts are asked\n` : `batch ${batchId}\n`),
    });
    process.stdout.write(`${formatSummary(checked.summary)}\n`);
    if (checked.gaveUp !== undefined) {
      process.stderr.write(`stopped: ${checked.gaveUp}\nrows without an answer are FAILED; run the same file again (or \`resume ${checked.batchId}\`) to ask only those\n`);
      return 1;
    }
    return 0;
  } finally {
    await shutdown();
  }
}

/** `enqueue`: producer only; prints the batch id. */
export async function enqueueCommand(file: string, flags: CommonFlags & ColumnFlags): Promise<number> {
  const { services, shutdown } = await openRuntime(flags, { oneShot: false });
  try {
    const { batchId, resumed } = await services.producer(columnsFrom(flags)).produce(file);
    if (resumed) process.stderr.write(`continuing unfinished batch ${batchId} of the same file\n`);
    process.stdout.write(`${batchId}\n`);
    return 0;
  } finally {
    await shutdown();
  }
}

/** `worker`: long-running; stops gracefully on SIGTERM/SIGINT. */
export async function workerCommand(flags: CommonFlags): Promise<number> {
  const { services, shutdown } = await openRuntime(flags, { oneShot: false });
  const worker = await services.startWorkers();
  services.logger.info(
    { queue: services.queue.name, rate: formatRate(services.config.inquiry.rate), concurrency: services.config.inquiry.concurrency },
    'worker started',
  );
  onShutdownSignal(async () => {
    await worker.close();
    await shutdown();
  });
  await new Promise(() => undefined);
  return 0;
}

/** `resume`: asks what a batch is missing (unanswered or FAILED accounts), waits, reports. */
export async function resumeCommand(batchId: string, flags: CommonFlags & { out?: string }): Promise<number> {
  const { services, shutdown } = await openRuntime(flags, { oneShot: false });
  try {
    const batch = await services.store.get(batchId);
    await ensureLogin(services);
    await services.startWorkers();
    await services.producer().resume(batchId);
    const reportPath = resolve(flags.out ?? defaultReportPath(batch.sourceFile));
    const finished = await finishBatch(services, batchId, reportPath, standardWaitOptions(services.config.inquiry, createProgressPrinter()));
    process.stdout.write(`${formatSummary(finished.summary)}\n`);
    if (finished.gaveUp === undefined) return 0;
    process.stderr.write(`stopped: ${finished.gaveUp}\n`);
    return 1;
  } finally {
    await shutdown();
  }
}

/** `export`: (re)writes a finished batch's report. */
export async function exportCommand(batchId: string, flags: CommonFlags & { out: string }): Promise<number> {
  const { services, shutdown } = await openRuntime(flags, { oneShot: false });
  try {
    const progress = await services.store.progress(batchId);
    if (!progress.complete) {
      throw new SystemicError(
        `batch ${batchId} is not finished (${progress.answered}/${progress.accountCount} accounts answered); wait for it or \`resume ${batchId}\``,
      );
    }
    const summary = await writeReport(services.store, batchId, resolve(flags.out));
    process.stdout.write(`${formatSummary(summary)}\n`);
    return 0;
  } finally {
    await shutdown();
  }
}

/** `status`: progress of one batch, or of the most recent ones. */
export async function statusCommand(batchId: string | undefined, flags: CommonFlags): Promise<number> {
  const { services, shutdown } = await openRuntime(flags, { oneShot: false });
  try {
    const ids = batchId === undefined ? await services.store.list(20) : [batchId];
    if (ids.length === 0) process.stdout.write('no batches yet\n');
    for (const id of ids) {
      const [batch, progress] = await Promise.all([services.store.get(id), services.store.progress(id)]);
      const state = progress.complete ? (batch.completedAt ? 'reported' : 'answered') : progress.produced ? 'checking' : 'reading';
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
      `control: GET ${sandbox.url}/__sandbox/stats, POST ${sandbox.url}/__sandbox/knobs, POST ${sandbox.url}/__sandbox/revoke-tokens\n`,
  );
  onShutdownSignal(() => sandbox.close());
  await new Promise(() => undefined);
  return 0;
}
