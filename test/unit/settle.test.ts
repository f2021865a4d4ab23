import { describe, expect, it } from 'vitest';
import { AnswerArrivals } from '../../src/batch/answer-arrivals.js';
import type { BatchProgress } from '../../src/batch/batch-store.js';
import {
  HandedBackError,
  ProviderUnavailableError,
  RejectedByProviderError,
  settleBatch,
  type LostJobs,
  type SettleDependencies,
  type SettleSettings,
} from '../../src/batch/settle.js';
import { LoginUnavailableError } from '../../src/errors.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';
import type { LoginFailureRecord } from '../../src/provider/token.js';
import { singleInquiries } from '../../src/queue/inquiry-queue.js';
import type { Outage } from '../../src/queue/outage-board.js';
import { systemClock } from '../../src/clock/clock.js';
import { FakeClock, recordingLogger, T0 } from './lifecycle-fakes.js';

const SETTINGS: SettleSettings = { outageBudgetMs: 10_000, pollMs: 250, stallNoticeMs: 2_000, auditAfterMs: 5_000 };
const ACCOUNTS = ['014:0001', '014:0002', '009:0003', '008:0004'];

/**
 * A batch of four accounts, answered by "workers" the test drives from the clock (every poll is a sleep),
 * with the provider, the login and the queue as the test sets them.
 */
function batchWorld(options: { produced?: boolean } = {}) {
  const clock = new FakeClock();
  const { logger, lines } = recordingLogger();
  const outcomes = new Map<string, InquiryOutcome>();
  const state = {
    produced: options.produced ?? true,
    outage: undefined as Outage | undefined,
    /** The queue's answer counter (OutageBoard.answers): other batches' answers move it. */
    providerAnswers: undefined as number | undefined,
    loginFailure: undefined as LoginFailureRecord | undefined,
    lost: { failed: [], missing: [] } as LostJobs,
    requeued: [] as string[][],
    dropped: [] as string[],
    audits: 0,
    round: 0,
  };
  const deps: SettleDependencies = {
    progress: async (): Promise<BatchProgress> => ({
      rowCount: ACCOUNTS.length,
      accountCount: ACCOUNTS.length,
      answered: outcomes.size,
      produced: state.produced,
      complete: state.produced && outcomes.size >= ACCOUNTS.length,
      reported: false,
      round: state.round,
    }),
    unansweredInquiries: async function* () {
      yield singleInquiries(ACCOUNTS.filter((account) => !outcomes.has(account)));
    },
    recordAnswer: async (_, accountKey, outcome) => {
      if (!outcomes.has(accountKey)) outcomes.set(accountKey, outcome);
    },
    providerOutage: async () => state.outage,
    providerAnswers: async () => state.providerAnswers,
    lastLoginFailure: async () => state.loginFailure,
    queueCounts: async () => ({ active: 1, waiting: 2, delayed: 1 }),
    findLostJobs: async () => {
      state.audits += 1;
      return state.lost;
    },
    requeue: async (_, accountKeys) => void state.requeued.push(accountKeys),
    // As BatchStore.markGivenUp: only in the wait's round.
    markGivenUp: async (_, round, accountKeys, outcome) => {
      if (round !== state.round) return false;
      for (const accountKey of accountKeys) if (!outcomes.has(accountKey)) outcomes.set(accountKey, outcome);
      return true;
    },
    dropJobs: async (_, round, inquiries) => state.dropped.push(...inquiries.map(({ accountKeys: [account] }) => `${account}@${round}`)),
    clock,
    logger,
  };
  const answer = (account: string) => outcomes.set(account, { verdict: 'VERIFIED', reason: '' });
  return { clock, deps, outcomes, state, lines, answer };
}

