import { basename, resolve } from 'node:path';
import type { Clock } from '../clock/clock.js';
import { describeRoles, roleColumns, type ColumnOverrides } from '../csv/columns.js';
import { describeEndpoint, type Endpoint } from '../config/endpoint.js';
import {
  BatchNotFoundError,
  BatchUnfinishedError,
  BatchVanishedError,
  describeError,
  InputFileError,
  UsageError,
  WorkTakenOverError,
} from '../errors.js';
import type { Logger } from '../logging/logger.js';
import { describeHolder, LeaseLostError, type LeaseHolder } from '../redis/lease.js';
import { contentAtEndpoint, newBatchId, ProductionFencedError, type BatchRecord, type BatchStore } from './batch-store.js';
import { decideContinuation, describeContinuation, type Continuation, type ContinuationPolicy } from './continuation.js';
import { fileNotes } from './file-notes.js';
import { shownFileName } from './input-file.js';
import { checkReportPath, checkReportWidth } from './output-path.js';
import type { Backlog } from './backlog.js';
import type { InspectedFile, Producer } from './producer.js';
import type { WrittenReport } from './report-writer.js';
import { HandedBackError, perSecond, type ProgressReport, type SettleResult } from './settle.js';
import { buildSummary, writeSummary, type BatchSummary, type RunStart } from './summary.js';

