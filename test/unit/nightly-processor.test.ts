import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNightlyRunProcessor } from '../../jobs/nightly-run.js';
import { continuationPolicy } from '../../src/batch/continuation.js';
import type { BatchRequest, CheckedBatch, StartedBatch } from '../../src/batch/lifecycle.js';
import { HandedBackError } from '../../src/batch/settle.js';
import { LoginUnavailableError } from '../../src/errors.js';
import { LeaseLostError, type LeaseHolder } from '../../src/redis/lease.js';
import type { NightlyRunJobData, RunRecord } from '../../src/schedule/scheduler.js';
import { recordingLogger } from './lifecycle-fakes.js';

let exports: string;
beforeAll(async () => {
  exports = await mkdtemp(join(tmpdir(), 'bc-unit-nightly-'));
  await writeFile(join(exports, 'beneficiaries.csv'), 'bank_code,account_number,name\n014,0012345678,Budi\n');
  await utimes(join(exports, 'beneficiaries.csv'), new Date('2026-11-21T10:00:00Z'), new Date('2026-11-21T10:00:00Z'));
});
afterAll(async () => {
  await rm(exports, { recursive: true, force: true });
});

const DUE = Date.UTC(2026, 10, 21, 19, 0, 0); // 02:00 in Asia/Jakarta

function nightlyJob(data: Partial<NightlyRunJobData> = {}) {
  const job = {
    id: 'repeat:nightly:1',
    timestamp: DUE,
    opts: {},
    data: { source: exports, outbox: join(exports, 'outbox'), ...data } as NightlyRunJobData,
    updateData: vi.fn(async (next: NightlyRunJobData) => void (job.data = next)),
    moveToWait: vi.fn(async () => undefined),
  };
  return job;
}

/** A run lease: free, or held by another run; `lose()` takes it away mid-run. */
function fakeRunLease(heldBy?: LeaseHolder) {
  const lost = new AbortController();
  let onLost: ((error: LeaseLostError) => void) | undefined;
  return {
    acquire: vi.fn(async () => heldBy),
    keepAlive: vi.fn((callback?: (error: LeaseLostError) => void) => void (onLost = callback)),
    signal: lost.signal,
    release: vi.fn(async () => undefined),
    abandon: vi.fn(),
    lose() {
      const error = new LeaseLostError('lease schedule:lock was taken over by another process after it expired');
      lost.abort(error);
      onLost?.(error);
    },
  };
}

const checked = (batchId: string, reportPath: string): CheckedBatch => {
  const counts = { MATCH: 1, CLOSE_MATCH: 0, NO_MATCH: 0, VERIFIED: 0, ACCOUNT_INVALID: 0, INPUT_INVALID: 0, FAILED: 0 };
  return {
    batchId,
    continuation: { kind: 'new' },
    run: {} as StartedBatch['run'],
    batch: {} as StartedBatch['batch'],
    gaveUp: undefined,
    summary: { batchId, rows: 1, counts, report: reportPath } as CheckedBatch['summary'],
  };
};

function world(lease = fakeRunLease()) {
  const runs: RunRecord[] = [];
  const requests: BatchRequest[] = [];
  const check = vi.fn(async (request: BatchRequest & { reportPath: string }): Promise<CheckedBatch> => {
    requests.push(request);
    await request.onStarted?.({ batchId: 'b-night' } as StartedBatch);
    return checked('b-night', request.reportPath);
  });
  const { logger, lines } = recordingLogger();
  const processor = createNightlyRunProcessor({
    lifecycle: { check },
    runLease: () => lease,
    history: { record: async (run: RunRecord) => void runs.push(run), recent: async () => runs } as never,
    columns: {},
    policy: continuationPolicy(),
    stableMs: 0,
    timeZone: 'Asia/Jakarta',
    outputFormat: 'csv',
    handBack: new AbortController().signal,
    logger,
  });
  const run = (job: ReturnType<typeof nightlyJob>) => processor(job as unknown as Job<NightlyRunJobData>, 'token');
  return { run, check, requests, runs, lease, lines };
}

describe('the nightly run processor (jobs/nightly-run.ts)', () => {
  it('skips a run while another run holds the lease, saying which', async () => {
    const w = world(
      fakeRunLease({ owner: 'run:repeat:nightly:0', host: 'host-b', pid: 7, since: DUE - 86_400_000, jobId: 'repeat:nightly:0' }),
    );
    const result = await w.run(nightlyJob());
    expect(result.status).toBe('skipped');
    expect(result.reason).toContain('previous run repeat:nightly:0');
    expect(w.check).not.toHaveBeenCalled();
    expect(w.runs.map((run) => run.status)).toEqual(['skipped']);
  });

  it('checks the newest export through the lifecycle, pinning the file, the report and then the batch', async () => {
    const w = world();
    const job = nightlyJob();
    const result = await w.run(job);
    const reportPath = join(exports, 'outbox', 'beneficiaries.20261122-020000.reconciled.csv');
    expect(result).toEqual({ status: 'completed', batchId: 'b-night', report: reportPath });
    expect(w.requests[0]!.input).toMatchObject({ kind: 'file', path: join(exports, 'beneficiaries.csv') });
    expect(job.data.pinned).toEqual({ sourceFile: join(exports, 'beneficiaries.csv'), reportPath, batchId: 'b-night' });
    expect(w.runs.map((run) => run.status)).toEqual(['completed']);
    expect(w.lease.release).toHaveBeenCalledOnce();
  });

  it('a run taken up again after a crash continues its own batch, even once reported (no second batch, nothing asked twice)', async () => {
    const w = world();
    const reportPath = join(exports, 'outbox', 'beneficiaries.20261122-020000.reconciled.csv');
    await w.run(nightlyJob({ pinned: { sourceFile: join(exports, 'beneficiaries.csv'), reportPath, batchId: 'b-night' } }));
    expect(w.requests[0]!.input).toMatchObject({ kind: 'file', ownBatchId: 'b-night' });
  });

  it('a lost lease hands the run back to the queue: not released, not failed', async () => {
    const lease = fakeRunLease();
    const w = world(lease);
    w.check.mockImplementationOnce(async (request) => {
      lease.lose();
      expect(request.signal?.aborted).toBe(true);
      throw new HandedBackError('stopped');
    });
    const job = nightlyJob();
    await expect(w.run(job)).rejects.toBeInstanceOf(WaitingError);
    expect(job.moveToWait).toHaveBeenCalledWith('token');
    expect(lease.abandon).toHaveBeenCalledOnce();
    expect(lease.release).not.toHaveBeenCalled();
    expect(w.runs).toEqual([]);
    expect(w.lines.some((line) => line.level === 'error' && String(line.message).includes('handing the nightly run back'))).toBe(true);
  });

  it('no export: failed at once, not retried', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'bc-unit-nightly-empty-'));
    const w = world();
    await expect(w.run(nightlyJob({ source: empty }))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(w.runs.map((run) => [run.status, run.reason])).toEqual([['failed', `no CSV export in ${empty}`]]);
    await rm(empty, { recursive: true, force: true });
  });

  it('a passing failure (login) fails the attempt for the queue to retry (3 attempts), recorded', async () => {
    const w = world();
    w.check.mockRejectedValueOnce(new LoginUnavailableError('no login possible since 02:00'));
    await expect(w.run(nightlyJob())).rejects.toBeInstanceOf(LoginUnavailableError);
    expect(w.runs.map((run) => run.status)).toEqual(['failed']);
    expect(w.lease.release).toHaveBeenCalledOnce();
  });
});