describe('settleBatch', () => {
  it('returns once every account of the produced batch is answered, reporting progress', async () => {
    const w = batchWorld({ produced: false });
    w.clock.onSleep = (clock) => {
      if (clock.sleeps === 1) w.state.produced = true;
      if (clock.sleeps <= ACCOUNTS.length) w.answer(ACCOUNTS[clock.sleeps - 1]!);
    };
    const reports: Array<{ answered: number; complete: boolean }> = [];
    const result = await settleBatch(w.deps, SETTINGS, 'b1', {
      onProgress: (report) => reports.push({ answered: report.progress.answered, complete: report.progress.complete }),
    });
    expect(result).toEqual({ kind: 'complete' });
    expect(reports.at(-1)).toEqual({ answered: 4, complete: true });
    expect(w.clock.now() - T0).toBe(ACCOUNTS.length * SETTINGS.pollMs);
  });

  it('while the file is still being queued: the provider failing past the outage budget ends the wait, no row marked', async () => {
    // Production waits for room in the queue, and a failing provider drains none: without this, a file
    // larger than the backlog was queued for ever.
    const w = batchWorld({ produced: false });
    w.clock.onSleep = (clock) => {
      w.state.outage = { since: T0, reason: 'provider answered HTTP 503', lastFailureAt: clock.now() };
    };
    await expect(settleBatch(w.deps, SETTINGS, 'b1', { whileQueueing: true })).rejects.toThrow(ProviderUnavailableError);
    expect(w.clock.now() - T0).toBeGreaterThanOrEqual(SETTINGS.outageBudgetMs);
    expect(w.outcomes.size).toBe(0);
    expect(w.state.dropped).toEqual([]);
  });

  it('while a rerun queues: an answered batch is watched on, and FAILED answers forgotten start the clock again', async () => {
    // The watch begins before the rerun forgets the FAILED answers: every account looks answered, then fewer.
    const w = batchWorld();
    for (const account of ACCOUNTS) w.outcomes.set(account, { verdict: 'FAILED', reason: 'no answer' });
    let forgottenAt: number | undefined;
    w.clock.onSleep = (clock) => {
      if (forgottenAt === undefined && clock.now() - T0 >= SETTINGS.outageBudgetMs / 2) {
        for (const account of ACCOUNTS) w.outcomes.delete(account);
        forgottenAt = clock.now();
      }
      w.state.outage = { since: T0, reason: 'provider answered HTTP 503', lastFailureAt: clock.now() };
    };
    await expect(settleBatch(w.deps, SETTINGS, 'b1', { whileQueueing: true })).rejects.toThrow(ProviderUnavailableError);
    expect(w.clock.now() - forgottenAt!).toBeGreaterThanOrEqual(SETTINGS.outageBudgetMs);
  });

  it('a rerun that moved the batch on while this wait gave up: nothing is written FAILED into its round, none of its jobs dropped', async () => {
    // `resume` (or the same file) took the batch up to ask its FAILED accounts again: they are its to answer now.
    const w = batchWorld();
    w.answer('014:0001');
    w.clock.onSleep = (clock) => {
      w.state.outage = { since: T0, reason: 'provider answered HTTP 503', lastFailureAt: clock.now() };
      if (clock.now() - T0 >= SETTINGS.outageBudgetMs - SETTINGS.pollMs) w.state.round = 1;
    };
    const result = await settleBatch(w.deps, SETTINGS, 'b1');
    expect(result.kind).toBe('gave_up');
    expect([...w.outcomes.keys()]).toEqual(['014:0001']);
    expect(w.state.dropped).toEqual([]);
    expect(w.lines.some((line) => line.level === 'warn' && String(line.message).includes('taken up by another run'))).toBe(true);
  });

  it('the provider failing past the outage budget: the unanswered accounts become FAILED with the reason', async () => {
    const w = batchWorld();
    w.answer('014:0001');
    w.clock.onSleep = (clock) => {
      // Workers' probes keep failing: the board's last failure follows the clock.
      w.state.outage = { since: T0, reason: 'provider answered HTTP 503', lastFailureAt: clock.now() };
    };
    const waiting: string[] = [];
    const result = await settleBatch(w.deps, SETTINGS, 'b1', {
      onProgress: (report) => report.waitingFor && waiting.push(report.waitingFor),
    });
    expect(result.kind).toBe('gave_up');
    expect(result.kind === 'gave_up' && result.reason).toContain('no answer from the provider since');
    expect(w.clock.now() - T0).toBeGreaterThanOrEqual(SETTINGS.outageBudgetMs);
    expect(w.outcomes.get('014:0001')).toEqual({ verdict: 'VERIFIED', reason: '' });
    for (const account of ACCOUNTS.slice(1)) {
      expect(w.outcomes.get(account)?.verdict).toBe('FAILED');
      expect(w.outcomes.get(account)?.reason).toMatch(/provider answered HTTP 503.*run the same file again to continue/);
    }
    // Their queued jobs go: each would take a start of the queue's limiter from the next run only to skip.
    expect(w.state.dropped).toEqual(ACCOUNTS.slice(1).map((account) => `${account}@0`));
    expect(waiting.at(-1)).toContain('the provider: failing since');
  });

  it('a batch waiting behind other batches: a 429 after the budget is no outage while the provider answers them', async () => {
    // No answer of its own for twice the budget (other batches' jobs come first), and a 429's hold met by
    // one of those calls: the queue's answer counter keeps moving, so the wait goes on, and says why.
    // Found by an outside review: INQUIRY_OUTAGE_BUDGET=5s, 3,000 rows queued ahead, one 429 at 12 s
    // stopped the run.
    const w = batchWorld();
    w.state.providerAnswers = 10;
    const waiting: string[] = [];
    w.clock.onSleep = (clock) => {
      const elapsed = clock.now() - T0;
      if (elapsed < 2 * SETTINGS.outageBudgetMs && elapsed % 1_000 === 0) w.state.providerAnswers! += 1;
      w.state.outage = { since: clock.now(), reason: 'HTTP 429 (rate limit)', lastFailureAt: clock.now(), holdUntil: clock.now() + 2_000 };
      if (elapsed >= 2 * SETTINGS.outageBudgetMs - 1_000) for (const account of ACCOUNTS) w.answer(account);
    };
    const result = await settleBatch(w.deps, SETTINGS, 'b1', {
      onProgress: (report) => report.waitingFor && waiting.push(report.waitingFor),
    });
    expect(result).toEqual({ kind: 'complete' });
    expect([...w.outcomes.values()].every((outcome) => outcome.verdict === 'VERIFIED')).toBe(true);
    expect(waiting.at(-1)).toContain("it answers other batches' calls, ahead of this batch's, meanwhile");
  });

  it('a batch waiting behind other batches gives up once the provider has answered no one for the budget, on its own clocks', async () => {
    // The counter is read on this wait's clocks: a time written by another process (whose clock may run
    // ahead, or the wall clock stepped back) cannot hold the wait past the budget, as an outside review
    // showed a note of the last answer's time did.
    const w = batchWorld();
    w.state.providerAnswers = 10;
    let stopped: number | undefined;
    w.clock.onSleep = (clock) => {
      const elapsed = clock.now() - T0;
      if (elapsed <= 3_000) w.state.providerAnswers! += 1;
      else stopped ??= clock.now();
      w.state.outage = { since: T0, reason: 'provider answered HTTP 503', lastFailureAt: clock.now() };
    };
    const result = await settleBatch(w.deps, SETTINGS, 'b1');
    expect(result.kind).toBe('gave_up');
    expect(w.clock.now() - stopped!).toBeGreaterThanOrEqual(SETTINGS.outageBudgetMs - SETTINGS.pollMs);
    expect(w.clock.now() - stopped!).toBeLessThan(SETTINGS.outageBudgetMs + 2 * SETTINGS.pollMs);
    expect(result.kind === 'gave_up' && result.reason).toContain('no answer from the provider since');
  });

  it('login trouble past the budget: LoginUnavailableError, and no row is touched', async () => {
    const w = batchWorld();
    w.clock.onSleep = (clock) => {
      w.state.loginFailure = { message: 'login failed: provider answered HTTP 503: Service Unavailable', rejected: false, at: clock.now() };
    };
    await expect(settleBatch(w.deps, SETTINGS, 'b1')).rejects.toThrow(LoginUnavailableError);
    await expect(settleBatch(w.deps, SETTINGS, 'b1')).rejects.toThrow(/no login possible since .*no row was marked/);
    expect(w.outcomes.size).toBe(0);
  });

  it('login trouble after a provider outage (the token ran out meanwhile): the login holds the batch, no row is FAILED', async () => {
    const w = batchWorld();
    w.clock.onSleep = (clock) => {
      // The provider failed for the first 3 s; since then every login fails.
      if (clock.now() - T0 <= 3_000) w.state.outage = { since: T0, reason: 'provider answered HTTP 503', lastFailureAt: clock.now() };
      else w.state.loginFailure = { message: 'login failed: cannot reach the provider', rejected: false, at: clock.now() };
    };
    await expect(settleBatch(w.deps, SETTINGS, 'b1')).rejects.toThrow(LoginUnavailableError);
    expect(w.outcomes.size).toBe(0);
  });

  it('an outage board left behind by a process that died (nothing failed since) is history: login trouble still holds, no row is FAILED', async () => {
    const w = batchWorld();
    w.state.outage = { since: T0 - 3_600_000, reason: 'provider answered HTTP 502', lastFailureAt: T0 - 3_000_000 };
    w.clock.onSleep = (clock) => {
      w.state.loginFailure = { message: 'login failed: timed out', rejected: false, at: clock.now() };
    };
    await expect(settleBatch(w.deps, SETTINGS, 'b1')).rejects.toThrow(LoginUnavailableError);
    expect(w.outcomes.size).toBe(0);
  });

  it("a rejected login stops the wait at once with the provider's message", async () => {
    const w = batchWorld();
    w.state.loginFailure = { message: 'login failed: Invalid username or password', rejected: true, at: T0 };
    await expect(settleBatch(w.deps, SETTINGS, 'b1')).rejects.toThrow(RejectedByProviderError);
    expect(w.clock.sleeps).toBe(0);
    expect(w.outcomes.size).toBe(0);
  });

  it('silence nothing explains: jobs that failed outside the rules become FAILED rows saying so, vanished ones are queued again', async () => {
    const w = batchWorld();
    w.answer('014:0001');
    w.state.lost = { failed: [{ accountKey: '014:0002', reason: 'job stalled more than allowable limit' }], missing: ['009:0003'] };
    w.clock.onSleep = () => {
      if (w.state.requeued.length > 0) w.answer('009:0003'); // the job queued again is answered
      if (w.state.audits > 0) w.answer('008:0004');
    };
    const result = await settleBatch(w.deps, SETTINGS, 'b1');
    expect(result).toEqual({ kind: 'complete' });
    expect(w.state.audits).toBe(1);
    expect(w.clock.now() - T0).toBeGreaterThanOrEqual(SETTINGS.auditAfterMs);
    expect(w.outcomes.get('014:0002')).toEqual({
      verdict: 'FAILED',
      reason: 'the inquiry job failed: job stalled more than allowable limit',
    });
    expect(w.state.requeued).toEqual([['009:0003']]);
    expect(w.lines.some((line) => line.level === 'error' && String(line.message).includes('failed outside the retry rules'))).toBe(true);
  });

  it('silence never becomes FAILED rows by itself: the wait goes on past the budget', async () => {
    const w = batchWorld();
    w.clock.onSleep = (clock) => {
      if (clock.now() - T0 >= 3 * SETTINGS.outageBudgetMs) ACCOUNTS.forEach(w.answer);
    };
    expect(await settleBatch(w.deps, SETTINGS, 'b1')).toEqual({ kind: 'complete' });
    expect([...w.outcomes.values()].every((outcome) => outcome.verdict === 'VERIFIED')).toBe(true);
  });

  it('a stop hands the batch back: HandedBackError, nothing marked', async () => {
    const w = batchWorld();
    const stop = new AbortController();
    w.clock.onSleep = (clock) => {
      if (clock.sleeps === 3) stop.abort();
    };
    await expect(settleBatch(w.deps, SETTINGS, 'b1', { signal: stop.signal })).rejects.toBeInstanceOf(HandedBackError);
    expect(w.outcomes.size).toBe(0);
  });

  it('a step of the wall clock is no time: the provider failing for a moment past a +2 h step is not past the budget', async () => {
    const w = batchWorld();
    w.answer('014:0001');
    w.clock.onSleep = (clock) => {
      if (clock.sleeps === 2) clock.stepWall(2 * 3600_000);
      // One failure posted after the step (its time on the stepped clock), then the rest are answered.
      if (clock.sleeps === 3) w.state.outage = { since: clock.now(), reason: 'provider answered HTTP 503', lastFailureAt: clock.now() };
      if (clock.sleeps === 6) ACCOUNTS.forEach(w.answer);
    };
    expect(await settleBatch(w.deps, SETTINGS, 'b1')).toEqual({ kind: 'complete' });
    expect([...w.outcomes.values()].every((outcome) => outcome.verdict === 'VERIFIED')).toBe(true);
  });

  it('a fresh token refused for an account of another batch does not stop this one; one refused for its own does', async () => {
    const w = batchWorld();
    const refused = (batchId: string): LoginFailureRecord => ({
      message: `the provider refused a freshly issued token (HTTP 401: Unauthenticated.) for account 014:******9999 of batch ${batchId}`,
      rejected: true,
      at: T0,
      batchId,
    });
    w.state.loginFailure = refused('b-other');
    w.clock.onSleep = (clock) => {
      if (clock.sleeps <= ACCOUNTS.length) w.answer(ACCOUNTS[clock.sleeps - 1]!);
    };
    expect(await settleBatch(w.deps, SETTINGS, 'b1')).toEqual({ kind: 'complete' });

    const own = batchWorld();
    own.state.loginFailure = refused('b1');
    await expect(settleBatch(own.deps, SETTINGS, 'b1')).rejects.toThrow('for account 014:******9999 of batch b1');
  });

  it("a 429 hold still in force, posted before this wait began, is the provider's trouble: past the budget the rows are FAILED naming it", async () => {
    const w = batchWorld();
    // An earlier run met a Retry-After of 10 minutes: nothing is asked until it ends, so nothing fails either.
    w.state.outage = {
      since: T0 - 60_000,
      reason: 'HTTP 429 (rate limit), Retry-After 2592000 s, capped at 600 s',
      lastFailureAt: T0 - 60_000,
      holdUntil: T0 + 540_000,
    };
    const result = await settleBatch(w.deps, SETTINGS, 'b1');
    expect(result.kind === 'gave_up' && result.reason).toContain('HTTP 429 (rate limit)');
    expect([...w.outcomes.values()].every((outcome) => outcome.verdict === 'FAILED')).toBe(true);

    // Once the hold is over, the same board is history: silence, never FAILED rows by itself.
    const later = batchWorld();
    later.state.outage = { ...w.state.outage, holdUntil: T0 - 1_000 };
    later.clock.onSleep = (clock) => {
      if (clock.now() - T0 >= 2 * SETTINGS.outageBudgetMs) ACCOUNTS.forEach(later.answer);
    };
    expect(await settleBatch(later.deps, SETTINGS, 'b1')).toEqual({ kind: 'complete' });
  });

  it('wakes as the last answer lands in this process, not at the next poll', async () => {
    const w = batchWorld();
    const arrivals = new AnswerArrivals();
    // A poll interval no test waits out: only the arrivals can end this wait.
    const settings = { ...SETTINGS, pollMs: 3_600_000 };
    const settled = settleBatch(
      { ...w.deps, clock: systemClock, answersLanded: (batchId, count, signal) => arrivals.wait(batchId, count, signal) },
      settings,
      'b1',
    );
    for (const account of ACCOUNTS) {
      await new Promise((resolve) => setImmediate(resolve));
      w.answer(account);
      arrivals.landed('b2');
      arrivals.landed('b1');
    }
    expect(await settled).toEqual({ kind: 'complete' });
  });
});

describe('AnswerArrivals', () => {
  it('wakes a wait after its count of answers of its batch, or when its signal aborts, and forgets it', async () => {
    const arrivals = new AnswerArrivals();
    let woken = false;
    const waiting = arrivals.wait('b1', 2, new AbortController().signal).then(() => (woken = true));
    arrivals.landed('b1');
    arrivals.landed('b2');
    await Promise.resolve();
    expect(woken).toBe(false);
    arrivals.landed('b1');
    await waiting;
    expect(woken).toBe(true);

    const stop = new AbortController();
    const stopped = arrivals.wait('b1', 5, stop.signal);
    stop.abort();
    await stopped;
    expect((arrivals as unknown as { waiting: Map<string, unknown> }).waiting.size).toBe(0);
  });
});