/** The lease on one file content: who decides about, and produces, its batch. */
export interface ContentLease {
  acquireWhenFree(options: { pollMs: number; signal?: AbortSignal; onHeld?: (holder: LeaseHolder) => void }): Promise<boolean>;
  keepAlive(onLost?: (error: LeaseLostError) => void): void;
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

/** How often the jobs of a batch's earlier rounds that a worker holds are counted while waiting for them. */
const EARLIER_CALLS_POLL_MS = 250;

/** What the lifecycle needs, narrowly; the app wires it to Redis, the queue, the provider and the file system. */
export interface LifecycleDependencies {
  store: Pick<
    BatchStore,
    | 'get'
    | 'create'
    | 'latestByContent'
    | 'progress'
    | 'countFailedOutcomes'
    | 'nextRound'
    | 'forgetFailedOutcomes'
    | 'markReported'
    | 'failedAccounts'
    | 'getOutcomes'
  >;
  producer: Pick<Producer, 'produce' | 'requeueUnanswered'>;
  /** The lease on one content at this endpoint (`contentAtEndpoint`). */
  contentLease(contentAtEndpoint: string): ContentLease;
  /** Logs in (trying a passing failure a few times): a wrong password stops the start before anything is queued. */
  login(): Promise<void>;
  settle(batchId: string, options: { signal?: AbortSignal; onProgress?: (report: ProgressReport) => void }): Promise<SettleResult>;
  /**
   * The wait's rules while the file is still being queued (settle with `whileQueueing`): rejects with the
   * wait's error when the provider fails, or the login does, past the outage budget, or a login is
   * rejected; ends with HandedBackError once `signal` aborts (the queueing is done).
   */
  watchQueueing?(batchId: string, signal: AbortSignal): Promise<unknown>;
  /** `changesPath`: also write the rows whose `change` needs a look there, in the same pass. */
  writeReport(batchId: string, reportPath: string, signal?: AbortSignal, changesPath?: string): Promise<WrittenReport>;
  inspect(path: string, columns: ColumnOverrides): Promise<InspectedFile>;
  /**
   * Told once when a batch finishes (its report written with every row answered), from any entry point:
   * the app queues the completion notice here. It must only queue: a receiver never delays a report.
   */
  batchFinished?(finished: FinishedBatch): Promise<void>;
  /**
   * The rate (calls/s) the provider allowed since `since`: the configured rate unless it answered 429 (the
   * shared pacer slowed down); undefined when not known (it refused calls sent unpaced).
   */
  allowedRate?(since: number): Promise<number | undefined>;
  /**
   * The calls of a batch's earlier rounds that may still be on their way when its FAILED accounts are to
   * be asked again: `held` counts its jobs of rounds before `round` that a worker holds now (the run that
   * gave up, closing; a `worker` process), and every call sent before the round moved is answered, or
   * has timed out, within `settledWithinMs` (the provider's request timeout and a margin).
   */
  earlierCalls?: { held(batchId: string, round: number): Promise<number>; settledWithinMs: number };
  /** The inquiry queue of this process's endpoint: the identity of the endpoint a batch's answers come from. */
  queueName: string;
  /** That endpoint as people name it (recorded with each new batch, shown in its summary). */
  endpoint: Endpoint;
  /** The queue is the built-in emulator's of this process (see BatchRecord.throwAwayQueue). */
  throwAwayQueue?: boolean;
  /** How many accounts each inquiry job of a new batch of `rowCount` rows asks (accountsPerJob); one when not given. */
  accountsPerJob?(rowCount: number): number;
  clock: Clock;
  logger: Logger;
}

/** What to check: a file (any entry point), or a batch by id (`resume`). */
export type BatchInput =
  | {
      kind: 'file';
      path: string;
      /** The name people know the file by, when it is not the path's own (a claimed inbox file). */
      name?: string;
      columns: ColumnOverrides;
      policy: ContinuationPolicy;
      /**
       * The batch this entry point started for this very input before a restart (a watched file's claim, a
       * nightly run): taken up again while Redis has it, whatever the content rules would decide (a
       * finished one is reported again, nothing asked). Otherwise the file goes by its content.
       */
      ownBatchId?: string;
    }
  /**
   * A batch by id: `resume` (retryFailed: FAILED answers are asked again, whatever their age), or an entry
   * point taking up its own batch again after a restart (a finished one is then only reported again).
   */
  | { kind: 'batch'; batchId: string; retryFailed: boolean };

export interface BatchRequest {
  input: BatchInput;
  /** Checked for writability before anything is asked; undefined when no report is wanted (`enqueue`). */
  reportPath?: string;
  /** `watch` and `schedule`: the rows whose `change` needs a look (not NEW, not UNCHANGED) are also written here. */
  changesPath?: string;
  /** Stops the work: it is handed back (HandedBackError), the batch stays in Redis for the next start. */
  signal?: AbortSignal;
  onProgress?: (report: ProgressReport) => void;
  /** Lines for people: which batch, what is waited for. */
  onNotice?: (message: string) => void;
  /**
   * Told when the batch is decided, before its rows are produced: `run` starts its in-process workers
   * here, so the run's own figures count everything they do.
   */
  onDecided?: () => Promise<void>;
  /** Told once the batch is settled, before its report (`run` stops the worker processes it started). */
  onSettled?: () => Promise<void>;
  /** Told once the batch is known and produced, before the wait (an entry point notes its batch id). */
  onStarted?: (started: StartedBatch) => Promise<void>;
  /**
   * Log in before anything is queued (default): a wrong password stops here, not as FAILED rows. `enqueue`
   * does not: it may run where the provider cannot be reached (production accepts only registered IPs);
   * its workers hold the jobs while login fails.
   */
  loginFirst?: boolean;
  /**
   * How far ahead of the calls the file is queued (the producer's backlog): `run` and `resume`, whose
   * workers share the producer's event loop, keep about two seconds of calls queued (backlogFor); the
   * producer's own bound otherwise, so that `enqueue` queues up to it whether or not workers run.
   */
  backlog?: Backlog;
}

export interface StartedBatch {
  batchId: string;
  continuation: Continuation;
  run: RunStart;
  /** The batch as it stood when this run started (a reused batch: what the first file was, its report). */
  batch: BatchRecord;
}

/** Fields an entry point adds to the summary JSON, knowing the batch it got (a duplicate's first file). */
export type SummaryExtras = Record<string, unknown> | ((started: StartedBatch) => Record<string, unknown>);

export interface FinishedBatch {
  summary: BatchSummary;
  batch: BatchRecord;
  finishedAt: number;
}

export interface CheckedBatch extends StartedBatch {
  summary: BatchSummary;
  /**
   * Set when the provider failed the run: it stayed unavailable past the outage budget (the remaining rows
   * are FAILED), or none of the run's calls got a usable answer. A systemic failure (`run`: exit 1).
   */
  gaveUp: string | undefined;
}

const LEASE_POLL_MS = 500;
/** How often the answers so far are reported while the file is still being queued (reportWhileProducing). */
const PROGRESS_WHILE_PRODUCING_MS = 1_000;
/** A producer that lost its lease starts over (waiting for, then joining, whoever took over) this many times. */
const TAKEOVER_RETRIES = 3;

/**
 * One batch, one path, whatever started it (`run`, `resume`, `enqueue`, the watched folder, the nightly
 * job, the console):
 *
 *   inspect ─► lease the content ─► create or continue ─► produce rows + jobs ─► release
 *           ─► settle (progress, give-up rules, signal) ─► write report ─► mark finished
 *
 * The lease makes the same content started twice at once one batch with one producer: the second start
 * waits for the first to finish producing, then joins the batch (both settle it and both write a report).
 * "Finished" means reported: anything short of it is continued by the next start, which asks only what
 * has no answer.
 */
export class BatchLifecycle {
  constructor(private readonly deps: LifecycleDependencies) {}

