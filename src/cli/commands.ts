import { performance } from 'node:perf_hooks';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { App } from '../app/app.js';
import { openRuntime } from '../app/runtime.js';
import { startWorkerProcesses, type WorkerProcesses } from '../app/worker-processes.js';
import { SANDBOX_ACCOUNTS_FILE } from '../app/builtin-sandbox.js';
import { continuationPolicy } from '../batch/continuation.js';
import type { BatchRequest, CheckedBatch } from '../batch/lifecycle.js';
import { backlogFor } from '../batch/backlog.js';
import { countReview } from '../batch/review-counts.js';
import { RowTally, zeroCounts } from '../batch/row-tally.js';
import { HandedBackError, type ProgressReport } from '../batch/settle.js';
import { formatSummary, type BatchSummary } from '../batch/summary.js';
import type { ColumnOverrides } from '../csv/columns.js';
import { describeEndpoint, endpointOf } from '../config/endpoint.js';
import { formatRate, parseRate, type ConcurrencyBounds, type OutputFormat } from '../config/index.js';
import { batchView } from '../console/batch-views.js';
import { describeError, UsageError } from '../errors.js';
import { RESULT_VALUES, type ResultValue } from '../report/row-result.js';
import { loadSandboxAccounts, startSandbox } from '../sandbox/index.js';
import { startMetricsEndpoint, type MetricsFlags } from './metrics-endpoint.js';
import { keepHeapNearLiveSize } from './heap.js';
import { createProgressDisplay } from './progress.js';
import { runUntilStopped, serveUntilStopped } from './lifetime.js';
import { onStopSignal, SIGNAL_EXIT_CODES, stoppedExitCode } from './signals.js';
import { notice } from '../logging/logger.js';

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

/** Exit code of `run` when rows of a kind named by `--fail-on` exist. */
export const FAIL_ON_EXIT_CODE = 3;

/** `--fail-on NEEDS_REVIEW`: rows a person still has to look at (CLOSE_MATCH / NO_MATCH without a standing decision). */
const NEEDS_REVIEW = 'NEEDS_REVIEW';
/** `--fail-on REJECTED`: rows a standing REJECTED decision says not to pay, whatever their result (a MATCH one too). */
const REJECTED = 'REJECTED';
export type FailOnValue = ResultValue | typeof NEEDS_REVIEW | typeof REJECTED;
const FAIL_ON_VALUES: readonly string[] = [...RESULT_VALUES, NEEDS_REVIEW, REJECTED];

/** `--fail-on FAILED,NO_MATCH`: result values (or NEEDS_REVIEW, REJECTED), checked before anything starts (a typo is a usage error, exit 2). */
export function parseFailOn(value: string | undefined): FailOnValue[] {
  if (value === undefined) return [];
  const values = value
    .split(',')
    .map((item) => item.trim().toUpperCase())
    .filter((item) => item !== '');
  const unknown = values.filter((item) => !FAIL_ON_VALUES.includes(item));
  if (values.length === 0 || unknown.length > 0) {
    throw new UsageError(`--fail-on takes result values separated by commas (${FAIL_ON_VALUES.join(', ')}), not ${JSON.stringify(value)}`);
  }
  return [...new Set(values)] as FailOnValue[];
}

/** How many rows of the summary a --fail-on value names. */
const failOnCount = (summary: BatchSummary, value: FailOnValue): number =>
  value === NEEDS_REVIEW ? summary.needsReview : value === REJECTED ? summary.rejected : summary.counts[value];

export interface OutputFlags {
  json?: boolean;
  failOn?: string;
}

interface CheckContext {
  app: App;
  /**
   * What the lifecycle is handed as it checks the batch: the stop signal; this process's workers, and the
   * worker processes RUN_WORKER_PROCESSES allows, started once the batch is decided (see worker-processes.ts)
   * and stopped once it is answered, before the report; progress on stderr, with the counts so far once the
   * batch is known; notices.
   */
  hooks: Required<Pick<BatchRequest, 'signal' | 'onDecided' | 'onSettled' | 'onStarted' | 'onProgress' | 'onNotice' | 'backlog'>>;
  /** The summary JSON's fields of this process: the concurrency reached, the worker processes that ran. */
  summaryExtras: () => Record<string, unknown>;
}

