import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { continuationPolicy } from '../batch/continuation.js';
import { inspectInputFile } from '../batch/input-file.js';
import type { OutputFormat } from '../config/index.js';
import { NO_NAME_COLUMN, type ColumnOverrides } from '../csv/columns.js';
import { maskDigitRuns } from '../logging/logger.js';
import type { BatchLifecycle } from '../batch/lifecycle.js';
import { finishOrHandBack, progressLogger } from '../batch/progress-log.js';
import { HandedBackError } from '../batch/settle.js';
import { describeError, UsageError } from '../errors.js';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../host/private-files.js';
import type { Logger } from '../logging/logger.js';

/** An upload refused before anything was queued: the HTTP status says why. */
export class UploadRefusedError extends UsageError {
  constructor(
    message: string,
    readonly statusCode: 400 | 413 | 415 | 422 | 503,
  ) {
    super(message);
  }
}

/** Where an upload is kept and where its report goes, under the reports folder (CONSOLE_REPORTS_DIR). */
export interface UploadPaths {
  uploadId: string;
  /** The name the user gave the file. */
  name: string;
  inputPath: string;
  reportPath: string;
}

/** `20261121T065203Z-3f9a1c`: sorts by time, readable in a file name. */
const newUploadId = (now = new Date()): string =>
  `${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z-${randomBytes(3).toString('hex')}`;

/** A client's file name made safe as a path segment (no folders, no odd characters), kept recognisable. */
export function safeFileName(name: string): string {
  const base = basename(name.replace(/\\/g, '/'))
    .replace(/[^\w.\- ]+/g, '_')
    .replace(/^\.+/, '')
    .slice(-120);
  return base === '' ? 'upload.csv' : base;
}

/**
 * `<dir>/inputs/<upload id>--<name>` (kept for the batch retention: a batch whose rows were not all stored
 * is read again from it) and `<dir>/<upload id>--<name>.reconciled.csv` (`.xlsx` with OUTPUT_FORMAT=xlsx,
 * as `run` names its report) with its `.summary.json`.
 */
export function uploadPaths(reportsDir: string, clientName: string, format: OutputFormat = 'csv'): UploadPaths {
  const uploadId = newUploadId();
  const name = safeFileName(clientName);
  const stem = basename(name, extname(name));
  const dir = resolve(reportsDir);
  return {
    uploadId,
    name,
    inputPath: join(inputsFolder(dir), `${uploadId}--${name}`),
    reportPath: join(dir, `${uploadId}--${stem}.reconciled.${format}`),
  };
}

/** A CSV or an XLSX workbook, judged first by its name as spreadsheets save it; then read by its content, as `run` reads it. */
export function checkUploadName(clientName: string | undefined): string {
  if (clientName === undefined || clientName.trim() === '')
    throw new UploadRefusedError('the upload has no file name: send the file in the form field "file"', 400);
  if (!/\.(csv|xlsx)$/i.test(clientName.trim()))
    throw new UploadRefusedError(
      `only CSV (.csv) and Excel workbooks (.xlsx) are accepted, not ${JSON.stringify(safeFileName(clientName))}`,
      415,
    );
  return clientName;
}

/** Which column holds what, as the upload form's mapping chose it: column positions, sent with the file again. */
export interface ChosenColumns {
  bankCode: number;
  accountNumber: number;
  expectedName: number | undefined;
}

const MAPPING_FIELDS = { bankCode: 'bankColumn', accountNumber: 'accountColumn', expectedName: 'nameColumn' } as const;

/** The mapping fields sent before the file (`bankColumn`, `accountColumn`, `nameColumn`: column positions), or undefined when none was. */
export function chosenColumns(fields: Record<string, unknown>): ChosenColumns | undefined {
  const position = (name: string): number | undefined => {
    const field = fields[name] as { value?: unknown } | undefined;
    const value = typeof field?.value === 'string' ? field.value.trim() : '';
    if (value === '') return undefined;
    if (!/^\d{1,4}$/.test(value))
      throw new UploadRefusedError(`${name} must be a column position, not ${JSON.stringify(value.slice(0, 20))}`, 400);
    return Number(value);
  };
  const [bankCode, accountNumber, expectedName] = [
    position(MAPPING_FIELDS.bankCode),
    position(MAPPING_FIELDS.accountNumber),
    position(MAPPING_FIELDS.expectedName),
  ];
  if (bankCode === undefined && accountNumber === undefined && expectedName === undefined) return undefined;
  if (bankCode === undefined || accountNumber === undefined)
    throw new UploadRefusedError('choose the bank code column and the account number column', 400);
  return { bankCode, accountNumber, expectedName };
}

/** The header of a saved upload, read by the reader of `run`. */
const headerOf = async (path: string): Promise<string[]> => (await inspectInputFile(path)).header;

/** The chosen positions as the column names `run`'s --bank-column etc. would give. */
export async function columnsByIndex(path: string, chosen: ChosenColumns): Promise<ColumnOverrides> {
  const header = await headerOf(path);
  const name = (index: number | undefined) => {
    if (index === undefined) return undefined;
    if (index >= header.length) throw new UploadRefusedError(`the file has ${header.length} columns, not a column ${index + 1}`, 422);
    return header[index];
  };
  // No name column chosen is a choice too: the accounts alone are checked, whatever column looks like names.
  const expectedName = chosen.expectedName === undefined ? NO_NAME_COLUMN : name(chosen.expectedName);
  return { bankCode: name(chosen.bankCode), accountNumber: name(chosen.accountNumber), expectedName };
}