  /** The whole path: start, settle, report. */
  async check(request: BatchRequest & { reportPath: string }, summaryExtras: SummaryExtras = {}): Promise<CheckedBatch> {
    const started = await this.start(request);
    try {
      await request.onStarted?.(started);
      const settled = await this.deps.settle(started.batchId, { signal: request.signal, onProgress: request.onProgress });
      await request.onSettled?.();
      const gaveUp = settled.kind === 'gave_up' ? settled.reason : await this.noUsableAnswer(started);
      const extras = typeof summaryExtras === 'function' ? summaryExtras(started) : summaryExtras;
      const summary = await this.report(started, request.reportPath, {
        signal: request.signal,
        gaveUp,
        extras,
        changesPath: request.changesPath,
      });
      return { ...started, summary, gaveUp };
    } catch (error) {
      throw vanishedFromRedis(error);
    }
  }

  /** Inspects, leases the content, creates or continues the batch, produces it: after this, workers can answer it. */
  async start(request: BatchRequest): Promise<StartedBatch> {
    try {
      return await this.startNamed(request);
    } catch (error) {
      throw namedAsShown(error, request.input);
    }
  }

  private async startNamed(request: BatchRequest): Promise<StartedBatch> {
    const { deps } = this;
    const startedAt = deps.clock.now();
    const startedElapsed = deps.clock.monotonic();
    const target = await this.resolveInput(request.input);
    if (request.reportPath !== undefined) {
      await checkReportPath(request.reportPath, target.inputPath);
      checkReportWidth(request.reportPath, target.header);
    }
    for (let attempt = 0; ; attempt += 1) {
      try {
        const { batchId, continuation, batch } = await this.underContentLease(target, request);
        return {
          batchId,
          continuation,
          run: { inputPath: target.inputPath, startedAt, startedElapsed, continuation, ...figuresBefore(batch) },
          batch,
        };
      } catch (error) {
        if (request.signal?.aborted) {
          throw error instanceof HandedBackError
            ? error
            : new HandedBackError(`stopped while starting the batch of ${target.inputPath}`, { cause: error });
        }
        if (!isTakeOver(error)) throw vanishedFromRedis(error);
        if (attempt >= TAKEOVER_RETRIES)
          throw new WorkTakenOverError(
            `producing the batch of ${target.inputPath} was taken over by another process ${attempt + 1} times; run it again`,
          );
        deps.logger.warn({ file: target.inputPath }, 'another process took over producing this content: waiting for it, then joining');
      }
    }
  }

