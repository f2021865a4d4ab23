import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { settledWithin } from '../clock/clock.js';
import type { RunWorkerProcesses } from '../config/index.js';
import type { Logger } from '../logging/logger.js';

/**
 * Extra `worker` processes for the batch of `run`: one event loop runs the producer, the progress, the
 * report and every in-process inquiry; when it is saturated (CPU-bound), more cores help. A child is the
 * CLI's own `worker` command on the same Redis, provider and rate: it joins the queue, the shared pacer and
 * the shared token like any `worker`, so nothing here divides the work. Children never outlive the parent:
 * each stops on its IPC channel closing (see `workerCommand`), and the parent stops them when the batch is
 * answered or the run stops.
 */
export interface WorkerProcessOptions {
  /** The CLI's entry script (process.argv[1] of `run`). */
  cli: string;
  /** Each child's whole environment: the parent's, with the Redis, provider and rate it actually uses (secrets never go on a command line). */
  env: NodeJS.ProcessEnv;
  choice: RunWorkerProcesses;
  /** --concurrency / INQUIRY_CONCURRENCY given: a cap on inquiries at once that extra processes would multiply, so `auto` adds none. */
  concurrencyGiven: boolean;
  /** How long stopping waits for a child to finish its active inquiries before it is killed. */
  shutdownTimeoutMs: number;
  /** Whether accounts of the batch remain to be asked: a busy loop with nothing left to ask is the report's. */
  workRemains: () => boolean;
  /** Where a child's stderr lines go (the parent's stderr, around its progress line). */
  writeLine: (line: string) => void;
  logger: Logger;
}

export interface WorkerProcesses {
  /** How many worker processes were started for this run (crashed ones included). */
  started(): number;
  /** Stops adding, then SIGTERMs every child and waits for it (killed after the shutdown timeout); safe to call more than once. */
  stop(): Promise<void>;
}

/** The main loop counts as CPU-bound above this share of busy time over the whole window. */
const BUSY_UTILISATION = 0.85;
const SAMPLE_MS = 1_000;
/** Seconds of samples a decision looks at: a short burst (reading a file, a GC) starts nothing. */
const WINDOW_SAMPLES = 5;
/** After a start, the next decision waits this long: the child needs a moment to start, log in and take jobs. */
const PAUSE_AFTER_START_MS = 10_000;

/** One fewer than the cores: the parent keeps one (0 on one core, where a second process only competes). */
export const mostWorkerProcesses = (): number => Math.max(0, availableParallelism() - 1);

/**
 * `auto` adds at most two fewer than the cores: one is the parent's, one is left to what runs beside it
 * (Redis, a local provider, V8's collector threads). On 2 cores a child measured 0.86x the rows/s of `run`
 * alone at 20% more CPU per row (README, Worker processes of `run`), so there `auto` starts none.
 */
const mostAutoWorkerProcesses = (): number => Math.max(0, availableParallelism() - 2);

/** Starts the children a fixed setting asks for at once, or (auto) watches the event loop and adds them one by one. */
export function startWorkerProcesses(options: WorkerProcessOptions): WorkerProcesses {
  const { choice, logger } = options;
  const most = mostWorkerProcesses();
  const mostAuto = mostAutoWorkerProcesses();
  const children = new Set<ChildProcess>();
  let started = 0;
  let stopping: Promise<void> | undefined;

  const startOne = (reason: string) => {
    const child = fork(options.cli, ['worker'], { env: options.env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    started += 1;
    const number = started;
    children.add(child);
    createInterface({ input: child.stderr! }).on('line', options.writeLine);
    child.on('error', (error) =>
      logger.error({ err: error, workerProcess: number }, `worker process ${number} could not be run: ${error.message}`),
    );
    child.once('exit', (code, signal) => {
      children.delete(child);
      // Its active inquiries are not lost: their locks expire and the other workers take them (stalled jobs).
      if (stopping === undefined)
        logger.error(
          { workerProcess: number, childPid: child.pid, code, signal },
          `worker process ${number} (pid ${child.pid}) exited on its own (${signal ?? `exit code ${code}`}): its active inquiries come back to the other workers`,
        );
    });
    logger.info({ workerProcess: number, childPid: child.pid }, `started worker process ${number} (pid ${child.pid}): ${reason}`);
  };

  let watch: NodeJS.Timeout | undefined;
  if (choice.kind === 'fixed') {
    const count = Math.min(choice.count, most);
    if (count < choice.count)
      logger.warn(
        { asked: choice.count, cores: availableParallelism() },
        `RUN_WORKER_PROCESSES=${choice.count}: starting ${count}, one fewer than the ${availableParallelism()} cores`,
      );
    for (let index = 0; index < count; index += 1) startOne(`RUN_WORKER_PROCESSES=${choice.count}`);
  } else if (!options.concurrencyGiven && mostAuto > 0) {
    const samples: number[] = [];
    let last: EventLoopUtilization = performance.eventLoopUtilization();
    let lastStartAt = -Infinity;
    watch = setInterval(() => {
      const now = performance.eventLoopUtilization();
      samples.push(performance.eventLoopUtilization(now, last).utilization);
      last = now;
      if (samples.length > WINDOW_SAMPLES) samples.shift();
      const busy = samples.reduce((sum, sample) => sum + sample, 0) / samples.length;
      if (
        samples.length < WINDOW_SAMPLES ||
        busy <= BUSY_UTILISATION ||
        performance.now() - lastStartAt < PAUSE_AFTER_START_MS ||
        !options.workRemains()
      )
        return;
      startOne(`the main event loop was ${Math.round(busy * 100)}% busy over ${WINDOW_SAMPLES} s`);
      lastStartAt = performance.now();
      samples.length = 0;
      if (started >= mostAuto) clearInterval(watch);
    }, SAMPLE_MS).unref();
  }

  return {
    started: () => started,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(watch);
        await Promise.all([...children].map((child) => stopChild(child, options.shutdownTimeoutMs)));
      })()),
  };
}

/** SIGTERM: the `worker` command finishes its active inquiries and exits; one that overstays the shutdown timeout is killed. */
async function stopChild(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  if (!(await settledWithin(exited, timeoutMs))) {
    child.kill('SIGKILL');
    await exited;
  }
}