/** The columns a person chooses from when the header was not recognised: positions and names, digit runs masked (a file without a header row shows a data row there). */
export async function columnsOf(path: string): Promise<Array<{ index: number; name: string }> | undefined> {
  // A file that cannot be read a second time gets the refusal it had, without a choice of columns.
  const header = await headerOf(path).catch(() => undefined);
  return header?.slice(0, MAX_CHOICES).map((name, index) => ({ index, name: maskDigitRuns(name).slice(0, 60) }));
}

const MAX_CHOICES = 200;

/**
 * Streams an upload to its input path (never held in memory): written as `.part`, renamed when complete.
 * A file over the size limit is removed and refused (413).
 */
export async function saveUpload(file: Readable & { truncated?: boolean }, inputPath: string, maxBytes: number): Promise<void> {
  const partial = `${inputPath}.part`;
  await makePrivateFolder(dirname(inputPath), true);
  const tooLarge = () =>
    new UploadRefusedError(`the file is larger than the upload limit of ${formatBytes(maxBytes)} (CONSOLE_UPLOAD_MAX_MB)`, 413);
  try {
    await pipeline(file, createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
  } catch (error) {
    await rm(partial, { force: true });
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
  if (file.truncated) {
    await rm(partial, { force: true });
    throw tooLarge();
  }
  await rename(partial, inputPath);
}

/** The folder of the console's uploads under the reports folder. */
const inputsFolder = (reportsDir: string): string => join(resolve(reportsDir), 'inputs');

/** The reports folder (0700 when made here) and its `inputs/` (always 0700): uploads and reports are the owner's alone. */
export async function prepareUploadFolders(reportsDir: string): Promise<void> {
  try {
    await makePrivateFolder(reportsDir);
    await makePrivateFolder(inputsFolder(reportsDir), true);
  } catch (error) {
    throw new UsageError(
      `cannot make the console's reports folder CONSOLE_REPORTS_DIR=${reportsDir}: ${(error as NodeJS.ErrnoException).code ?? describeError(error)}`,
      { cause: error },
    );
  }
}

/** How often uploads past the retention are looked for (and once at start). */
const UPLOAD_SWEEP_MS = 3600_000;

/**
 * Uploads go with their batches: one kept past the batch retention (BATCH_RETENTION, by its last
 * change) is removed, as Redis has forgotten its batch by then (half-written `.part` files of a stopped
 * console too). Now, then every hour; returns the function that stops it.
 */
export async function sweepExpiredUploads(reportsDir: string, retentionMs: number, logger: Logger): Promise<() => void> {
  const folder = inputsFolder(reportsDir);
  const sweep = async () => {
    let removed = 0;
    try {
      for (const name of await readdir(folder)) {
        const path = join(folder, name);
        const info = await stat(path).catch(() => undefined);
        if (info === undefined || !info.isFile() || info.mtimeMs > Date.now() - retentionMs) continue;
        await rm(path, { force: true });
        removed += 1;
      }
    } catch (error) {
      logger.warn({ err: error, folder }, `could not remove old uploads: ${describeError(error)}`);
    }
    if (removed > 0) logger.info({ removed, folder }, `removed ${removed} upload(s) older than BATCH_RETENTION`);
  };
  await sweep();
  const timer = setInterval(() => void sweep(), UPLOAD_SWEEP_MS).unref();
  return () => clearInterval(timer);
}

const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${bytes} bytes`;

/**
 * Runs uploaded files through the batch lifecycle in the background of the console process, exactly as
 * `run` does (same continuation rules: the same content while its batch is unfinished joins that batch;
 * a finished batch with FAILED rows has those asked again within 12 hours; otherwise a new batch).
 * `start` resolves with the batch id as soon as the batch is known and stored; the rest (asking,
 * reporting) goes on after the HTTP answer.
 */
export class BatchRunner {
  private readonly running = new Set<Promise<unknown>>();
  private readonly handBack = new AbortController();

  constructor(
    private readonly lifecycle: Pick<BatchLifecycle, 'check'>,
    private readonly logger: Logger,
  ) {}

  async start(upload: UploadPaths, columns: ColumnOverrides = {}): Promise<string> {
    if (this.handBack.signal.aborted) throw new HandedBackError('the console is stopping');
    const context = { upload: upload.uploadId, file: upload.name };
    let announce: (batchId: string) => void = () => undefined;
    const started = new Promise<string>((resolve) => (announce = resolve));
    let startedId: string | undefined;
    const work = this.lifecycle.check({
      input: { kind: 'file', path: upload.inputPath, name: upload.name, columns, policy: continuationPolicy() },
      reportPath: upload.reportPath,
      signal: this.handBack.signal,
      onStarted: async ({ batchId }) => {
        startedId = batchId;
        announce(batchId);
      },
      onProgress: progressLogger(this.logger, context),
      onNotice: (message) => this.logger.info(context, message),
    });
    const tracked = work.then(
      (checked) =>
        this.logger.info(
          { ...context, batchId: checked.batchId, report: upload.reportPath, counts: checked.summary.counts },
          'uploaded batch reported',
        ),
      (error: unknown) => {
        if (startedId === undefined) return; // the caller gets the error from start()
        if (error instanceof HandedBackError)
          this.logger.warn({ ...context, batchId: startedId }, 'uploaded batch handed back: the next start of the same file continues it');
        else this.logger.error({ ...context, batchId: startedId, err: error }, `uploaded batch stopped: ${describeError(error)}`);
      },
    );
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
    // Whichever comes first: the batch id, or the error that stopped the start.
    return Promise.race([started, work.then((checked) => checked.batchId)]);
  }

  /** On shutdown: running batches may finish within `timeoutMs`, then they are handed back (left for the next start). */
  async stop(timeoutMs: number): Promise<void> {
    await finishOrHandBack(Promise.allSettled([...this.running]), timeoutMs, () => this.handBack.abort());
  }
}
