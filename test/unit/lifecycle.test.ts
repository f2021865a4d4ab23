import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProductionFencedError } from '../../src/batch/batch-store.js';
import { continuationPolicy, decideContinuation, describeContinuation, RETRY_FAILED_WINDOW_MS } from '../../src/batch/continuation.js';
import { BatchLifecycle, type BatchRequest, type LifecycleDependencies } from '../../src/batch/lifecycle.js';
import type { WrittenReport } from '../../src/batch/report-writer.js';
import { HandedBackError, ProviderUnavailableError, type ProgressReport } from '../../src/batch/settle.js';
import { BatchUnfinishedError, LoginUnavailableError, UsageError, WorkTakenOverError } from '../../src/errors.js';
import { FakeClock, FakeLeases, FakeProducer, FakeStore, inspectedFile, recordingLogger, T0 } from './lifecycle-fakes.js';

const HOUR = 3600_000;
const ACCOUNTS = ['014:0001', '014:0002', '009:0003'];
const COUNTS = { MATCH: 3, CLOSE_MATCH: 0, NO_MATCH: 0, VERIFIED: 0, ACCOUNT_INVALID: 0, INPUT_INVALID: 0, FAILED: 0 };

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'bc-unit-lifecycle-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A lifecycle over fakes; every file of this test has the content `hash-a` and the three accounts above. */
function world(options: Pick<LifecycleDependencies, 'earlierCalls' | 'watchQueueing'> = {}) {
  const clock = new FakeClock();
  const store = new FakeStore(clock);
  const producer = new FakeProducer(store, (inspected) => (inspected as ReturnType<typeof inspectedFile>).accounts);
  const leases = new FakeLeases(clock);
  const { logger, lines } = recordingLogger();
  const calls: string[] = [];
  const login = vi.fn(async (): Promise<void> => void calls.push('login'));
  const settle = vi.fn(async (): Promise<{ kind: 'complete' } | { kind: 'gave_up'; reason: string }> => ({ kind: 'complete' }));
  const writeReport = vi.fn(async () => ({ rows: ACCOUNTS.length, counts: COUNTS }) as WrittenReport);
  const inspect = vi.fn(async (path: string) => inspectedFile(path, 'hash-a', ACCOUNTS));
  const create = store.create.bind(store);
  store.create = async (record) => {
    calls.push('create');
    await create(record);
  };
  const lifecycle = new BatchLifecycle({
    store,
    producer,
    contentLease: (contentHash) => leases.lease(contentHash),
    login,
    settle,
    writeReport,
    inspect,
    queueName: 'inquiries',
    endpoint: { environment: 'sandbox', address: 'http://inquiries.test' },
    ...options,
    clock,
    logger,
  });
  const notices: string[] = [];
  const request = (
    overrides: Partial<BatchRequest> & { policy?: ReturnType<typeof continuationPolicy>; ownBatchId?: string } = {},
  ): BatchRequest & { reportPath: string } => {
    const { policy, ownBatchId, ...rest } = overrides;
    return {
      input: {
        kind: 'file',
        path: join(folder, 'payouts.csv'),
        columns: {},
        policy: policy ?? continuationPolicy(),
        ...(ownBatchId !== undefined && { ownBatchId }),
      },
      reportPath: join(folder, `report-${Math.random().toString(16).slice(2)}.csv`),
      onNotice: (message) => notices.push(message),
      ...rest,
    };
  };
  return { clock, store, producer, leases, lines, calls, login, settle, writeReport, inspect, lifecycle, notices, request };
}

