import { randomBytes } from 'node:crypto';
import { access, mkdir, readdir, rename } from 'node:fs/promises';
import { basename, extname, join, resolve, sep } from 'node:path';
import type { RedisClient } from '../redis/connection.js';
import { continuationPolicy } from '../batch/continuation.js';
import { shownFileName } from '../batch/input-file.js';
import { changesPathFor } from '../batch/output-path.js';
import type { BatchInput, BatchLifecycle, StartedBatch } from '../batch/lifecycle.js';
import { finishOrHandBack, progressLogger } from '../batch/progress-log.js';
import { HandedBackError } from '../batch/settle.js';
import { sleep } from '../clock/clock.js';
import type { OutputFormat, WatchSettings } from '../config/index.js';
import type { ColumnOverrides } from '../csv/columns.js';
import { describeError, OutputPathError, UsageError } from '../errors.js';
import { showable, type Logger } from '../logging/logger.js';
import type { RedisKeys } from '../redis/keys.js';
import type { LeaseLostError } from '../redis/lease.js';
import { writeWholeFile } from '../report/temporary-file.js';
import { describeReviewImport, type ReviewImport, type ReviewImportRequest } from '../review/review-file.js';
import { InboxScanner } from './inbox.js';
import { FolderRegistration } from './registration.js';

export interface WatchFolders {
  root: string;
  inbox: string;
  /** Reviewed reports: the decisions people wrote in them are recorded (see Watcher.takeReviews). */
  reviews: string;
  processing: string;
  outbox: string;
  archive: string;
  failed: string;
}

export function watchFolders(root: string): WatchFolders {
  const base = resolve(root);
  return {
    root: base,
    inbox: join(base, 'inbox'),
    reviews: join(base, 'reviews'),
    processing: join(base, 'processing'),
    outbox: join(base, 'outbox'),
    archive: join(base, 'archive'),
    failed: join(base, 'failed'),
  };
}

/** A file taken from the inbox: `processing/<claimId>--<original name>`. */
export interface Claim {
  id: string;
  original: string;
  path: string;
  /** From the claim id (second precision): a batch created at or after it belongs to this claim. */
  claimedAt: number;
}

/** What is kept in Redis about a claim, so that a restart continues it with the same names and batch. */
interface ClaimRecord {
  reportName?: string;
  archiveName?: string;
  batchId?: string;
}

// `s`: the name after the claim id may hold any character, a line feed, a carriage return or U+2028 included
// (`.` alone matches none of them, and such a file stayed in processing/ for ever, unseen).
const CLAIM_NAME = /^(\d{8}T\d{6}Z-[0-9a-f]{6})--(.+)$/s;
/**
 * The longest stem (bytes) of a name the watcher keeps: every name made from it (the claim
 * `<claim id>--<name>`, the report `<stem>.<claim id>.reconciled.summary.json`, the report's temporary
 * file) stays within the 255 bytes a file name may have. A longer stem is cut, and ends in `…`.
 */
const MAX_KEPT_STEM_BYTES = 180;
const CLAIM_RECORD_TTL_S = 30 * 24 * 3600;
const RETRY_MS = { first: 15_000, max: 300_000 };

