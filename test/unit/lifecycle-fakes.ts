/**
 * Fakes for the unit tests of the batch lifecycle, the settle loop and the job processors: an in-memory
 * batch store and producer, content leases another "process" can hold or take, a clock that only moves
 * when something sleeps, and a logger that records. No Redis, no network, no timers.
 */
import type { vi } from 'vitest';
import { contentAtEndpoint, type BatchProgress, type BatchRecord, type NewBatch } from '../../src/batch/batch-store.js';
import type { ContentLease, LifecycleDependencies } from '../../src/batch/lifecycle.js';
import type { Backlog } from '../../src/batch/backlog.js';
import type { InspectedFile } from '../../src/batch/producer.js';
import type { Clock } from '../../src/clock/clock.js';
import type { Logger } from '../../src/logging/logger.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';
import { LeaseLostError, type LeaseHolder } from '../../src/redis/lease.js';
import { BatchNotFoundError } from '../../src/errors.js';

export const T0 = Date.UTC(2026, 10, 22, 2, 0, 0);

/**
 * A clock that stands still until something sleeps; every sleep moves it on and lets `onSleep` act (another
 * process, workers). `stepWall` moves the wall clock alone, as an operator or NTP stepping it does.
 */
export class FakeClock implements Clock {
  current = T0;
  elapsed = 0;
  sleeps = 0;
  onSleep: ((clock: FakeClock) => void | Promise<void>) | undefined;

  now(): number {
    return this.current;
  }

  monotonic(): number {
    return this.elapsed;
  }

  stepWall(ms: number): void {
    this.current += ms;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    this.current += ms;
    this.elapsed += ms;
    this.sleeps += 1;
    await this.onSleep?.(this);
  }
}

export interface RecordingLogger {
  logger: Logger;
  lines: Array<{ level: string; fields: unknown; message: unknown }>;
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  const at =
    (level: string) =>
    (fields: unknown, message?: unknown): void =>
      void lines.push(typeof fields === 'string' ? { level, fields: {}, message: fields } : { level, fields, message });
  const logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace'), fatal: at('fatal') };
  return { logger: logger as unknown as Logger, lines };
}

/** A batch of this store: its record, its accounts as produced, its outcomes. */
interface StoredBatch {
  record: BatchRecord;
  accounts: string[];
  outcomes: Map<string, InquiryOutcome>;
}

/** The part of BatchStore the lifecycle uses, in memory. */
export class FakeStore {
  readonly batches = new Map<string, StoredBatch>();
  readonly byContent = new Map<string, string>();

  constructor(private readonly clock: FakeClock) {}

  async get(batchId: string): Promise<BatchRecord> {
    const stored = this.batches.get(batchId);
    if (stored === undefined) throw new BatchNotFoundError(batchId);
    return { ...stored.record };
  }

  async create(record: NewBatch): Promise<void> {
    this.batches.set(record.batchId, {
      record: {
        ...record,
        throwAwayQueue: record.throwAwayQueue ?? false,
        sheets: record.sheets,
        accountsPerJob: record.accountsPerJob ?? 1,
        producedAt: undefined,
        accountCount: 0,
        invalidCount: 0,
        calls: 0,
        rateLimited: 0,
        internalErrors: 0,
        usableAnswers: 0,
        generation: 0,
        round: 0,
        reportedAt: undefined,
        lastReport: undefined,
        reportCounts: undefined,
      },
      accounts: [],
      outcomes: new Map(),
    });
    this.byContent.set(contentAtEndpoint(record.queueName, record.contentHash), record.batchId);
  }

  async latestByContent(queueName: string, contentHash: string): Promise<string | undefined> {
    const batchId = this.byContent.get(contentAtEndpoint(queueName, contentHash));
    return batchId !== undefined && this.batches.has(batchId) ? batchId : undefined;
  }

  async progress(batchId: string): Promise<BatchProgress> {
    const { record, outcomes } = this.batch(batchId);
    const produced = record.producedAt !== undefined;
    return {
      rowCount: record.rowCount,
      accountCount: record.accountCount,
      answered: outcomes.size,
      produced,
      complete: produced && outcomes.size >= record.accountCount,
      reported: record.reportedAt !== undefined,
      round: record.round,
    };
  }

  async countFailedOutcomes(batchId: string): Promise<number> {
    return [...this.batch(batchId).outcomes.values()].filter((outcome) => outcome.verdict === 'FAILED').length;
  }