describe('BatchLifecycle.start: new, continue, retry FAILED, reuse', () => {
  it('a new content: logs in before the batch exists, produces it from the inspected file', async () => {
    const w = world();
    const started = await w.lifecycle.start(w.request());
    expect(started.continuation).toEqual({ kind: 'new' });
    expect(w.calls).toEqual(['login', 'create']);
    expect(w.producer.produced).toEqual([{ batchId: started.batchId, signalAborted: false }]);
    expect(w.producer.requeued).toEqual([]);
    expect((await w.store.progress(started.batchId)).accountCount).toBe(3);
    expect(w.notices).toEqual([
      `batch ${started.batchId}`,
      'reading bank code "bank_code", account number "account_number", expected name "name"',
    ]);
    expect(w.leases.holders.size).toBe(0); // released once produced
  });

  it('reports the answers so far each second while the file is still being queued, with the backlog it was given', async () => {
    const w = world();
    let queued!: () => void;
    w.producer.holdUntil = new Promise((resolve) => (queued = resolve));
    const reports: ProgressReport[] = [];
    const backlog = { limit: 1_000, pollMs: 200 };
    const starting = w.lifecycle.start(w.request({ onProgress: (report) => reports.push(report), backlog }));
    await vi.waitFor(() => expect(reports.length).toBeGreaterThan(0), { timeout: 3_000 });
    expect(reports[0]!.progress.produced).toBe(false);
    queued();
    await starting;
    expect(w.producer.backlogs).toEqual([backlog]);
    // No report once the file is queued: the wait reports from there.
    const count = reports.length;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(reports).toHaveLength(count);
  });

  it("the wait's rules run while the file is queued: a provider down past the budget stops production and the start, no row marked", async () => {
    let failQueueing!: (error: Error) => void;
    const watched: string[] = [];
    const w = world({
      watchQueueing: (batchId, signal) =>
        new Promise((_, reject) => {
          watched.push(batchId);
          failQueueing = reject;
          signal.addEventListener('abort', () => reject(new HandedBackError('queued')), { once: true });
        }),
    });
    let queued!: () => void;
    w.producer.holdUntil = new Promise((resolve) => (queued = resolve));
    const starting = w.lifecycle.start(w.request());
    await vi.waitFor(() => expect(w.producer.produced).toHaveLength(1));
    failQueueing(new ProviderUnavailableError('no answer from the provider since 02:00'));
    queued();
    await expect(starting).rejects.toThrow(ProviderUnavailableError);
    const batchId = watched[0]!;
    // Production stopped before storing anything; the batch is left unfinished for the next start.
    expect((await w.store.progress(batchId)).produced).toBe(false);
    expect(w.leases.holders.size).toBe(0);

    // Queued without trouble: the watch ends with the queueing, and the start goes on.
    const calm = world({
      watchQueueing: (_, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new HandedBackError('queued')))),
    });
    await expect(calm.lifecycle.start(calm.request())).resolves.toMatchObject({ continuation: { kind: 'new' } });
  });

  it('a wrong password stops the start before any batch exists', async () => {
    const w = world();
    w.login.mockRejectedValueOnce(new LoginUnavailableError('provider answered HTTP 503'));
    await expect(w.lifecycle.start(w.request())).rejects.toThrow('login failed');
    expect(w.store.batches.size).toBe(0);
    expect(w.producer.produced).toEqual([]);
  });

  it('an unfinished, produced batch of the same content: continued, only unanswered accounts queued', async () => {
    const w = world();
    w.store.seed({ batchId: 'b-earlier', contentHash: 'hash-a', accounts: ACCOUNTS, answered: { '014:0001': 'VERIFIED' } });
    const started = await w.lifecycle.start(w.request());
    expect(started).toMatchObject({ batchId: 'b-earlier', continuation: { kind: 'continue', produce: false, answered: false } });
    expect(w.login).toHaveBeenCalledOnce();
    expect(w.producer.requeued).toEqual(['b-earlier']);
    expect(w.producer.produced).toEqual([]);
    expect(w.notices[0]).toContain('continuing unfinished batch b-earlier');
  });

  it("an unfinished batch whose production stopped half-way: produced again from this run's copy of the content", async () => {
    const w = world();
    w.store.seed({ batchId: 'b-half', contentHash: 'hash-a', accounts: ACCOUNTS, produced: false });
    const started = await w.lifecycle.start(w.request());
    expect(started.continuation).toEqual({ kind: 'continue', batchId: 'b-half', produce: true, answered: false });
    expect(w.producer.produced).toEqual([{ batchId: 'b-half', signalAborted: false }]);
    expect(w.inspect).toHaveBeenCalledOnce(); // this run's inspection, not the source file again
  });

  it('every answer in but no report (a crash while writing it): nothing is asked, and it says so', async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-answered',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED', '014:0002': 'VERIFIED', '009:0003': 'ACCOUNT_INVALID' },
    });
    const started = await w.lifecycle.start(w.request());
    expect(started.continuation).toEqual({ kind: 'continue', batchId: 'b-answered', produce: false, answered: true });
    expect(w.login).not.toHaveBeenCalled();
    expect(w.producer.requeued).toEqual([]);
    expect(w.notices[0]).toBe('continuing batch b-answered: every account is answered, only its report is written; nothing is asked');
  });

  it('a finished batch with FAILED rows, within 12 h: only the FAILED accounts are asked again', async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-failed',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED', '014:0002': 'FAILED', '009:0003': 'FAILED' },
      reportedAt: T0 - HOUR,
    });
    const started = await w.lifecycle.start(w.request());
    expect(started.continuation).toEqual({ kind: 'retry_failed', batchId: 'b-failed', produce: false, reported: true });
    expect(w.store.batch('b-failed').outcomes.size).toBe(1);
    expect(w.store.batch('b-failed').record.reportedAt).toBeUndefined();
    expect(w.producer.requeued).toEqual(['b-failed']);
    expect(w.notices[0]).toContain('its FAILED rows are asked again');
    expect(w.notices[0]).not.toContain('unfinished');
  });

  it('FAILED accounts are asked again once the calls of the last run still on their way have come back, at most the provider timeout', async () => {
    // The run that gave up is still closing, or a `worker` holds a sent call: its answer must land (as a
    // late answer, taken instead of asking) before the accounts are forgotten and queued again.
    const failedSeed = {
      batchId: 'b-failed',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED', '014:0002': 'FAILED', '009:0003': 'FAILED' },
      reportedAt: T0 - HOUR,
    } as const;
    const held = [2, 1, 0];
    const looks: Array<{ round: number; outcomes: number }> = [];
    const w = world({
      earlierCalls: {
        held: async (batchId, round) => {
          looks.push({ round, outcomes: w.store.batch(batchId).outcomes.size });
          return held.shift()!;
        },
        settledWithinMs: 10_000,
      },
    });
    w.store.seed(failedSeed);
    await w.lifecycle.start(w.request());
    // The round moved before the first look; nothing was forgotten while calls were held.
    expect(looks).toEqual([
      { round: 1, outcomes: 3 },
      { round: 1, outcomes: 3 },
      { round: 1, outcomes: 3 },
    ]);
    expect(w.store.batch('b-failed').outcomes.size).toBe(1);
    expect(w.notices).toContain(
      'batch b-failed: waiting for 2 call(s) of the last run still on their way (at most 10 s): their answers are not paid for again',
    );

    // Held past the timeout (a process that died holding its jobs): asked again all the same, saying so.
    const stuck = world({ earlierCalls: { held: async () => 1, settledWithinMs: 1_000 } });
    stuck.store.seed(failedSeed);
    await stuck.lifecycle.start(stuck.request());
    expect(stuck.clock.monotonic()).toBe(1_000);
    expect(stuck.store.batch('b-failed').outcomes.size).toBe(1);
    expect(stuck.lines.some((line) => line.level === 'warn' && String(line.message).includes('past the provider'))).toBe(true);

    // Stopped while waiting (SIGTERM): handed back at once, nothing forgotten; the next start moves on again.
    const stopped = world({ earlierCalls: { held: async () => 1, settledWithinMs: 10_000 } });
    stopped.store.seed(failedSeed);
    const stop = new AbortController();
    stopped.clock.onSleep = () => stop.abort();
    await expect(stopped.lifecycle.start(stopped.request({ signal: stop.signal }))).rejects.toBeInstanceOf(HandedBackError);
    expect(stopped.clock.monotonic()).toBe(250);
    expect(stopped.store.batch('b-failed').outcomes.size).toBe(3);
  });

  it('a finished batch with FAILED rows, older than 12 h, or without FAILED rows: `run` checks the file anew', async () => {
    const old = world();
    old.store.seed({
      batchId: 'b-old',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0002': 'FAILED' },
      reportedAt: T0 - RETRY_FAILED_WINDOW_MS - 1,
    });
    expect((await old.lifecycle.start(old.request())).continuation).toEqual({ kind: 'new' });
    const clean = world();
    clean.store.seed({
      batchId: 'b-clean',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED' },
      reportedAt: T0 - 60_000,
    });
    expect((await clean.lifecycle.start(clean.request())).continuation).toEqual({ kind: 'new' });
  });

  it("the watched folder's duplicate window: a finished batch is reported again, nothing asked", async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-done',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED', '014:0002': 'VERIFIED', '009:0003': 'VERIFIED' },
      reportedAt: T0 - HOUR,
    });
    const started = await w.lifecycle.start(w.request({ policy: continuationPolicy(24 * HOUR) }));
    expect(started.continuation).toEqual({ kind: 'reuse', batchId: 'b-done' });
    expect(w.login).not.toHaveBeenCalled();
    expect(w.producer.requeued).toEqual([]);
  });

  it('an entry point taking up its own batch after a restart continues that batch, even once it is reported', async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-own',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED', '014:0002': 'VERIFIED', '009:0003': 'VERIFIED' },
      reportedAt: T0 - 60_000,
    });
    // The content rules of `run` would start anew (no reuse window): the batch is the entry point's own.
    const started = await w.lifecycle.start(w.request({ ownBatchId: 'b-own' }));
    expect(started).toMatchObject({ batchId: 'b-own', continuation: { kind: 'reuse' } });
    expect(w.store.batches.size).toBe(1);
    expect(w.login).not.toHaveBeenCalled();
    expect(w.inspect).not.toHaveBeenCalled();
  });

  it('an own batch Redis no longer has: the file goes by its content', async () => {
    const w = world();
    const started = await w.lifecycle.start(w.request({ ownBatchId: 'b-expired' }));
    expect(started).toMatchObject({ continuation: { kind: 'new' } });
  });

  it('a batch of the same content at another endpoint is never continued: a new batch asks every account here', async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-sandbox',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED', '014:0002': 'FAILED' },
      reportedAt: T0 - HOUR,
      queueName: 'inquiries-elsewhere',
    });
    w.store.seed({
      batchId: 'b-open',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED' },
      queueName: 'inquiries-third',
    });
    const started = await w.lifecycle.start(w.request());
    expect(started.continuation).toEqual({ kind: 'new' });
    expect(started.batch).toMatchObject({ queueName: 'inquiries', endpoint: { environment: 'sandbox', address: 'http://inquiries.test' } });
    expect(w.producer.produced).toEqual([{ batchId: started.batchId, signalAborted: false }]);
    expect(w.store.batch('b-sandbox').outcomes.size).toBe(2);
  });

  it('an own batch of another endpoint (restarted with another H2H_ENV or address): the file is checked anew here', async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-own',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED' },
      queueName: 'inquiries-elsewhere',
    });
    const started = await w.lifecycle.start(w.request({ ownBatchId: 'b-own' }));
    expect(started.continuation).toEqual({ kind: 'new' });
    expect(w.inspect).toHaveBeenCalledOnce();
  });

  it('resume of a batch of another endpoint is refused (exit 2), naming both, before anything is asked', async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-there',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0002': 'FAILED' },
      reportedAt: T0 - HOUR,
      queueName: 'inquiries-elsewhere',
    });
    const refused = w.lifecycle.start({ input: { kind: 'batch', batchId: 'b-there', retryFailed: true } });
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(
      'batch b-there was checked at sandbox http://inquiries-elsewhere.test, and this process asks sandbox http://inquiries.test',
    );
    expect(w.login).not.toHaveBeenCalled();
    expect(w.producer.requeued).toEqual([]);
  });

  it('resume of a batch by id asks its FAILED accounts again whatever their age', async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-week',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED', '014:0002': 'FAILED', '009:0003': 'VERIFIED' },
      reportedAt: T0 - 7 * 24 * HOUR,
    });
    const started = await w.lifecycle.start({ input: { kind: 'batch', batchId: 'b-week', retryFailed: true } });
    expect(started.continuation).toEqual({ kind: 'retry_failed', batchId: 'b-week', produce: false, reported: true });
    expect(w.producer.requeued).toEqual(['b-week']);
  });

  it('resume of a batch never reported, with FAILED rows: they are asked again, and it is not called finished', async () => {
    const w = world();
    w.store.seed({
      batchId: 'b-open',
      contentHash: 'hash-a',
      accounts: ACCOUNTS,
      answered: { '014:0001': 'VERIFIED', '014:0002': 'FAILED' },
    });
    const started = await w.lifecycle.start({ input: { kind: 'batch', batchId: 'b-open', retryFailed: true } });
    expect(started.continuation).toEqual({ kind: 'retry_failed', batchId: 'b-open', produce: false, reported: false });
    expect(w.producer.requeued).toEqual(['b-open']);
    expect(describeContinuation(started.continuation, 'b-open')).toBe(
      'continuing unfinished batch b-open: its FAILED rows are asked again',
    );
  });

  it('resume of a batch whose reading stopped part-way, with FAILED rows: its file is read to the end and the FAILED asked again', async () => {
    const w = world();
    w.store.seed({ batchId: 'b-cut', contentHash: 'hash-a', accounts: ACCOUNTS, answered: { '014:0002': 'FAILED' }, produced: false });
    const started = await w.lifecycle.start({ input: { kind: 'batch', batchId: 'b-cut', retryFailed: true } });
    expect(started.continuation).toEqual({ kind: 'retry_failed', batchId: 'b-cut', produce: true, reported: false });
    expect(w.store.batch('b-cut').outcomes.size).toBe(0);
    expect(w.producer.produced).toEqual([{ batchId: 'b-cut', signalAborted: false }]);
    expect(w.producer.requeued).toEqual([]);
    expect(describeContinuation(started.continuation, 'b-cut')).toBe(
      'continuing unfinished batch b-cut: the rest of its file is read, and its FAILED rows are asked again',
    );
  });
});