const TALLY_EVERY_MS = 1_000;
/**
 * The counts so far are for people; the calls come first. While the event loop the workers share was
 * busier than this since the last look, the tally advances only every TALLY_BUSY_EVERY_MS: deciding its
 * rows (a name comparison each) took 3-5% of a CPU-bound paced run's time, paid as calls not sent. It lags,
 * reads a window of rows when it goes, and the report counts every row whatever it did.
 */
const TALLY_BUSY_UTILISATION = 0.8;
const TALLY_BUSY_EVERY_MS = 10_000;

/**
 * Checks one batch in this process, with in-process workers (and any running `worker`), and prints the
 * summary (or, with --json, the summary JSON alone on stdout): the shared body of `run` and `resume`. A
 * stop signal hands the batch back (it stays in Redis; the same command continues it) and exits with the
 * signal's code, never 0.
 */
async function checkHere(
  flags: CommonFlags & OutputFlags,
  provider: 'builtin' | 'required',
  check: (context: CheckContext) => Promise<CheckedBatch>,
): Promise<number> {
  const failOn = parseFailOn(flags.failOn);
  keepHeapNearLiveSize();
  const display = createProgressDisplay();
  const options = { provider, ...(display.logDestination !== undefined && { logDestination: display.logDestination }) };
  return runUntilStopped(
    flags,
    options,
    async ({ app, privateRedis, guard, workerEnvironment }, { stopping, stoppedBy }) => {
      let workerProcesses: WorkerProcesses | undefined;
      let accountsRemain = true;
      stopping.addEventListener('abort', () => {
        // No new inquiry from here; the ones in flight get SHUTDOWN_TIMEOUT, counted from the signal.
        // A failure to close is thrown again by the shutdown below, which awaits the same stop.
        void app.stopWorkers().catch(() => undefined);
        void workerProcesses?.stop();
      });
      // The NO_MATCH and FAILED counts so far: a running tally, advanced at most once a second (see RowTally).
      let tally: RowTally | undefined;
      let advancing: Promise<unknown> | undefined;
      let lastAdvance = 0;
      let tallyWarned = false;
      let loopSince = performance.eventLoopUtilization();
      const loopBusy = () => {
        const now = performance.eventLoopUtilization();
        const { utilization } = performance.eventLoopUtilization(now, loopSince);
        loopSince = now;
        return utilization;
      };
      const onProgress = (report: ProgressReport) => {
        const sinceAdvance = Date.now() - lastAdvance;
        if (
          tally !== undefined &&
          advancing === undefined &&
          sinceAdvance >= TALLY_EVERY_MS &&
          (loopBusy() < TALLY_BUSY_UTILISATION || sinceAdvance >= TALLY_BUSY_EVERY_MS)
        ) {
          lastAdvance = Date.now();
          advancing = tally
            .advance()
            .catch((error: unknown) => {
              if (!tallyWarned) app.logger.warn({ err: error }, `counts so far not updated: ${describeError(error)}`);
              tallyWarned = true;
            })
            .finally(() => (advancing = undefined));
        }
        accountsRemain = !report.progress.complete;
        display.update(report, tally?.snapshot);
      };
      const startWorkers = async () => {
        await app.startWorkers();
        workerProcesses = startWorkerProcesses({
          cli: process.argv[1]!,
          env: workerEnvironment(),
          choice: app.config.runWorkerProcesses,
          concurrencyGiven: app.config.inquiry.concurrencyGiven,
          shutdownTimeoutMs: app.config.shutdownTimeoutMs,
          workRemains: () => accountsRemain,
          writeLine: (line) => void (display.logDestination ?? process.stderr).write(`${line}\n`),
          logger: app.logger,
        });
      };
      const summaryExtras = () => ({ workerConcurrency: app.concurrencyReached(), workerProcesses: workerProcesses?.started() ?? 0 });
      try {
        const checked = await guard(
          check({
            app,
            hooks: {
              signal: stopping,
              // The workers share this event loop: the file is queued alongside the calls (see backlogFor).
              backlog: backlogFor(app.config.inquiry.rate),
              onDecided: startWorkers,
              onSettled: async () => await workerProcesses?.stop(),
              onStarted: async (started) => void (tally = new RowTally(app.store, started.batch, app.config.nameMatching)),
              onProgress,
              onNotice: notice,
            },
            summaryExtras,
          }),
        );
        display.done();
        const started = workerProcesses?.started() ?? 0;
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ ...checked.summary, ...summaryExtras() }, null, 2)}\n`
            : `${formatSummary(checked.summary)}\n${started > 0 ? `worker processes: ${started} beside this one (RUN_WORKER_PROCESSES)\n` : ''}`,
        );
        await awaitOwnNotices(app, privateRedis);
        if (checked.gaveUp !== undefined) {
          notice(
            `stopped: ${checked.gaveUp}\nrows without an answer are FAILED; run the same file again (or \`resume ${checked.batchId}\`) to ask only those`,
          );
          return 1;
        }
        const flagged = failOn.filter((value) => failOnCount(checked.summary, value) > 0);
        if (flagged.length > 0) {
          notice(
            `--fail-on: ${flagged.map((value) => `${failOnCount(checked.summary, value)} ${value}`).join(', ')}: exit ${FAIL_ON_EXIT_CODE}`,
          );
          return FAIL_ON_EXIT_CODE;
        }
        return 0;
      } catch (error) {
        display.done();
        const signal = stoppedBy();
        if (signal === undefined || !(error instanceof HandedBackError)) throw error;
        notice(
          `${error.message}: ` +
            (privateRedis
              ? 'the private Redis of this run keeps nothing: the next run starts the file anew'
              : 'stopped before the report was written: what was stored stays in Redis; run the same command again to continue where it stopped'),
        );
        return SIGNAL_EXIT_CODES[signal];
      } finally {
        await workerProcesses?.stop();
      }
    },
    (signal) => `${signal}: stopping (send it again to exit at once)`,
  );
}