  /**
   * Writes the report of a settled batch and marks it finished. The summary shows this run's figures beside
   * the batch's totals. The batch counts as finished only once report and summary are both on disk, so a
   * stop in between rewrites them on the next start without asking anything.
   */
  async report(
    started: StartedBatch,
    reportPath: string,
    options: { signal?: AbortSignal; gaveUp?: string; extras?: Record<string, unknown>; changesPath?: string | undefined } = {},
  ): Promise<BatchSummary> {
    const { deps } = this;
    const written = await deps.writeReport(started.batchId, reportPath, options.signal, options.changesPath);
    const batch = await deps.store.get(started.batchId);
    const allowedRate = await deps.allowedRate?.(started.run.startedAt);
    const summary: BatchSummary = {
      ...buildSummary(started.run, batch, written, reportPath, { at: deps.clock.now(), elapsed: deps.clock.monotonic() }, allowedRate),
      ...(options.gaveUp !== undefined && { incomplete: options.gaveUp }),
    };
    await writeSummary(summary, options.extras);
    if (!(await deps.store.progress(started.batchId)).complete) return summary;
    const finishedAt = await deps.store.markReported(started.batchId, reportPath, written.counts);
    if (finishedAt !== undefined && deps.batchFinished !== undefined) {
      // The report stands whatever happens to its notice: a failure to queue it is logged, not thrown.
      await deps
        .batchFinished({ summary, batch, finishedAt })
        .catch((error: unknown) =>
          deps.logger.error(
            { err: error, batchId: started.batchId },
            `the completion notice of batch ${started.batchId} could not be queued: ${describeError(error)}`,
          ),
        );
    }
    return summary;
  }

  /** `export`: (re)writes the report of a batch whose every account is answered, asking nothing. */
  async export(batchId: string, reportPath: string): Promise<BatchSummary> {
    const { store, clock } = this.deps;
    const [batch, progress] = await Promise.all([store.get(batchId), store.progress(batchId)]);
    if (!progress.complete) {
      throw new BatchUnfinishedError(
        `batch ${batchId} is not finished (${progress.answered}/${progress.produced ? progress.accountCount : '?'} accounts answered); wait for it or \`resume ${batchId}\``,
      );
    }
    await checkReportPath(reportPath, batch.sourceFile);
    checkReportWidth(reportPath, batch.header);
    const continuation: Continuation = { kind: 'reuse', batchId };
    const run: RunStart = {
      inputPath: batch.sourceFile,
      startedAt: clock.now(),
      startedElapsed: clock.monotonic(),
      continuation,
      ...figuresBefore(batch),
    };
    return this.report({ batchId, continuation, run, batch }, reportPath);
  }

  /**
   * A run whose calls got no usable answer at all (none in the provider's protocol: an HTML page from a
   * captive proxy, bodies too large to read, 5xx or timeouts past the attempts, another 4xx, 401s for every
   * account) asked a provider that is not there. Its rows are FAILED with the reason, and that is a systemic
   * failure, as an outage past the budget is: otherwise a provider that never answered looked like a run
   * that went well (exit 0). Undefined when the run made no call, or got one usable answer.
   */
  private async noUsableAnswer(started: StartedBatch): Promise<string | undefined> {
    const { store } = this.deps;
    const batch = await store.get(started.batchId);
    const calls = batch.calls - started.run.callsBefore;
    if (calls === 0 || batch.usableAnswers > started.run.usableAnswersBefore) return undefined;
    for await (const failed of store.failedAccounts(started.batchId)) {
      const example = (await store.getOutcomes(started.batchId, failed.slice(0, 1))).values().next().value;
      if (example !== undefined)
        return `the provider gave no usable answer: none of the ${calls} calls of this run was answered in its protocol (a FAILED row says: ${example.reason})`;
    }
    return undefined;
  }