describe('BatchLifecycle.start: one producer per content', () => {
  it('a start while another process holds the content lease waits, says so once, then joins the batch it produced', async () => {
    const w = world();
    w.leases.holdByAnother('inquiries/hash-a');
    w.clock.onSleep = (clock) => {
      if (clock.sleeps === 3) {
        // The other process created and produced the batch meanwhile, then let the lease go.
        w.store.seed({ batchId: 'b-other', contentHash: 'hash-a', accounts: ACCOUNTS, answered: { '014:0001': 'VERIFIED' } });
        w.leases.release('inquiries/hash-a');
      }
    };
    const started = await w.lifecycle.start(w.request());
    expect(started).toMatchObject({ batchId: 'b-other', continuation: { kind: 'continue', produce: false } });
    expect(w.notices.filter((notice) => notice.includes('being produced by another process (pid 4242 on host-b'))).toHaveLength(1);
    expect(w.store.batches.size).toBe(1);
    expect(w.producer.produced).toEqual([]);
    expect(w.producer.requeued).toEqual(['b-other']);
  });

  it('a stop while waiting for the lease hands the start back without deciding anything', async () => {
    const w = world();
    w.leases.holdByAnother('inquiries/hash-a');
    const stop = new AbortController();
    w.clock.onSleep = (clock) => {
      if (clock.sleeps === 2) stop.abort();
    };
    await expect(w.lifecycle.start(w.request({ signal: stop.signal }))).rejects.toBeInstanceOf(HandedBackError);
    expect(w.store.batches.size).toBe(0);
    expect(w.login).not.toHaveBeenCalled();
  });

  it('the lease lost during production: production stops, the start waits for whoever took over, then joins', async () => {
    const w = world();
    w.producer.during = (batchId) => {
      if (w.producer.produced.length > 1) return;
      w.leases.loseCurrent();
      // The process that took over holds the lease and produces the whole batch.
      w.leases.holdByAnother('inquiries/hash-a');
      w.clock.onSleep = (clock) => {
        if (clock.sleeps !== 2) return;
        w.store.markProduced(batchId, ACCOUNTS);
        w.leases.release('inquiries/hash-a');
      };
    };
    const started = await w.lifecycle.start(w.request());
    expect(started.continuation).toMatchObject({ kind: 'continue', produce: false });
    expect(w.producer.produced).toHaveLength(1);
    expect(w.producer.requeued).toEqual([started.batchId]);
    expect(w.lines.some((line) => line.level === 'warn' && String(line.message).includes('took over producing this content'))).toBe(true);
  });

  it('production taken over again and again: gives up with WorkTakenOverError after the retries', async () => {
    const w = world();
    w.producer.during = () => {
      throw new ProductionFencedError('batch is being produced by another process');
    };
    await expect(w.lifecycle.start(w.request())).rejects.toBeInstanceOf(WorkTakenOverError);
    expect(w.producer.produced).toHaveLength(4);
    expect(w.store.batches.size).toBe(1); // one batch, re-produced by each attempt
  });

  it('a lease lost after the decision (this process stalled) writes nothing under it', async () => {
    const w = world();
    w.store.seed({ batchId: 'b-half', contentHash: 'hash-a', accounts: ACCOUNTS, produced: false });
    w.login.mockImplementationOnce(async () => w.leases.loseCurrent());
    const started = await w.lifecycle.start(w.request());
    expect(started.batchId).toBe('b-half');
    // Only the second attempt, under a lease it holds, produced.
    expect(w.producer.produced).toEqual([{ batchId: 'b-half', signalAborted: false }]);
  });
});