/** `20261121T065203Z-3f9a1c`: sorts by time, readable in a file name. */
function newClaimId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z-${randomBytes(3).toString('hex')}`;
}

function parseClaim(directory: string, name: string): Claim | undefined {
  const match = CLAIM_NAME.exec(name);
  if (!match) return undefined;
  const id = match[1]!;
  const stamp = id.slice(0, 16);
  const claimedAt = Date.parse(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
  );
  return { id, original: match[2]!, path: join(directory, name), claimedAt };
}

const stemOf = (name: string): string => basename(name, extname(name));

/** An inbox file's name as the watcher keeps it: as it is, or with its stem cut to MAX_KEPT_STEM_BYTES (never inside a character). */
export function keptName(name: string): string {
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  if (Buffer.byteLength(stem) <= MAX_KEPT_STEM_BYTES) return name;
  let cut = '';
  for (const character of stem) {
    if (Buffer.byteLength(cut + character) > MAX_KEPT_STEM_BYTES - Buffer.byteLength('…')) break;
    cut += character;
  }
  return `${cut}…${extension}`;
}

/**
 * A note for the people at the folder (failed/*.error.txt, outbox/*.review.txt, *.duplicate.txt): free text as a
 * log line shows it, account numbers masked (a sheet's or a file's name may hold one), written whole under a
 * temporary name so that whoever reads it as it appears (a person, a script, a test) reads all of it.
 */
const writeNote = (path: string, text: string): Promise<void> => writeWholeFile(path, showable(text));

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** `<stem><suffix>`, or `<stem>.<claim id><suffix>` when that name is taken: nothing already there is overwritten. */
async function freeName(directory: string, stem: string, suffix: string, claimId: string): Promise<string> {
  const plain = `${stem}${suffix}`;
  return (await exists(join(directory, plain))) ? `${stem}.${claimId}${suffix}` : plain;
}

/** What the watched folder needs: the batch lifecycle, Redis for its claims and registration, its settings. */
export interface WatcherDependencies {
  lifecycle: Pick<BatchLifecycle, 'check'>;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Logger;
  settings: WatchSettings;
  /** The reports' format (OUTPUT_FORMAT): `<name>.reconciled.csv` or `.xlsx`, and the changes file alike. */
  outputFormat: OutputFormat;
  columns: ColumnOverrides;
  /** Another watcher took this folder over (this one stalled past its registration): the command must end. */
  onRegistrationLost: (error: LeaseLostError) => void;
  /** Records the decisions of a reviewed report (App.importReview). */
  importReview(request: ReviewImportRequest): Promise<ReviewImport>;
  /** How the result of a review names times (DISPLAY_TZ). */
  showTime(at: number): string;
}

/** Why a symbolic link dropped into inbox/ or reviews/ is not taken. */
const LINK_REFUSED =
  'it is a symbolic link: only files dropped into the folder are taken (a link may point at any file this process can read, and at another one by the time it is read); copy the file itself in';

/**
 * The watched-folder service. One loop, one file at a time:
 * 1. files left in processing/ (the watcher stopped or died while checking them) are continued first;
 * 2. otherwise the oldest complete CSV of inbox/ is claimed by an atomic rename into processing/;
 * 3. the file goes through the batch lifecycle (unreadable / missing columns -> failed/ with
 *    `<name>.error.txt`; the same content finished within the duplicate window -> its answers again, nothing
 *    asked), is reported into outbox/ and moved to archive/.
 * Files are checked one after another, not side by side: all inquiries go through one queue with one
 * rate limit, so checking two files at once would not finish either sooner. In-process workers answer
 * the jobs; any number of `worker` processes can join.
 *
 * One watcher per folder: a start while another watcher of the same folder is alive is refused (the
 * registration in Redis expires 5 s after a watcher dies, so a restart after a crash waits at most that).
 * A watcher that loses its registration hands its file back and stops.
 */
export class Watcher {
  readonly folders: WatchFolders;
  private readonly scanner: InboxScanner;
  private readonly reviewScanner: InboxScanner;
  private readonly registration: FolderRegistration;
  private folderId = '';
  private stopping = false;
  private readonly stopSleeping = new AbortController();
  private readonly handBack = new AbortController();
  private running: Promise<void> | undefined;
  private active: Claim | undefined;
  private retryAt = 0;
  private retryMs = RETRY_MS.first;

  constructor(
    private readonly deps: WatcherDependencies,
    folder: string,
  ) {
    this.folders = watchFolders(folder);
    this.scanner = new InboxScanner(this.folders.inbox, deps.settings.stableMs);
    this.reviewScanner = new InboxScanner(this.folders.reviews, deps.settings.stableMs);
    this.registration = new FolderRegistration(deps.redis, deps.keys, this.folders.root, deps.logger);
  }

  private get log() {
    return this.deps.logger;
  }

  /** Creates the folders, registers as this folder's watcher, and starts the loop. */
  async start(): Promise<void> {
    const { inbox, reviews, processing, outbox, archive, failed, root } = this.folders;
    for (const directory of [root, inbox, reviews, processing, outbox, archive, failed]) await mkdir(directory, { recursive: true });
    this.folderId = await this.registration.acquire((error) => {
      this.log.error({ folder: root }, `${error.message}: this watcher hands its file back and stops`);
      this.stopping = true;
      this.stopSleeping.abort();
      this.handBack.abort();
      this.deps.onRegistrationLost(error);
    });
    if (this.stopping) return; // stopped while waiting to register
    const { stableMs, pollMs, duplicateWindowMs } = this.deps.settings;
    this.log.info(
      { folder: root, stableSeconds: stableMs / 1000, pollMs, duplicateWindowHours: duplicateWindowMs / 3600_000 },
      `watching ${inbox}: reports to ${outbox}, inputs to ${archive}, refused files to ${failed}`,
    );
    // Reviewed reports have a loop of their own: a review waits for no file being checked, however long.
    this.running = Promise.all([this.loop(), this.reviewLoop()]).then(() => undefined);
  }

  /**
   * Graceful stop: no new file is taken; the file being checked may finish within `timeoutMs`, else it
   * is handed back (it stays in processing/ and its batch in Redis; the next start continues it, and
   * running workers keep answering its jobs meanwhile).
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.stopSleeping.abort();
    if (this.running !== undefined) {
      await finishOrHandBack(this.running, timeoutMs, () => {
        if (this.active)
          this.log.warn({ file: this.active.original }, `not finished within ${timeoutMs / 1000}s of the stop: handing it back`);
        this.handBack.abort();
      });
    }
    await this.registration.release();
  }

  /** Resolves when the loop ends (after stop()). */
  done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      try {
        const next = await this.nextClaim();
        if (next !== undefined) {
          await this.process(next);
          continue;
        }
      } catch (error) {
        this.log.error({ err: error }, `watch loop: ${describeError(error)}`);
      }
      await sleep(this.deps.settings.pollMs, this.stopSleeping.signal);
    }
  }

  private async reviewLoop(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.takeReviews();
      } catch (error) {
        // Redis away, say: the file stays in reviews/ and is taken at a later scan.
        this.log.error({ err: error }, `reviews: ${describeError(error)}; the file stays in reviews/ and is tried again`);
      }
      await sleep(this.deps.settings.pollMs, this.stopSleeping.signal);
    }
  }

  /**
   * Reviewed reports dropped into reviews/ (complete files only, as in the inbox): the decisions people wrote
   * in them are recorded, as `review` records them, by the reviewer the file's name gives (`ratna--<any
   * name>.xlsx`) or else WATCH_REVIEWER; the result goes to outbox/<name>.review.txt and the file to
   * archive/. A file that cannot be read (or names no reviewer) goes to failed/ with the reason; nothing of it
   * is recorded. Recording a file again changes nothing (its decisions are then unchanged), so a crash before
   * the file is moved only records it again: no claim is needed.
   */
  private async takeReviews(): Promise<void> {
    for (const file of await this.reviewScanner.scan()) {
      if (this.stopping) return;
      this.reviewScanner.forget(file);
      // The readers take a path as text: a name that is no valid UTF-8, or too long for the names made from
      // it, is first renamed to the name the watcher keeps, as an inbox file is when claimed.
      const name = keptName(file.name);
      const path = await this.renamedToText(this.folders.reviews, file.path, name);
      if (file.reason === 'link') {
        await this.refuse({ id: newClaimId(), original: name, path, claimedAt: Date.now() }, LINK_REFUSED, 'reviews');
        continue;
      }
      const reviewer = /^(.+?)--./s.exec(name)?.[1] ?? this.deps.settings.reviewer;
      const claimId = newClaimId();
      if (reviewer === undefined) {
        await this.refuse(
          { id: claimId, original: name, path, claimedAt: Date.now() },
          'no reviewer is named: name the file <reviewer>--<name> (e.g. ratna--payouts.reconciled.xlsx), or set WATCH_REVIEWER',
          'reviews',
        );
        continue;
      }
      let result: ReviewImport;
      try {
        result = await this.deps.importReview({ path, reviewer, source: `watch ${path}` });
      } catch (error) {
        if (error instanceof UsageError)
          await this.refuse({ id: claimId, original: name, path, claimedAt: Date.now() }, error.message, 'reviews');
        else throw error;
        continue;
      }
      await writeNote(
        join(this.folders.outbox, await freeName(this.folders.outbox, stemOf(name), '.review.txt', claimId)),
        describeReviewImport(name, reviewer, result, this.deps.showTime),
      );
      await rename(path, join(this.folders.archive, await freeName(this.folders.archive, stemOf(name), extname(name), claimId)));
      this.log.info(
        { file: name, reviewer, recorded: result.recorded.length, unchanged: result.unchanged, refused: result.refused.length },
        'reviewed report recorded',
      );
    }
  }

  /** A leftover claim in processing/ first; else the oldest complete inbox file, claimed by rename. */
  private async nextClaim(): Promise<Claim | undefined> {
    const ready = await this.scanner.scan(); // scanned even while waiting to retry, so stability keeps being measured
    if (performance.now() < this.retryAt) return undefined;
    const leftovers: Claim[] = [];
    // Listed as bytes: a stray whose name is no valid UTF-8 cannot be reached through its text reading (the
    // watcher's own claims always have valid names).
    for (const entry of (await readdir(this.folders.processing, { withFileTypes: true, encoding: 'buffer' })).sort((a, b) =>
      Buffer.compare(a.name, b.name),
    )) {
      const name = entry.name.toString('utf8');
      // Hidden names are the file system's (an NFS `.nfsXXXX`), never a claim.
      if (!entry.isFile() || name.startsWith('.')) continue;
      const claim = Buffer.from(name).equals(entry.name) ? parseClaim(this.folders.processing, name) : undefined;
      if (claim === undefined) await this.refuseStray(entry.name);
      else leftovers.push(claim);
    }
    if (leftovers.length > 0) {
      const claim = leftovers[0]!;
      this.log.info({ file: claim.original, claim: claim.id }, 'continuing a file left in processing/');
      return claim;
    }
    for (const file of ready) {
      this.scanner.forget(file);
      if (file.reason === 'link') {
        await this.refuseLink(file.path, file.name);
        continue;
      }
      const id = newClaimId();
      const kept = keptName(file.name);
      const target = join(this.folders.processing, `${id}--${kept}`);
      try {
        await rename(file.path, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed or taken meanwhile
        throw error;
      }
      this.log.info(
        { file: file.name, claim: id, bytes: file.size, complete: file.reason, ...(kept !== file.name && { keptAs: kept }) },
        kept === file.name
          ? 'took a file from the inbox'
          : 'took a file from the inbox; its name is kept shorter (or with U+FFFD for bytes that are no UTF-8) in processing/, outbox/ and archive/',
      );
      return parseClaim(this.folders.processing, basename(target));
    }
    return undefined;
  }

  /** A file in processing/ that no watcher claimed (put there by hand, or by another tool): to failed/, saying so. */
  /** `bytes`: its name in processing/. */
  private async refuseStray(bytes: Buffer): Promise<void> {
    const original = keptName(bytes.toString('utf8'));
    const path = await this.renamedToText(
      this.folders.processing,
      Buffer.concat([Buffer.from(`${this.folders.processing}${sep}`), bytes]),
      original,
    );
    await this.moveToFailed(
      { id: newClaimId(), original, path, claimedAt: Date.now() },
      'it was found in processing/ without a claim of this watcher (files go into inbox/, and the watcher moves them on)',
    );
  }

  /** A symbolic link dropped into the inbox: the link itself goes to failed/ with the reason, its target is never read. */
  private async refuseLink(bytes: Buffer, name: string): Promise<void> {
    const original = keptName(name);
    const path = await this.renamedToText(this.folders.inbox, bytes, original);
    await this.moveToFailed({ id: newClaimId(), original, path, claimedAt: Date.now() }, LINK_REFUSED);
  }

  /**
   * A file of `folder` (its path as bytes: its name may be no valid UTF-8) renamed there to `name`, the name
   * the watcher keeps; returns the path as text, which the readers and the moves take.
   */
  private async renamedToText(folder: string, bytes: Buffer, name: string): Promise<string> {
    const path = join(folder, name);
    if (!Buffer.from(path).equals(bytes)) await rename(bytes, path);
    return path;
  }

  private async process(claim: Claim): Promise<void> {
    this.active = claim;
    try {
      await this.check(claim);
      this.retryMs = RETRY_MS.first;
    } catch (error) {
      if (error instanceof HandedBackError) {
        this.log.warn(
          { file: claim.original, claim: claim.id },
          'handed back at shutdown: the file stays in processing/ and its batch in Redis; the next start continues it (running workers keep answering it meanwhile)',
        );
        return;
      }
      // Not the file's fault (Redis, login, provider): it stays in processing/ and is tried again.
      this.retryAt = performance.now() + this.retryMs;
      this.log.error(
        { err: error, file: claim.original, retryInSeconds: this.retryMs / 1000 },
        `${describeError(error)}; the file stays in processing/ and is tried again`,
      );
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MS.max);
    } finally {
      this.active = undefined;
    }
  }

  private async check(claim: Claim): Promise<void> {
    const context = { file: claim.original, claim: claim.id };
    const record = await this.claimRecord(claim);
    const reportPath = join(this.folders.outbox, record.reportName!);
    const archivePath = join(this.folders.archive, record.archiveName!);
    // A claim taken up again after a restart continues its own batch (the lifecycle's rule); a new claim
    // goes by its content.
    const input: BatchInput = {
      kind: 'file',
      path: claim.path,
      name: claim.original,
      columns: this.deps.columns,
      policy: continuationPolicy(this.deps.settings.duplicateWindowMs),
      ...(record.batchId !== undefined && { ownBatchId: record.batchId }),
    };
    const duplicateOf = (started: StartedBatch) =>
      // Another file's batch (this claim's own one, taken up after a restart, is no duplicate of anything).
      started.continuation.kind === 'reuse' && started.batch.sourceFile !== claim.path
        ? {
            file: started.batch.sourceName,
            batchId: started.batchId,
            receivedAt: new Date(started.batch.createdAt).toISOString(),
            report: started.batch.lastReport,
          }
        : undefined;
    let checked;
    try {
      checked = await this.deps.lifecycle.check(
        {
          input,
          reportPath,
          changesPath: changesPathFor(reportPath),
          signal: this.handBack.signal,
          onProgress: progressLogger(this.log, context),
          onNotice: (message) => this.log.info(context, message),
          onStarted: (started) => this.saveClaim(claim, { batchId: started.batchId }),
        },
        (started) => {
          const first = duplicateOf(started);
          return {
            sourceFile: archivePath,
            receivedAs: claim.original,
            receivedAt: new Date(claim.claimedAt).toISOString(),
            ...(first && { duplicateOf: first, note: duplicateNote(first) }),
          };
        },
      );
    } catch (error) {
      // The file's own fault (unreadable, not a CSV, columns missing): refused. An outbox that cannot be
      // written is not the file's fault: it stays in processing/ and is tried again.
      if (error instanceof UsageError && !(error instanceof OutputPathError)) return this.refuse(claim, error.message);
      throw error;
    }
    const first = duplicateOf(checked);
    if (first !== undefined) {
      await writeNote(
        join(this.folders.outbox, `${record.reportName!.replace(/\.reconciled\.(csv|xlsx)$/, '')}.duplicate.txt`),
        `${shownFileName(claim.original)}: ${duplicateNote(first)}\n`,
      );
    }
    if (checked.gaveUp !== undefined) {
      // As `run` exits 1: a batch the provider gave no usable answer for is no success, whatever was written.
      await this.moveToFailed(claim, checked.gaveUp, 'inbox', {
        headline: `${shownFileName(claim.original)} was checked, but not answered: ${checked.gaveUp}`,
        advice: `Its report, the rows without an answer FAILED, is ${reportPath}. Drop the file into inbox/ again once the provider answers: only those rows are asked again.`,
      });
      await this.dropClaim(claim);
      this.log.error(
        { ...context, batchId: checked.batchId, report: reportPath, counts: checked.summary.counts },
        `not answered: ${checked.gaveUp}; input moved to failed/`,
      );
      return;
    }
    await rename(claim.path, archivePath);
    await this.dropClaim(claim);
    this.log.info(
      { ...context, batchId: checked.batchId, report: reportPath, counts: checked.summary.counts },
      first ? 'duplicate: report repeats the first file' : 'report written, input archived',
    );
  }

  /** Unreadable file, missing columns, not a CSV (or, from reviews/, not a report): to failed/ with the reason beside it. */
  private async refuse(claim: Claim, reason: string, folder = 'inbox'): Promise<void> {
    await this.moveToFailed(claim, reason, folder);
    await this.dropClaim(claim);
  }

  /** `folder`: where the note tells people to drop the fixed file. */
  private async moveToFailed(
    claim: Claim,
    reason: string,
    folder = 'inbox',
    wording: { headline?: string; advice?: string } = {},
  ): Promise<void> {
    const name = await freeName(this.folders.failed, stemOf(claim.original), extname(claim.original), claim.id);
    const note = [
      wording.headline ?? `${shownFileName(claim.original)} was not checked: ${reason}`,
      '',
      `received: ${new Date(claim.claimedAt).toISOString()}`,
      `refused:  ${new Date().toISOString()}`,
      wording.advice ?? `Fix the file and drop it into ${folder}/ again.`,
      '',
    ].join('\n');
    // The note first, then the move: a crash in between refuses the file again, to the same names.
    await writeNote(join(this.folders.failed, `${stemOf(name)}.error.txt`), note);
    await rename(claim.path, join(this.folders.failed, name));
    this.log.warn({ file: claim.original, movedTo: join(this.folders.failed, name) }, `refused: ${reason}`);
  }

  /** The claim's record, choosing its output names the first time (so a restart writes to the same names). */
  private async claimRecord(claim: Claim): Promise<ClaimRecord> {
    const key = this.deps.keys.watchClaim(this.folderId, claim.id);
    const record = (await this.deps.redis.hgetall(key)) as ClaimRecord;
    if (record.reportName !== undefined && record.archiveName !== undefined) return record;
    const stem = stemOf(claim.original);
    const chosen = {
      reportName: await freeName(this.folders.outbox, stem, `.reconciled.${this.deps.outputFormat}`, claim.id),
      archiveName: await freeName(this.folders.archive, stem, extname(claim.original), claim.id),
    };
    await this.saveClaim(claim, chosen);
    return { ...record, ...chosen };
  }

  private async saveClaim(claim: Claim, fields: ClaimRecord): Promise<void> {
    const key = this.deps.keys.watchClaim(this.folderId, claim.id);
    await this.deps.redis
      .multi()
      .hset(key, { ...fields, original: claim.original })
      .expire(key, CLAIM_RECORD_TTL_S)
      .exec();
  }

  private async dropClaim(claim: Claim): Promise<void> {
    await this.deps.redis.del(this.deps.keys.watchClaim(this.folderId, claim.id));
  }
}

function duplicateNote(first: { file: string; batchId: string; receivedAt: string; report: string | undefined }): string {
  return `duplicate of ${first.file} (received ${first.receivedAt}, batch ${first.batchId}, report ${first.report ?? 'not known'}): same content, not validated again; this report repeats that batch's answers`;
}