  private async resolveInput(input: BatchInput): Promise<Target> {
    if (input.kind === 'file') {
      const own = input.ownBatchId === undefined ? undefined : await this.findBatch(input.ownBatchId);
      // Taken up again only at its own endpoint: restarted for another one, the file is checked anew there.
      if (own !== undefined && own.queueName === this.deps.queueName) {
        return {
          inputPath: input.path,
          contentHash: own.contentHash,
          header: own.header,
          input: { kind: 'batch', batchId: own.batchId, retryFailed: false },
        };
      }
      const inspected = await this.deps.inspect(input.path, input.columns);
      return { inputPath: inspected.file.path, contentHash: inspected.file.contentHash, header: inspected.header, inspected, input };
    }
    const batch = await this.deps.store.get(input.batchId);
    if (batch.queueName !== this.deps.queueName) {
      const there = batch.endpoint === undefined ? 'another endpoint' : describeEndpoint(batch.endpoint);
      throw new UsageError(
        `batch ${batch.batchId} was checked at ${there}, and this process asks ${describeEndpoint(this.deps.endpoint)}: ` +
          'its answers belong to that endpoint. Resume it with the H2H_ENV and H2H_BASE_URL it was checked with, or run the file to check it here',
      );
    }
    return { inputPath: batch.sourceFile, contentHash: batch.contentHash, header: batch.header, input };
  }

  private async findBatch(batchId: string): Promise<BatchRecord | undefined> {
    try {
      return await this.deps.store.get(batchId);
    } catch (error) {
      if (error instanceof BatchNotFoundError) return undefined;
      throw error;
    }
  }

  /** The decision and the production, by the one holder of the content's lease. */
  private async underContentLease(
    target: Target,
    request: BatchRequest,
  ): Promise<{ batchId: string; continuation: Continuation; batch: BatchRecord }> {
    const { deps } = this;
    const lease = deps.contentLease(contentAtEndpoint(deps.queueName, target.contentHash));
    let toldHolder = false;
    const acquired = await lease.acquireWhenFree({
      pollMs: LEASE_POLL_MS,
      signal: request.signal,
      onHeld: (holder) => {
        if (toldHolder) return;
        toldHolder = true;
        request.onNotice?.(
          `the same content is being produced by another process (${describeHolder(holder)}): waiting for it, then joining its batch`,
        );
      },
    });
    if (!acquired) throw new HandedBackError(`stopped while waiting to produce ${target.inputPath}`);
    lease.keepAlive((error) => deps.logger.error({ file: target.inputPath }, `${error.message}: production stops`));
    try {
      const continuation = await this.decide(target);
      // A stop does not wait for a login that hangs; a lease lost meanwhile is seen after it (a take-over, retried).
      const { signal } = request;
      const login =
        request.loginFirst === false
          ? async () => undefined
          : signal === undefined
            ? deps.login
            : () => untilStopped(deps.login(), signal, 'stopped while logging in to the provider');
      const batchId = continuation.kind === 'new' ? await this.create(target, login) : continuation.batchId;
      // Before production: workers answer while rows are still being stored, and those calls are this run's.
      const batch = await deps.store.get(batchId);
      // Said before the production, which has its own news (calls of the last run waited for, late answers taken).
      request.onNotice?.(describeContinuation(continuation, batchId));
      request.onNotice?.(describeColumns(batch));
      // Not refused (a night with nobody new to pay is a header alone; a workbook's other sheets may be notes), but said.
      for (const note of fileNotes(batch)) request.onNotice?.(`${shownInput(target)}: ${note}`);
      await request.onDecided?.();
      const stop = signal === undefined ? lease.signal : AbortSignal.any([lease.signal, signal]);
      const reporting = request.onProgress && this.reportWhileProducing(batchId, request.onProgress);
      const watch = this.watchQueueing(batchId);
      try {
        await this.prepare(batchId, continuation, target, AbortSignal.any([stop, watch.failed]), login, request.backlog, request.onNotice);
      } catch (error) {
        throw watch.failed.aborted ? watch.failed.reason : error;
      } finally {
        reporting?.stop();
        await watch.stop();
      }
      if (watch.failed.aborted) throw watch.failed.reason;
      return { batchId, continuation, batch };
    } finally {
      await lease
        .release()
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not release the content lease (it expires by itself)'));
    }
  }