describe('BatchLifecycle: finished means reported', () => {
  it('check: settles, writes the report and marks the batch finished; the summary shows this run beside the batch', async () => {
    const w = world();
    w.store.seed({ batchId: 'b-run', contentHash: 'hash-a', accounts: ACCOUNTS, answered: { '014:0001': 'VERIFIED' }, calls: 7 });
    w.settle.mockImplementationOnce(async () => {
      w.clock.current += 12_000;
      w.clock.elapsed += 12_000;
      w.store.answer('b-run', '014:0002');
      w.store.answer('b-run', '009:0003');
      w.store.addCalls('b-run', 2);
      return { kind: 'complete' };
    });
    const request = w.request();
    const checked = await w.lifecycle.check(request, { receivedAs: 'payouts.csv' });
    expect(w.writeReport).toHaveBeenCalledWith('b-run', request.reportPath, undefined, undefined);
    expect(w.store.batch('b-run').record.reportedAt).toBe(T0 + 12_000);
    expect(checked.summary).toMatchObject({
      batchId: 'b-run',
      continued: true,
      continuation: 'continue',
      calls: 2,
      durationSeconds: 12,
      startedAt: new Date(T0).toISOString(),
      batch: { calls: 9, sourceFile: '/data/b-run.csv' },
      sourceFile: join(folder, 'payouts.csv'),
    });
    const written = JSON.parse(await readFile(request.reportPath.replace(/\.csv$/, '.summary.json'), 'utf8'));
    expect(written).toMatchObject({ continued: true, calls: 2, batch: { calls: 9 }, receivedAs: 'payouts.csv' });
  });

  it('report: a batch with accounts still unanswered is not marked finished (the next start continues it)', async () => {
    const w = world();
    w.store.seed({ batchId: 'b-partial', contentHash: 'hash-a', accounts: ACCOUNTS, answered: { '014:0001': 'VERIFIED' } });
    const started = await w.lifecycle.start(w.request());
    await w.lifecycle.report(started, join(folder, 'partial.csv'));
    expect(w.store.batch('b-partial').record.reportedAt).toBeUndefined();
  });

  it('check: the provider down past the budget: the report is written with the reason (its rows FAILED by settle)', async () => {
    const w = world();
    w.settle.mockResolvedValueOnce({ kind: 'gave_up', reason: 'no answer from the provider since 02:00' });
    const checked = await w.lifecycle.check(w.request());
    expect(checked.gaveUp).toBe('no answer from the provider since 02:00');
    expect(checked.summary.incomplete).toBe('no answer from the provider since 02:00');
    expect(w.writeReport).toHaveBeenCalledOnce();
  });

  it('check: a run whose calls got no usable answer is a systemic failure, the report written with the reason', async () => {
    const w = world();
    w.store.seed({ batchId: 'b-html', contentHash: 'hash-a', accounts: ACCOUNTS, answered: { '014:0001': 'VERIFIED' } });
    w.settle.mockImplementationOnce(async () => {
      w.store.answer(
        'b-html',
        '014:0002',
        'FAILED',
        'no answer after 2 attempt(s): provider answered HTTP 200 with a body that is not JSON (text/html)',
      );
      w.store.answer(
        'b-html',
        '009:0003',
        'FAILED',
        'no answer after 2 attempt(s): provider answered HTTP 200 with a body that is not JSON (text/html)',
      );
      w.store.addCalls('b-html', 4);
      return { kind: 'complete' };
    });
    const checked = await w.lifecycle.check(w.request());
    expect(checked.gaveUp).toBe(
      'the provider gave no usable answer: none of the 4 calls of this run was answered in its protocol (a FAILED row says: no answer after 2 attempt(s): provider answered HTTP 200 with a body that is not JSON (text/html))',
    );
    expect(checked.summary.incomplete).toBe(checked.gaveUp);
    expect(w.writeReport).toHaveBeenCalledOnce();
  });

  it('check: one usable answer among FAILED ones, or no call at all, is no systemic failure', async () => {
    const w = world();
    w.settle.mockImplementationOnce(async () => {
      const [batch] = w.store.batches.values();
      w.store.answer(batch!.record.batchId, '014:0001', 'ACCOUNT_INVALID');
      w.store.answer(batch!.record.batchId, '014:0002', 'FAILED');
      w.store.answer(batch!.record.batchId, '009:0003', 'FAILED');
      w.store.addCalls(batch!.record.batchId, 3);
      return { kind: 'complete' };
    });
    expect((await w.lifecycle.check(w.request())).gaveUp).toBeUndefined();
    // The same content again: every account answered already, nothing asked.
    expect((await w.lifecycle.check(w.request())).gaveUp).toBeUndefined();
  });

  it('check: login trouble out of settle writes no report and leaves the batch unfinished', async () => {
    const w = world();
    w.settle.mockRejectedValueOnce(new LoginUnavailableError('no login possible since 02:00'));
    const request = w.request();
    await expect(w.lifecycle.check(request)).rejects.toBeInstanceOf(LoginUnavailableError);
    expect(w.writeReport).not.toHaveBeenCalled();
    const [batch] = w.store.batches.values();
    expect(batch!.record.reportedAt).toBeUndefined();
  });

  it('export refuses a batch whose answers are not all in, and writes a finished one asking nothing', async () => {
    const w = world();
    w.store.seed({ batchId: 'b-open', contentHash: 'hash-a', accounts: ACCOUNTS, answered: { '014:0001': 'VERIFIED' } });
    await expect(w.lifecycle.export('b-open', join(folder, 'open.csv'))).rejects.toThrow(BatchUnfinishedError);
    await expect(w.lifecycle.export('b-open', join(folder, 'open.csv'))).rejects.toThrow('1/3 accounts answered');
    expect(w.writeReport).not.toHaveBeenCalled();

    w.store.answer('b-open', '014:0002');
    w.store.answer('b-open', '009:0003');
    const summary = await w.lifecycle.export('b-open', join(folder, 'open.csv'));
    expect(summary).toMatchObject({ continuation: 'reuse', calls: 0 });
    expect(w.store.batch('b-open').record.reportedAt).toBe(T0);
    expect(w.login).not.toHaveBeenCalled();
  });
});

