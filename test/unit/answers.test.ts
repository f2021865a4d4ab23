import { describe, expect, it } from 'vitest';
import type { HistoryEntry, PreviousAnswer } from '../../src/history/account-history.js';
import { answerRecorder, answerReuser, type AnswerDependencies } from '../../src/history/answers.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';
import { changesPathFor } from '../../src/batch/output-path.js';
import { summaryPathFor } from '../../src/batch/summary.js';
import { loadConfig, reuseAge } from '../../src/config/index.js';

const NOW = 1_800_000_000_000;
const HOUR = 3600_000;
const valid: InquiryOutcome = { verdict: 'VERIFIED', reason: '', holderName: 'BUDI SANTOSO', inquiryStatus: 'SUCCESS' };

/** In-memory history and batch outcomes, recording the order of the writes. */
function fakes(history: Record<string, HistoryEntry> = {}) {
  const writes: string[] = [];
  const snapshots = new Map<string, PreviousAnswer>();
  const outcomes = new Map<string, InquiryOutcome>();
  // As BatchStore.writeAnswer: the outcome and its snapshot are stored together, the first time only.
  const deps: AnswerDependencies = {
    endpoint: 'inquiries-sandbox-abc',
    now: () => NOW,
    history: {
      getMany: async (endpoint, keys) => {
        expect(endpoint).toBe('inquiries-sandbox-abc');
        return new Map(keys.filter((key) => history[key] !== undefined).map((key) => [key, history[key]!]));
      },
      record: async (_endpoint, key, entry) => {
        writes.push(`history ${key}`);
        history[key] = entry;
      },
    },
    writeAnswer: async (batchId, key, outcome, previous) => {
      writes.push(`outcome ${key}`);
      if (outcomes.has(`${batchId}/${key}`)) return false;
      outcomes.set(`${batchId}/${key}`, outcome);
      if (previous !== undefined) snapshots.set(`${batchId}/${key}`, previous);
      return true;
    },
  };
  return { deps, writes, snapshots, outcomes, history };
}

const earlier = (hoursAgo: number, outcome: InquiryOutcome = valid): HistoryEntry => ({
  outcome: outcome as HistoryEntry['outcome'],
  batchId: 'b-old',
  answeredAt: NOW - hoursAgo * HOUR,
  result: 'MATCH',
});