  async *failedAccounts(batchId: string): AsyncGenerator<string[]> {
    const failed = [...this.batch(batchId).outcomes].filter(([, outcome]) => outcome.verdict === 'FAILED').map(([account]) => account);
    if (failed.length > 0) yield failed;
  }

  async getOutcomes(batchId: string, accountKeys: string[]): Promise<Map<string, InquiryOutcome>> {
    const { outcomes } = this.batch(batchId);
    return new Map(accountKeys.flatMap((account) => (outcomes.has(account) ? [[account, outcomes.get(account)!] as const] : [])));
  }

  async nextRound(batchId: string): Promise<number> {
    const stored = this.batch(batchId);
    stored.record = { ...stored.record, round: stored.record.round + 1 };
    return stored.record.round;
  }

  async forgetFailedOutcomes(batchId: string): Promise<{ forgotten: number; lateAnswers: number }> {
    const stored = this.batch(batchId);
    let forgotten = 0;
    for (const [account, outcome] of stored.outcomes) {
      if (outcome.verdict !== 'FAILED') continue;
      stored.outcomes.delete(account);
      forgotten += 1;
    }
    if (forgotten > 0) stored.record = { ...stored.record, reportedAt: undefined };
    return { forgotten, lateAnswers: 0 };
  }

  /** Undefined: as for a batch finished already (these tests follow no completion notice). */
  async markReported(batchId: string, reportPath: string): Promise<number | undefined> {
    const stored = this.batch(batchId);
    stored.record = { ...stored.record, reportedAt: this.clock.now(), lastReport: reportPath };
    return undefined;
  }

  /** A batch as another process (or an earlier run) left it. */
  seed(options: {
    batchId: string;
    contentHash: string;
    accounts: string[];
    produced?: boolean;
    answered?: Record<string, InquiryOutcome['verdict']>;
    reportedAt?: number;
    calls?: number;
    sourceFile?: string;
    /** The endpoint it was checked at; this fake's lifecycle's own (`inquiries`) by default. */
    queueName?: string;
  }): void {
    void this.create({
      batchId: options.batchId,
      sourceFile: options.sourceFile ?? `/data/${options.batchId}.csv`,
      sourceName: `${options.batchId}.csv`,
      contentHash: options.contentHash,
      queueName: options.queueName ?? 'inquiries',
      endpoint: { environment: 'sandbox', address: `http://${options.queueName ?? 'inquiries'}.test` },
      layout: { delimiter: ',' },
      header: ['bank_code', 'account_number', 'name'],
      mapping: { bankCode: 0, accountNumber: 1, expectedName: 2 },
      replacedColumns: [],
      rowCount: options.accounts.length,
      createdAt: this.clock.now(),
    });
    const stored = this.batch(options.batchId);
    if (options.produced !== false) this.markProduced(options.batchId, options.accounts);
    for (const [account, verdict] of Object.entries(options.answered ?? {})) stored.outcomes.set(account, { verdict, reason: '' });
    stored.record = { ...stored.record, reportedAt: options.reportedAt, calls: options.calls ?? 0 };
  }

  markProduced(batchId: string, accounts: string[]): void {
    const stored = this.batch(batchId);
    stored.accounts = accounts;
    stored.record = { ...stored.record, producedAt: this.clock.now(), accountCount: accounts.length };
  }

  /** A worker's answer; a FAILED one here is a call that got no usable answer (retries exhausted, say), as the inquiry job counts it. */
  answer(
    batchId: string,
    account: string,
    verdict: InquiryOutcome['verdict'] = 'VERIFIED',
    reason = verdict === 'FAILED' ? 'no answer' : '',
  ): void {
    const stored = this.batch(batchId);
    stored.outcomes.set(account, { verdict, reason });
    if (verdict !== 'FAILED') stored.record = { ...stored.record, usableAnswers: stored.record.usableAnswers + 1 };
  }

  addCalls(batchId: string, calls: number): void {
    const stored = this.batch(batchId);
    stored.record = { ...stored.record, calls: stored.record.calls + calls };
  }

  batch(batchId: string): StoredBatch {
    const stored = this.batches.get(batchId);
    if (stored === undefined) throw new BatchNotFoundError(batchId);
    return stored;
  }
}

