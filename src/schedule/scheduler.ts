import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { getNextMillis, Queue, type JobSchedulerTemplateOptions } from 'bullmq';
import type { RedisClient } from '../redis/connection.js';
import type { OutputFormat, ScheduleSettings } from '../config/index.js';
import { ConfigError, InputFileError } from '../errors.js';
import type { RedisKeys } from '../redis/keys.js';
import { sleep } from '../clock/clock.js';
import { wallClockIn } from '../clock/local-time.js';
import { Lease, type LeaseHolder } from '../redis/lease.js';
import { redisErrors } from '../redis/supervisor.js';
import type { Logger } from '../logging/logger.js';
import { isCandidateName } from '../watch/inbox.js';

/**
 * The queue of nightly runs (its own queue: the inquiry queue only holds inquiries). Its name, the
 * scheduler's and the job's below are the ones a deployed schedule is registered under in Redis: kept as they are.
 */
export const NIGHTLY_RUN_QUEUE = 'scheduled-validation';
/** One schedule per deployment (key prefix): registering again updates it. */
export const NIGHTLY_SCHEDULER_ID = 'nightly-validation';
export const NIGHTLY_RUN_JOB = 'nightly-validation';

export interface NightlyRunJobData {
  /** The export: a CSV file, or a folder whose newest CSV is taken. */
  source: string;
  outbox: string;
  /**
   * Set when a run has chosen its input, so that a run taken up again (restart, hand-back) continues the
   * same file; `batchId` once its batch is known, so that it continues that very batch (reported already:
   * the report is written again, nothing asked).
   */
  pinned?: { sourceFile: string; reportPath: string; batchId?: string };
}

/** With its `error` listener (the connection's supervisor): a queue without one ends the process with a raw stack when Redis goes. */
export function openNightlyRunQueue(connection: RedisClient, keys: RedisKeys, logger: Logger): Queue<NightlyRunJobData> {
  const queue = new Queue<NightlyRunJobData>(NIGHTLY_RUN_QUEUE, { connection, prefix: keys.bullPrefix() });
  queue.on('error', redisErrors(connection, 'nightly run queue', logger));
  return queue;
}