describe('answerRecorder', () => {
  it('stores the outcome with what the history said, then makes it the history', async () => {
    const state = fakes({ '014:001': earlier(30) });
    expect(await answerRecorder(state.deps)('b-new', '014:001', valid)).toBe(true);
    expect(state.writes).toEqual(['outcome 014:001', 'history 014:001']);
    expect(state.snapshots.get('b-new/014:001')).toEqual({ entry: earlier(30), reused: false });
    expect(state.history['014:001']).toEqual({ outcome: valid, batchId: 'b-new', answeredAt: NOW });
  });

  it('snapshots "nothing before" for a first answer', async () => {
    const state = fakes();
    await answerRecorder(state.deps)('b-new', '014:002', { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account not found' });
    expect(state.snapshots.get('b-new/014:002')).toEqual({ entry: null, reused: false });
    expect(state.history['014:002']?.outcome.verdict).toBe('ACCOUNT_INVALID');
  });

  it('never makes a FAILED answer history, nor snapshots for it', async () => {
    const state = fakes({ '014:001': earlier(30) });
    await answerRecorder(state.deps)('b-new', '014:001', { verdict: 'FAILED', reason: 'no answer after 5 attempt(s)' });
    expect(state.writes).toEqual(['outcome 014:001']);
    expect(state.history['014:001']).toEqual(earlier(30));
  });

  it('a job that runs twice keeps the first snapshot and does not write history again', async () => {
    const state = fakes({ '014:001': earlier(30) });
    const save = answerRecorder(state.deps);
    await save('b-new', '014:001', valid);
    state.writes.length = 0;
    expect(await save('b-new', '014:001', { ...valid, holderName: 'SOMEBODY' })).toBe(false);
    expect(state.writes).toEqual(['outcome 014:001']);
    expect(state.snapshots.get('b-new/014:001')?.entry).toEqual(earlier(30));
    expect(state.history['014:001']?.outcome.holderName).toBe('BUDI SANTOSO');
  });
});

describe('answerRecorder on a standalone Redis (one script)', () => {
  it('hands a definitive answer and its new history entry to the one script, and a FAILED one to the plain save', async () => {
    const state = fakes({ '014:001': earlier(30) });
    const oneScript: string[] = [];
    state.deps.writeWithHistory = async (batchId, key, outcome, entry) => {
      oneScript.push(`${batchId} ${key} ${outcome.verdict}`);
      expect(entry).toEqual({ outcome, batchId, answeredAt: NOW });
      return true;
    };
    const save = answerRecorder(state.deps);
    expect(await save('b-new', '014:001', valid)).toBe(true);
    await save('b-new', '014:002', { verdict: 'FAILED', reason: 'no answer after 5 attempt(s)' });
    expect(oneScript).toEqual(['b-new 014:001 VERIFIED']);
    expect(state.writes).toEqual(['outcome 014:002']);
  });
});

describe('answerReuser', () => {
  it('asks everything when reuse is off', async () => {
    const state = fakes({ '014:001': earlier(0) });
    expect(await answerReuser(state.deps, 0)('b-new', ['014:001'])).toEqual(['014:001']);
    expect(state.writes).toEqual([]);
  });

  it('stores a fresh answer as the batch outcome, with the reused entry as its snapshot, and asks the rest', async () => {
    const state = fakes({
      '014:fresh': earlier(0.5),
      '014:stale': earlier(2),
      '014:invalid': earlier(0.2, { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account closed' }),
    });
    const toAsk = await answerReuser(state.deps, HOUR)('b-new', ['014:fresh', '014:stale', '014:never', '014:invalid']);
    expect(toAsk.sort()).toEqual(['014:never', '014:stale']);
    expect(state.outcomes.get('b-new/014:fresh')).toEqual(valid);
    expect(state.outcomes.get('b-new/014:invalid')?.verdict).toBe('ACCOUNT_INVALID');
    expect(state.snapshots.get('b-new/014:fresh')).toEqual({ entry: earlier(0.5), reused: true });
    // A reused answer is no new answer: its age does not start again.
    expect(state.writes.filter((write) => write.startsWith('history'))).toEqual([]);
  });

  it('leaves an account answered meanwhile as it is: neither reused nor asked', async () => {
    const state = fakes({ '014:001': earlier(0.1) });
    const answered: InquiryOutcome = { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account closed' };
    await state.deps.writeAnswer('b-new', '014:001', answered, { entry: null, reused: false });
    expect(await answerReuser(state.deps, HOUR)('b-new', ['014:001'])).toEqual([]);
    expect(state.outcomes.get('b-new/014:001')).toEqual(answered);
    expect(state.snapshots.get('b-new/014:001')).toEqual({ entry: null, reused: false });
  });
});

describe('settings and names', () => {
  it('reads the reuse age', () => {
    expect(reuseAge(undefined)).toBe(0);
    expect(reuseAge('0')).toBe(0);
    expect(reuseAge('24h')).toBe(24 * HOUR);
    expect(reuseAge('90m')).toBe(90 * 60_000);
    expect(reuseAge('7d')).toBe(7 * 24 * HOUR);
    expect(reuseAge('1.5h')).toBe(1.5 * HOUR);
    for (const bad of ['24', 'yesterday', '-1h', '0h']) expect(() => reuseAge(bad)).toThrow(/REUSE_ANSWERS/);
  });

  it('keeps history as long as batches unless told otherwise; --reuse-answers wins over REUSE_ANSWERS', () => {
    expect(loadConfig({}, {}).history).toEqual({ keepMs: 30 * 24 * HOUR, reuseAnswersMs: 0 });
    expect(loadConfig({}, { BATCH_RETENTION: '7d' }).history.keepMs).toBe(7 * 24 * HOUR);
    expect(loadConfig({}, { BATCH_RETENTION: '7d', ACCOUNT_HISTORY_RETENTION: '90d' }).history.keepMs).toBe(90 * 24 * HOUR);
    expect(loadConfig({ reuseAnswers: '1h' }, { REUSE_ANSWERS: '24h' }).history.reuseAnswersMs).toBe(HOUR);
    expect(() => loadConfig({}, { ACCOUNT_HISTORY_RETENTION: '0' })).toThrow(/ACCOUNT_HISTORY_RETENTION/);
    expect(loadConfig({}, {}).outputFormat).toBe('csv');
    expect(loadConfig({}, { OUTPUT_FORMAT: 'XLSX' }).outputFormat).toBe('xlsx');
    expect(() => loadConfig({}, { OUTPUT_FORMAT: 'ods' })).toThrow(/OUTPUT_FORMAT/);
  });

  it('names the changes file and the summary beside the report, in its format', () => {
    expect(changesPathFor('/o/payouts.reconciled.csv')).toBe('/o/payouts.changes.csv');
    expect(changesPathFor('/o/x.20261121-020000.reconciled.xlsx')).toBe('/o/x.20261121-020000.changes.xlsx');
    expect(changesPathFor('/o/report.csv')).toBe('/o/report.changes.csv');
    expect(changesPathFor('/o/report')).toBe('/o/report.changes.csv');
    expect(summaryPathFor('/o/report.xlsx')).toBe('/o/report.summary.json');
    expect(summaryPathFor('/o/x.reconciled.XLSX')).toBe('/o/x.reconciled.summary.json');
  });
});