/**
 * `run` exits soon after its report: it waits a bounded time (NOTIFY_RUN_WAIT) for the completion
 * notice it queued, delivered by its own notice worker; one still undelivered stays queued for any
 * `worker`, `watch`, `schedule` or `serve` process (a private Redis keeps nothing: it is lost, and said so).
 */
async function awaitOwnNotices(app: App, privateRedis: boolean): Promise<void> {
  const undelivered = await app.notices.awaitOwn(app.config.notify.runWaitMs, privateRedis);
  if (undelivered !== undefined) notice(undelivered);
}

/** `16 to 256 concurrent inquiries (adapted ...)`, or `8 concurrent inquiries` when fixed. */
const describeConcurrency = ({ min, max }: ConcurrencyBounds): string =>
  min === max ? `${max} concurrent inquiries` : `${min} to ${max} concurrent inquiries (adapted to the provider's latency)`;

/** `run`: check a file end to end: enqueue, process, wait, report. Returns the exit code. */
export async function runCommand(file: string, flags: CommonFlags & ColumnFlags & OutputFlags & { out?: string }): Promise<number> {
  return checkHere(flags, 'builtin', async ({ app, hooks, summaryExtras }) => {
    notice(
      `checking ${file} at up to ${formatRate(app.config.inquiry.rate)} with ${describeConcurrency(app.config.inquiry.concurrency)} against ${describeEndpoint(endpointOf(app.provider))}`,
    );
    return app.lifecycle.check(
      {
        input: { kind: 'file', path: file, columns: columnsFrom(flags), policy: continuationPolicy() },
        reportPath: resolve(flags.out ?? defaultReportPath(file, app.config.outputFormat)),
        ...hooks,
      },
      summaryExtras,
    );
  });
}

/** `resume`: asks what a batch is missing (unanswered or FAILED accounts), waits, reports. */
export async function resumeCommand(batchId: string, flags: CommonFlags & OutputFlags & { out?: string }): Promise<number> {
  return checkHere(flags, 'required', async ({ app, hooks, summaryExtras }) => {
    const batch = await app.store.get(batchId);
    return app.lifecycle.check(
      {
        input: { kind: 'batch', batchId, retryFailed: true },
        reportPath: resolve(flags.out ?? defaultReportPath(batch.sourceFile, app.config.outputFormat)),
        ...hooks,
      },
      summaryExtras,
    );
  });
}