describe('decideContinuation (values in, a decision out)', () => {
  const policy = continuationPolicy(24 * HOUR);
  const earlier = {
    batchId: 'b1',
    endpoint: 'inquiries-sandbox-a',
    produced: true,
    answered: false,
    reportedAt: undefined as number | undefined,
    failedAccounts: 0,
  };
  it.each([
    ['nothing earlier', undefined, { kind: 'new' }],
    ['unfinished, not produced', { ...earlier, produced: false }, { kind: 'continue', batchId: 'b1', produce: true, answered: false }],
    ['answered, not reported', { ...earlier, answered: true }, { kind: 'continue', batchId: 'b1', produce: false, answered: true }],
    [
      'reported with FAILED, 1 h ago',
      { ...earlier, reportedAt: T0 - HOUR, failedAccounts: 2 },
      { kind: 'retry_failed', batchId: 'b1', produce: false, reported: true },
    ],
    ['reported with FAILED, 13 h ago', { ...earlier, reportedAt: T0 - 13 * HOUR, failedAccounts: 2 }, { kind: 'new' }],
    ['reported clean, within the duplicate window', { ...earlier, reportedAt: T0 - HOUR }, { kind: 'reuse', batchId: 'b1' }],
    ['reported clean, past the duplicate window', { ...earlier, reportedAt: T0 - 25 * HOUR }, { kind: 'new' }],
    ['unfinished, of another endpoint', { ...earlier, endpoint: 'inquiries-production-b' }, { kind: 'new' }],
    [
      'reported with FAILED, 1 h ago, at another endpoint',
      { ...earlier, endpoint: 'inquiries-production-b', reportedAt: T0 - HOUR, failedAccounts: 2 },
      { kind: 'new' },
    ],
    [
      'reported clean, within the duplicate window, at another endpoint',
      { ...earlier, endpoint: 'inquiries-sandbox-c', reportedAt: T0 - HOUR },
      { kind: 'new' },
    ],
  ])('%s', (_, input, expected) => {
    expect(decideContinuation(input, 'inquiries-sandbox-a', policy, T0)).toEqual(expected);
  });
});