/** The producer: stores the accounts of the inspected file; `failNext` makes the next production fail as a taken-over one would. */
export class FakeProducer {
  readonly produced: Array<{ batchId: string; signalAborted: boolean }> = [];
  readonly requeued: string[] = [];
  /** Called inside produce, before anything is stored: a test loses the lease or fences the producer here. */
  during: ((batchId: string, signal: AbortSignal | undefined) => void) | undefined;

  constructor(
    private readonly store: FakeStore,
    private readonly accountsOf: (inspected: InspectedFile) => string[],
  ) {}

  /** The backlog each production was given (undefined: the producer's own). */
  readonly backlogs: Array<Backlog | undefined> = [];
  /** Production waits for this (a file still being queued) before it stores anything. */
  holdUntil: Promise<void> | undefined;

  async produce(batchId: string, inspected: InspectedFile, signal?: AbortSignal, backlog?: Backlog): Promise<void> {
    this.produced.push({ batchId, signalAborted: signal?.aborted ?? false });
    this.backlogs.push(backlog);
    await this.holdUntil;
    this.during?.(batchId, signal);
    signal?.throwIfAborted();
    this.store.markProduced(batchId, this.accountsOf(inspected));
  }

  async requeueUnanswered(batchId: string): Promise<number> {
    this.requeued.push(batchId);
    const stored = this.store.batch(batchId);
    return stored.accounts.filter((account) => !stored.outcomes.has(account)).length;
  }
}

const otherHolder = (since: number): LeaseHolder => ({ owner: 'other', host: 'host-b', pid: 4242, since });

/** Content leases: one holder per content; a test can let "another process" hold one, or take it from us. */
export class FakeLeases {
  readonly holders = new Map<string, string>();
  private current: { lease: ContentLease; lose: () => void } | undefined;
  private counter = 0;

  constructor(private readonly clock: FakeClock) {}

  holdByAnother(contentHash: string): void {
    this.holders.set(contentHash, 'other');
  }

  release(contentHash: string): void {
    this.holders.delete(contentHash);
  }

  /** The lease this process holds now is lost (taken over after it expired): its signal aborts, `onLost` is told. */
  loseCurrent(): void {
    this.current?.lose();
  }

  lease(contentHash: string): ContentLease {
    const owner = `us-${(this.counter += 1)}`;
    const lost = new AbortController();
    let onLost: ((error: LeaseLostError) => void) | undefined;
    const lease: ContentLease = {
      acquireWhenFree: async ({ pollMs, signal, onHeld }) => {
        for (;;) {
          if (signal?.aborted) return false;
          const holder = this.holders.get(contentHash);
          if (holder === undefined) {
            this.holders.set(contentHash, owner);
            this.current = { lease, lose };
            return true;
          }
          onHeld?.(otherHolder(this.clock.now()));
          await this.clock.sleep(pollMs, signal);
        }
      },
      keepAlive: (callback) => void (onLost = callback),
      signal: lost.signal,
      release: async () => {
        if (this.holders.get(contentHash) === owner) this.holders.delete(contentHash);
      },
    };
    const lose = () => {
      const error = new LeaseLostError(`lease content:${contentHash} was taken over by another process after it expired`);
      if (this.holders.get(contentHash) === owner) this.holders.delete(contentHash);
      lost.abort(error);
      onLost?.(error);
    };
    return lease;
  }
}

/** An inspected file whose content hash and accounts the test chooses. */
export function inspectedFile(path: string, contentHash: string, accounts: string[]): InspectedFile & { accounts: string[] } {
  return {
    file: {
      path,
      header: ['bank_code', 'account_number', 'name'],
      rowCount: accounts.length,
      contentHash,
      kind: 'csv',
      delimiter: ',',
      encoding: 'utf-8',
    },
    header: ['bank_code', 'account_number', 'name'],
    positions: [0, 1, 2],
    replaced: [],
    mapping: { bankCode: 0, accountNumber: 1, expectedName: 2 },
    accounts,
  };
}

export type FakeLifecycleDependencies = LifecycleDependencies & {
  store: FakeStore;
  producer: FakeProducer;
  clock: FakeClock;
  login: ReturnType<typeof vi.fn>;
  settle: ReturnType<typeof vi.fn>;
  writeReport: ReturnType<typeof vi.fn>;
  inspect: ReturnType<typeof vi.fn>;
};
