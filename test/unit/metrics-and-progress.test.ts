import { DEFAULT_NAME_MATCHING } from '../../src/matching/compare-names.js';
import { describe, expect, it } from 'vitest';
import { RowTally } from '../../src/batch/row-tally.js';
import type { StoredRow } from '../../src/batch/batch-store.js';
import type { ProgressReport } from '../../src/batch/settle.js';
import { parseFailOn } from '../../src/cli/commands.js';
import { fitToWidth, progressText } from '../../src/cli/progress.js';
import { UsageError } from '../../src/errors.js';
import { createMetrics, mergeExpositions } from '../../src/metrics/metrics.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';

describe('metrics', () => {
  it('counts what the callbacks report', async () => {
    const metrics = createMetrics();
    metrics.rowsReported({ MATCH: 3, NO_MATCH: 1 });
    metrics.inquiryCall();
    metrics.inquiryCall();
    metrics.tokenRefresh('refused');
    let open = false;
    metrics.watchBreaker(() => open);
    let inFlight = 16;
    metrics.watchConcurrency(() => inFlight);
    metrics.watchConcurrency(() => 8);
    inFlight = 63;
    const ended = metrics.batchRunning();
    open = true;
    const text = await metrics.registry.metrics();
    expect(text).toContain('beneficiary_check_rows_total{result="MATCH"} 3');
    expect(text).toContain('beneficiary_check_inquiry_calls_total 2');
    expect(text).toContain('beneficiary_check_token_refreshes_total{reason="refused"} 1');
    expect(text).toContain('beneficiary_check_circuit_breaker_open 1');
    expect(text).toContain('beneficiary_check_batches_running 1');
    expect(text).toContain('beneficiary_check_inquiry_concurrency 71');
    ended();
    ended();
    expect(await metrics.registry.metrics()).toContain('beneficiary_check_batches_running 0');
  });

  it('merges expositions with one HELP and TYPE per family', () => {
    const queue = (name: string) => `# HELP bullmq_job_count Jobs\n# TYPE bullmq_job_count gauge\nbullmq_job_count{queue="${name}"} 1`;
    const merged = mergeExpositions(['# HELP h x\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', queue('a'), queue('b')]);
    expect(merged).toBe(
      '# HELP h x\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n# HELP bullmq_job_count Jobs\n# TYPE bullmq_job_count gauge\nbullmq_job_count{queue="a"} 1\nbullmq_job_count{queue="b"} 1\n',
    );
  });
});

describe('the running tally of results', () => {
  const verified = (holderName: string): InquiryOutcome => ({ verdict: 'VERIFIED', reason: '', holderName });
  const row = (account: string, name: string): StoredRow => ({
    fields: ['014', account, name],
    accountKey: `014:${account}`,
    invalidReason: null,
  });

  it('counts answered rows once, waits for the rest, and ends equal to the report', async () => {
    const rows: StoredRow[] = [
      row('1111111', 'Budi Santoso'),
      row('2222222', 'Agus Salim'),
      { fields: ['', 'x', 'n'], accountKey: null, invalidReason: 'bank code is empty' },
      row('1111111', 'Somebody Else'),
    ];
    const outcomes = new Map<string, InquiryOutcome>();
    let rowsRead = 0;
    const store = {
      readRows: async (_batchId: string, start: number, count: number) => {
        const slice = rows.slice(start, start + count);
        rowsRead += slice.length;
        return slice;
      },
      getOutcomes: async (_batchId: string, keys: string[]) => {
        largestLookup = Math.max(largestLookup, keys.length);
        return new Map(keys.flatMap((key) => (outcomes.has(key) ? [[key, outcomes.get(key)!] as const] : [])));
      },
    };
    let largestLookup = 0;
    const tally = new RowTally(
      store,
      { batchId: 'b', mapping: { bankCode: 0, accountNumber: 1, expectedName: 2 } },
      DEFAULT_NAME_MATCHING,
      { window: 2, maxPending: 10, step: 1 },
    );

    expect(await tally.advance()).toMatchObject({ MATCH: 0, FAILED: 0 });
    outcomes.set('014:1111111', verified('BUDI SANTOSO'));
    expect(await tally.advance()).toMatchObject({ MATCH: 1, NO_MATCH: 1, INPUT_INVALID: 1 });
    outcomes.set('014:2222222', { verdict: 'FAILED', reason: 'no answer' });
    expect(await tally.advance()).toMatchObject({ MATCH: 1, NO_MATCH: 1, INPUT_INVALID: 1, FAILED: 1 });
    expect(await tally.advance()).toMatchObject({ MATCH: 1, NO_MATCH: 1, INPUT_INVALID: 1, FAILED: 1 });
    // Every row was read from the store once, whatever the number of advances, a step at a time.
    expect(rowsRead).toBe(rows.length);
    expect(largestLookup).toBe(1);
  });
});

describe('command line', () => {
  it('validates --fail-on', () => {
    expect(parseFailOn('failed, NO_MATCH')).toEqual(['FAILED', 'NO_MATCH']);
    expect(parseFailOn(undefined)).toEqual([]);
    expect(() => parseFailOn('FAILED,MISMATCH')).toThrow(UsageError);
    expect(() => parseFailOn(',')).toThrow(UsageError);
  });

  it('fits the progress line to the terminal and shows the counts so far', () => {
    const report: ProgressReport = {
      batchId: 'b20261121-065203-3f9a1c',
      progress: { rowCount: 10, accountCount: 10, answered: 5, produced: true, complete: false, reported: false, round: 0 },
      answeredPerSecond: 2.5,
      waitingFor: undefined,
    };
    const line = progressText(report, { NO_MATCH: 1, FAILED: 2 });
    expect(line).toBe('b20261121-065203-3f9a1c: 5/10 answered (50%), so far 1 NO_MATCH 2 FAILED, 2.5/s, about 2s left');
    expect(fitToWidth(line, 40)).toHaveLength(39);
    expect(fitToWidth(line, 200)).toBe(line);
  });
});