/** SCHEDULE_SOURCE / SCHEDULE_OUTBOX, resolved; the outbox defaults to `outbox` beside the export. */
export async function scheduleTarget(settings: ScheduleSettings): Promise<{ source: string; outbox: string }> {
  if (settings.source === undefined) {
    throw new ConfigError(
      'SCHEDULE_SOURCE is not set: the nightly export to validate, as a CSV file or a folder whose newest CSV is taken',
    );
  }
  const source = resolve(settings.source);
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(source)).isDirectory();
  } catch (error) {
    throw new ConfigError(`SCHEDULE_SOURCE ${source} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const outbox = resolve(settings.outbox ?? join(isDirectory ? source : dirname(source), 'outbox'));
  return { source, outbox };
}

/** Next run after `from` for the pattern and zone; a pattern BullMQ cannot read is a ConfigError. */
export function nextRunAt(settings: Pick<ScheduleSettings, 'cron' | 'timeZone'>, from = Date.now()): number {
  let next: number | undefined;
  try {
    next = getNextMillis(from, { pattern: settings.cron, tz: settings.timeZone });
  } catch (error) {
    throw new ConfigError(
      `SCHEDULE_CRON ${JSON.stringify(settings.cron)} is not a valid cron pattern: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (next === undefined) throw new ConfigError(`SCHEDULE_CRON ${JSON.stringify(settings.cron)} never matches`);
  return next;
}

const TEMPLATE_OPTIONS: JobSchedulerTemplateOptions = {
  // A run that failed for a passing reason (Redis, login) is tried again; a bad export is not (UnrecoverableError).
  attempts: 3,
  backoff: { type: 'exponential', delay: 60_000 },
  removeOnComplete: { count: 100 },
  removeOnFail: { count: 100 },
};

/** Registers (or updates) the BullMQ job scheduler; returns the next run time. */
export async function registerSchedule(
  queue: Queue<NightlyRunJobData>,
  settings: ScheduleSettings,
  data: NightlyRunJobData,
): Promise<number> {
  const next = nextRunAt(settings);
  await queue.upsertJobScheduler(
    NIGHTLY_SCHEDULER_ID,
    { pattern: settings.cron, tz: settings.timeZone },
    { name: NIGHTLY_RUN_JOB, data, opts: TEMPLATE_OPTIONS },
  );
  return next;
}

/**
 * The newest CSV of the source (a file is itself), skipping hidden, .part/.tmp and non-CSV names. A file
 * modified within the last `stableMs` is waited for until it stays unchanged that long, so an export
 * still being written is not read half-way. Undefined when the folder holds no CSV.
 */
export async function newestExport(source: string, stableMs: number, signal?: AbortSignal): Promise<string | undefined> {
  const info = await stat(source);
  let path = source;
  if (info.isDirectory()) {
    let newest: { path: string; mtimeMs: number } | undefined;
    for (const entry of await readdir(source, { withFileTypes: true })) {
      if (!entry.isFile() || !isCandidateName(entry.name)) continue;
      const candidate = join(source, entry.name);
      const { mtimeMs } = await stat(candidate);
      if (newest === undefined || mtimeMs > newest.mtimeMs || (mtimeMs === newest.mtimeMs && candidate > newest.path))
        newest = { path: candidate, mtimeMs };
    }
    if (newest === undefined) return undefined;
    path = newest.path;
  }
  await waitUntilStable(path, stableMs, signal);
  return path;
}

async function waitUntilStable(path: string, stableMs: number, signal?: AbortSignal): Promise<void> {
  let last = await stat(path);
  let since = Date.now();
  if (since - last.mtimeMs >= stableMs) return;
  while (Date.now() - since < stableMs) {
    if (signal?.aborted) throw new InputFileError(`${path} was still changing at shutdown`);
    await sleep(Math.min(500, stableMs), signal);
    const current = await stat(path);
    if (current.size !== last.size || current.mtimeMs !== last.mtimeMs) {
      last = current;
      since = Date.now();
    }
  }
}

/** `2026-11-21 02:00:00` in the zone -> `20261121-020000`. */
export function stampIn(timeZone: string, at: number): string {
  const wall = wallClockIn(at, timeZone);
  return `${wall.year}${wall.month}${wall.day}-${wall.hour}${wall.minute}${wall.second}`;
}

/** `exports/beneficiaries.csv`, run due 02:00 -> `<outbox>/beneficiaries.20261121-020000.reconciled.csv` (or `.xlsx`). */
export const scheduledReportPath = (
  outbox: string,
  sourceFile: string,
  timeZone: string,
  dueAt: number,
  format: OutputFormat = 'csv',
): string => join(outbox, `${basename(sourceFile, extname(sourceFile))}.${stampIn(timeZone, dueAt)}.reconciled.${format}`);

/** A run holds this lease while it works (renewed; it expires a minute after its process died). */
export const RUN_LEASE_TTL_MS = 60_000;

/**
 * At most one nightly run works at a time, across every scheduler process on every machine: a run holds
 * a lease. A run that finds it held by another run is skipped (and says why). The same job taken up again
 * (after a crash or a hand-back) takes its own lease over: the owner is the job id.
 */
export function runLease(redis: RedisClient, key: string, jobId: string): Lease {
  return new Lease(redis, key, { ttlMs: RUN_LEASE_TTL_MS, owner: `run:${jobId}`, details: { jobId } });
}

/** The run in progress, if any. */
export async function runInProgress(redis: RedisClient, key: string): Promise<LeaseHolder | undefined> {
  return new Lease(redis, key, { ttlMs: RUN_LEASE_TTL_MS }).holder();
}

export type RunStatus = 'completed' | 'completed_with_failures' | 'skipped' | 'failed';

export interface RunRecord {
  jobId: string;
  status: RunStatus;
  scheduledFor: string;
  startedAt: string;
  finishedAt: string;
  sourceFile?: string;
  report?: string;
  batchId?: string;
  rows?: number;
  counts?: Record<string, number>;
  reason?: string;
}

/** What the nightly runs did, newest first, capped: for `schedule --list` and for monitoring. */
export class RunHistory {
  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly keep = 100,
  ) {}

  async record(run: RunRecord): Promise<void> {
    await this.redis
      .multi()
      .lpush(this.key, JSON.stringify(run))
      .ltrim(this.key, 0, this.keep - 1)
      .exec();
  }

  async recent(count = 10): Promise<RunRecord[]> {
    return (await this.redis.lrange(this.key, 0, count - 1)).map((entry) => JSON.parse(entry) as RunRecord);
  }
}