  /**
   * The wait's rules while the file is queued (deps.watchQueueing): production waits for room in the
   * queue, and a provider that fails (or answers nothing but 429) drains none, so a file larger than the
   * backlog was queued for ever, the outage budget never running. `failed` aborts, its reason the wait's
   * error, when a rule ends the start: production stops, no row is marked, the next start continues.
   */
  private watchQueueing(batchId: string): { failed: AbortSignal; stop(): Promise<void> } {
    const failed = new AbortController();
    const done = new AbortController();
    const watching = (this.deps.watchQueueing?.(batchId, done.signal) ?? Promise.resolve()).then(
      () => undefined,
      (error: unknown) => {
        if (!(error instanceof HandedBackError)) failed.abort(error);
      },
    );
    return {
      failed: failed.signal,
      stop: async () => {
        done.abort();
        await watching;
      },
    };
  }

  /**
   * The answers so far while the file is still being queued: production waits for room in the queue (the
   * backlog), so with a small one (`run`: about two seconds of calls) most of a file is queued while its
   * first rows are asked. Reported each second, as the wait reports them after, the total still unknown.
   */
  private reportWhileProducing(batchId: string, onProgress: (report: ProgressReport) => void): { stop(): void } {
    const { store, clock, logger } = this.deps;
    // The rate counts this production's answers, as the wait's counts its own: a batch continued may hold earlier ones.
    let first: { answered: number; at: number } | undefined;
    let reading = false;
    const timer = setInterval(() => {
      if (reading) return;
      reading = true;
      store
        .progress(batchId)
        .then((progress) => {
          const now = clock.monotonic();
          first ??= { answered: progress.answered, at: now };
          const answeredPerSecond = perSecond(progress.answered - first.answered, now - first.at);
          onProgress({ batchId, progress, answeredPerSecond, waitingFor: undefined });
        })
        // Production reads and writes the same batch: a Redis that fails here fails it too, and says so there.
        .catch((error: unknown) => logger.debug({ err: error, batchId }, `progress while queueing not read: ${describeError(error)}`))
        .finally(() => (reading = false));
    }, PROGRESS_WHILE_PRODUCING_MS);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  private async decide(target: Target): Promise<Continuation> {
    const { store, clock } = this.deps;
    if (target.input.kind === 'batch') {
      const { batchId, retryFailed } = target.input;
      const [batch, progress, failed] = await Promise.all([
        store.get(batchId),
        store.progress(batchId),
        store.countFailedOutcomes(batchId),
      ]);
      // A batch whose reading stopped part-way is read to its end too: asking only its FAILED rows left the
      // rows never stored unasked, and the wait for them never ended.
      if (retryFailed && failed > 0)
        return { kind: 'retry_failed', batchId, produce: !progress.produced, reported: batch.reportedAt !== undefined };
      return batch.reportedAt === undefined
        ? { kind: 'continue', batchId, produce: !progress.produced, answered: progress.complete }
        : { kind: 'reuse', batchId };
    }
    const earlierId = await store.latestByContent(this.deps.queueName, target.contentHash);
    if (earlierId === undefined) return { kind: 'new' };
    const earlier = await store.get(earlierId).catch((error: unknown) => {
      if (!(error instanceof BatchNotFoundError)) throw error;
      // Redis lost the batch but not the index that points to it (eviction): nothing to continue.
      this.deps.logger.warn({ batchId: earlierId }, 'the earlier batch of this content is gone from Redis: starting a new one');
      return undefined;
    });
    if (earlier === undefined) return { kind: 'new' };
    const [progress, failedAccounts] = await Promise.all([store.progress(earlierId), store.countFailedOutcomes(earlierId)]);
    return decideContinuation(
      {
        batchId: earlierId,
        endpoint: earlier.queueName,
        produced: progress.produced,
        answered: progress.complete,
        reportedAt: earlier.reportedAt,
        failedAccounts,
      },
      this.deps.queueName,
      target.input.policy,
      clock.now(),
    );
  }

  private async create(target: Target, login: () => Promise<void>): Promise<string> {
    const { inspected, input } = target;
    if (inspected === undefined) throw new Error('a new batch needs an inspected file');
    await login();
    const batchId = newBatchId(new Date(this.deps.clock.now()));
    await this.deps.store.create({
      batchId,
      sourceFile: inspected.file.path,
      sourceName: (input.kind === 'file' ? input.name : undefined) ?? basename(inspected.file.path),
      contentHash: inspected.file.contentHash,
      queueName: this.deps.queueName,
      endpoint: this.deps.endpoint,
      throwAwayQueue: this.deps.throwAwayQueue === true,
      layout: { delimiter: inspected.file.delimiter, encoding: inspected.file.encoding, sepLine: inspected.file.sepLine },
      ...(inspected.file.workbook !== undefined && {
        sheets: { read: inspected.file.workbook.sheet, notRead: inspected.file.workbook.otherSheets },
      }),
      header: inspected.header,
      mapping: inspected.mapping,
      replacedColumns: inspected.replaced,
      rowCount: inspected.file.rowCount,
      createdAt: this.deps.clock.now(),
      accountsPerJob: this.deps.accountsPerJob?.(inspected.file.rowCount) ?? 1,
    });
    return batchId;
  }

  /** Produces what is missing and queues what has no answer; logs in first whenever something will be asked. */
  private async prepare(
    batchId: string,
    continuation: Continuation,
    target: { inspected?: InspectedFile },
    signal: AbortSignal,
    login: () => Promise<void>,
    backlog: Backlog | undefined,
    onNotice: ((message: string) => void) | undefined,
  ): Promise<void> {
    const { deps } = this;
    if (continuation.kind === 'reuse' || (continuation.kind === 'continue' && continuation.answered)) return; // nothing to ask
    const produce = continuation.kind === 'new' || continuation.produce;
    const inspected = produce ? (target.inspected ?? (await this.inspectSource(await deps.store.get(batchId)))) : undefined;
    if (continuation.kind !== 'new') await login(); // a new batch logged in before it was created
    // The lease was lost meanwhile (this process stalled): the batch is another process's to produce, and
    // writing now would fence that process out.
    signal.throwIfAborted();
    // FAILED answers are forgotten first: the production (or the requeue) then queues their accounts with the rest.
    if (continuation.kind === 'retry_failed') {
      const round = await deps.store.nextRound(batchId);
      await this.waitForEarlierCalls(batchId, round, signal, onNotice);
      const { lateAnswers } = await deps.store.forgetFailedOutcomes(batchId);
      if (lateAnswers > 0)
        onNotice?.(
          `batch ${batchId}: ${lateAnswers} FAILED account(s) were answered after the last run gave up (calls on their way then); those answers stand, and they are not asked again`,
        );
    }
    if (inspected !== undefined) return deps.producer.produce(batchId, inspected, signal, backlog);
    await deps.producer.requeueUnanswered(batchId, backlog, signal);
  }

  /**
   * Waits for the calls of the batch's earlier rounds still on their way (see earlierCalls), so that their
   * answers land (as late answers, which forgetFailedOutcomes takes) before the FAILED accounts are asked
   * again: a rerun started while the run that gave up was still closing, or while a `worker` process held
   * a sent call, asked those accounts a second time. The round has moved: a job of an earlier round that
   * has not sent yet finds it over and sends nothing, so the wait is bounded by the provider's timeout.
   * Past it (a process that died holding jobs: their locks outlive it) the accounts are asked again.
   */
  private async waitForEarlierCalls(
    batchId: string,
    round: number,
    signal: AbortSignal,
    onNotice: ((message: string) => void) | undefined,
  ): Promise<void> {
    const { earlierCalls, clock, logger } = this.deps;
    if (earlierCalls === undefined) return;
    const until = clock.monotonic() + earlierCalls.settledWithinMs;
    let told = false;
    for (;;) {
      const held = await earlierCalls.held(batchId, round);
      if (held === 0) return;
      if (clock.monotonic() >= until) {
        logger.warn(
          { batchId, held },
          `${held} job(s) of the last run of batch ${batchId} are still held by a worker past the provider's timeout: their accounts are asked again`,
        );
        return;
      }
      if (!told)
        onNotice?.(
          `batch ${batchId}: waiting for ${held} call(s) of the last run still on their way (at most ${Math.ceil(earlierCalls.settledWithinMs / 1000)} s): their answers are not paid for again`,
        );
      told = true;
      await clock.sleep(EARLIER_CALLS_POLL_MS, signal);
      // Stopped while waiting: nothing was forgotten yet, and the next start moves to a round of its own.
      signal.throwIfAborted();
    }
  }

  /** `resume` of a batch whose rows were never all stored: read again from its source file, which must be unchanged. */
  private async inspectSource(batch: BatchRecord): Promise<InspectedFile> {
    const inspected = await this.deps.inspect(batch.sourceFile, {});
    if (inspected.file.contentHash !== batch.contentHash) {
      throw new InputFileError(`${batch.sourceFile} changed since batch ${batch.batchId} was made from it: run the current file instead`);
    }
    return { ...inspected, mapping: batch.mapping };
  }
}

/**
 * Which input column is read for each role, and the columns of an earlier report set aside: a line for people
 * (that the decisions written in such a report are not recorded so is a note of its own: fileNotes).
 */
function describeColumns(batch: BatchRecord): string {
  const replaced =
    batch.replacedColumns.length === 0
      ? ''
      : `; the columns of an earlier report (${batch.replacedColumns.join(', ')}) are not read, and this report's own take their place`;
  return `reading ${describeRoles(roleColumns(batch.header, batch.mapping))}${replaced}`;
}

/**
 * A batch that was there when this run took it up and is gone now was lost by Redis (restart without
 * persistence, flush, eviction): a systemic failure, not the user's unknown id.
 */
const vanishedFromRedis = (error: unknown): unknown =>
  error instanceof BatchNotFoundError ? new BatchVanishedError(error.batchId, { cause: error }) : error;

/** The batch's counters as a run found them: what the run adds to them is its own. */
const figuresBefore = (batch: BatchRecord) => ({
  callsBefore: batch.calls,
  rateLimitedBefore: batch.rateLimited,
  usableAnswersBefore: batch.usableAnswers,
});

/** What a start works on: the input resolved, the file inspected when it is read (not for a batch by id). */
interface Target {
  inputPath: string;
  contentHash: string;
  /** The input columns the report repeats. */
  header: string[];
  inspected?: InspectedFile;
  input: BatchInput;
}

/** The input as people know it: the name it was dropped or uploaded under, else its path. */
const shownInput = (target: Target): string =>
  target.input.kind === 'file' && target.input.name !== undefined ? shownFileName(target.input.name) : target.inputPath;

/**
 * A file refused while it was read names it as people know it (a watched folder's inbox name, an upload's
 * name), not by the path this process reads it at (`processing/<claim>-…`, the console's uploads folder):
 * the refusal is for whoever dropped the file. Every reader names the path it was given, so the one place
 * that knows both swaps them.
 */
function namedAsShown(error: unknown, input: BatchInput): unknown {
  if (input.kind !== 'file' || input.name === undefined || !(error instanceof UsageError)) return error;
  const shown = shownFileName(input.name);
  // split/join, not replaceAll: a name holding `$&` or `$'` would be read as a replacement pattern.
  for (const path of new Set([resolve(input.path), input.path])) error.message = error.message.split(path).join(shown);
  return error;
}

/** Production stopped because another process took it over (this one's lease was lost, or its generation replaced). */
const isTakeOver = (error: unknown): boolean => error instanceof ProductionFencedError || error instanceof LeaseLostError;

/**
 * `work`, unless `signal` stops the wait first: then a HandedBackError with `what` (the work itself is left
 * to end on its own). A login that hangs (a provider that never answers it) must not hold a stop, which has
 * SHUTDOWN_TIMEOUT: the batch is handed back as at any other point before its report.
 */
async function untilStopped<T>(work: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) throw new HandedBackError(what);
  let onAbort: () => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new HandedBackError(what));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stopped]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