/** `enqueue`: producer only (through the same lifecycle start); prints the batch id. */
export async function enqueueCommand(file: string, flags: CommonFlags & ColumnFlags): Promise<number> {
  const { app, shutdown, guard } = await openRuntime(flags, { provider: 'required' });
  try {
    const started = await guard(
      app.lifecycle.start({
        input: { kind: 'file', path: file, columns: columnsFrom(flags), policy: continuationPolicy() },
        onNotice: notice,
        loginFirst: false,
      }),
    );
    process.stdout.write(`${started.batchId}\n`);
    return 0;
  } finally {
    await shutdown();
  }
}

/**
 * `worker`: long-running; stops gracefully on SIGTERM/SIGINT/SIGHUP (see signals.ts for the exit codes).
 * Rides out a Redis that goes away, however long; stops with exit 1 when Redis is full (a job would only
 * fail again).
 */
export async function workerCommand(flags: CommonFlags & MetricsFlags): Promise<number> {
  return runUntilStopped(flags, { provider: 'required', service: true }, async (runtime, lifetime) => {
    const { app, guard } = runtime;
    let closeMetrics: () => Promise<void> = async () => undefined;
    try {
      await guard(app.startWorkers());
      closeMetrics = await startMetricsEndpoint(app, flags);
      app.logger.info(
        { queue: app.queue.name, rate: formatRate(app.config.inquiry.rate), concurrency: app.config.inquiry.concurrency },
        'worker started',
      );
      // The workers finish their active inquiries within the timeout (then closing the app closes them).
      return await serveUntilStopped(runtime, lifetime);
    } finally {
      await closeMetrics();
    }
  });
}

/** `export`: (re)writes a finished batch's report; needs only Redis. */
export async function exportCommand(batchId: string, flags: CommonFlags & { out: string }): Promise<number> {
  const { app, shutdown, guard } = await openRuntime(flags, { provider: 'none' });
  try {
    const summary = await guard(app.lifecycle.export(batchId, resolve(flags.out)));
    process.stdout.write(`${formatSummary(summary)}\n`);
    return 0;
  } finally {
    await shutdown();
  }
}

/** `status`: progress of one batch, or of the most recent ones; needs only Redis. `--json`: one JSON document on stdout. */
export async function statusCommand(batchId: string | undefined, flags: CommonFlags & { json?: boolean }): Promise<number> {
  const { app, shutdown, guard } = await openRuntime(flags, { provider: 'none' });
  try {
    const ids = batchId === undefined ? await guard(app.store.list(20)) : [batchId];
    const views = await guard(
      Promise.all(
        ids.map(async (id) => {
          const [batch, progress] = await Promise.all([app.store.get(id), app.store.progress(id)]);
          // Counts are the report's: a batch in progress has none yet (the console and `run` show them so far).
          // What a person still has to do is counted against the decisions standing now.
          const review = batch.reportedAt === undefined ? undefined : await countReview(app.store, app.decisions, batch);
          return batchView(
            batch,
            progress,
            batch.reportCounts === undefined ? null : { ...zeroCounts(), ...batch.reportCounts },
            review ?? null,
          );
        }),
      ),
    );
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(batchId === undefined ? { batches: views } : views[0], null, 2)}\n`);
      return 0;
    }
    if (views.length === 0) process.stdout.write('no batches yet\n');
    for (const view of views) {
      process.stdout.write(
        `${view.batchId}  ${view.state.padEnd(9)} ${view.answered}/${view.accounts ?? '?'} accounts, ${view.rows} rows (${view.invalidRows} invalid), ${view.calls} calls${
          view.review === null ? '' : `, ${view.review.needsReview} to review`
        }  ${view.createdAt}  ${view.source.file}${view.endpoint === null ? '' : `  (${describeEndpoint(view.endpoint)})`}\n`,
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
  return new Promise<number>((resolve) => onStopSignal((signal) => void sandbox.close().finally(() => resolve(stoppedExitCode(signal)))));
}
