import type { Job } from 'bullmq';
import { describe, expect, it, vi } from 'vitest';
import { createInquiryProcessor, TransientInquiryError, type InquiryJobDependencies } from '../../jobs/inquiry.js';
import { LoginRejectedError, LoginUnavailableError, TokenRejectedError } from '../../src/errors.js';
import { CircuitBreaker } from '../../src/provider/circuit-breaker.js';
import type { ClientClassification } from '../../src/provider/client.js';
import type { InquiryOutcome } from '../../src/provider/outcome.js';
import type { InquiryJobData } from '../../src/queue/inquiry-queue.js';
import { recordingLogger } from './lifecycle-fakes.js';
import { CallPermits } from '../../src/queue/call-permits.js';
import { newJobSealKey, openAccount, sealAccount } from '../../src/queue/job-seal.js';

const SEAL_KEY = newJobSealKey();

const VERIFIED: InquiryOutcome = { verdict: 'VERIFIED', reason: '', holderName: 'BUDI SANTOSO' };

/** What BullMQ's `Worker.RateLimitError()` is: the job goes back to waiting without spending an attempt. */
class RateLimitError extends Error {
  override name = 'RateLimitError';
}

/** What BullMQ's DelayedError is: the job was moved to the delayed set (behind the others), no attempt spent. */
class DelayedError extends Error {
  override name = 'DelayedError';
}

/** One account's inquiry job, on its `attemptsMade + 1`-th attempt of `attempts`. */
function job(accountKey = '014:0012345678', attemptsMade = 0, attempts = 3): Job<InquiryJobData> {
  return {
    id: `b1.${accountKey}`,
    data: { batchId: 'b1', sealedAccount: sealAccount(SEAL_KEY, 'b1', accountKey) },
    opts: { attempts },
    attemptsMade,
  } as unknown as Job<InquiryJobData>;
}

/** A group's inquiry job (several accounts per job: see accountsPerJob), on its `attemptsMade + 1`-th attempt of `attempts`. */
function groupJob(accountKeys: string[], attemptsMade = 0, attempts = 3): Job<InquiryJobData> {
  const job = {
    id: 'b1.g0',
    data: { batchId: 'b1', sealedAccounts: accountKeys.map((accountKey) => sealAccount(SEAL_KEY, 'b1', accountKey)) },
    opts: { attempts },
    attemptsMade,
    updateData: async (data: InquiryJobData) => void (job.data = data as typeof job.data),
  };
  return job as unknown as Job<InquiryJobData>;
}

/**
 * The processor over fakes: `provider` answers each call (a decision, or an error thrown by the client:
 * login trouble, a bug); the breaker is a real one with a small window so a test can open it. `permits`:
 * the calls in flight at once (one: a group's accounts are asked one after the other).
 */
function processorWorld(
  provider: (account: string) => ClientClassification | Error | Promise<ClientClassification>,
  breaker = new CircuitBreaker(),
  permits = 1,
) {
  const callPermits = new CallPermits(permits);
  const { logger, lines } = recordingLogger();
  const outcomes = new Map<string, InquiryOutcome>();
  const counted: string[] = [];
  const holds: number[] = [];
  const heldBehind: Array<{ jobId: string | undefined; ms: number }> = [];
  const sendHolds: number[] = [];
  const heldTickets: (string | undefined)[] = [];
  let slots = 0;
  const preCalls: string[] = [];
  const worked: number[] = [];
  const asked: string[] = [];
  const outages: string[] = [];
  const answeredNotes: number[] = [];
  let onClear = () => undefined as unknown;
  const deps: InquiryJobDependencies = {
    openAccounts: async (data) =>
      ('sealedAccounts' in data ? data.sealedAccounts : [data.sealedAccount]).map((sealed) => openAccount(SEAL_KEY, data.batchId, sealed)!),
    // Each slot says what it was paced with; a 429 hands the pacer the ticket of the call it answered.
    preCall: async (_, accountKey) => {
      preCalls.push(accountKey);
      return {
        skip: outcomes.has(accountKey) ? 'answered' : undefined,
        nextSlot: async () => ({ rateInForce: 40, slowedAt: `slot ${(slots += 1)}` }),
      };
    },
    landAnswer: async (_, accountKey, outcome) => {
      if (!outcomes.has(accountKey)) outcomes.set(accountKey, outcome);
    },
    observeWork: (ms) => void worked.push(ms),
    countCall: async (_, field) => void counted.push(field),
    inquire: async (account, hooks) => {
      const key = `${account.bankCode}:${account.accountNumber}`;
      asked.push(key);
      await hooks.waitForTurn();
      const answer = await provider(key);
      if (answer instanceof Error) throw answer;
      await hooks.onSend();
      return answer;
    },
    sendLeft: () => undefined,
    holdSending: async (ms, ticket) => {
      sendHolds.push(ms);
      heldTickets.push(ticket?.slowedAt);
    },
    holdEveryWorker: async (ms) => {
      holds.push(ms);
      throw new RateLimitError();
    },
    holdEveryWorkerBehind: async (held, _token, ms) => {
      heldBehind.push({ jobId: held.id, ms });
      throw new DelayedError();
    },
    handBack: async () => {
      throw new RateLimitError();
    },
    callPermit: (signal) => callPermits.acquire(signal),
    breaker,
    reportOutage: async (_, reason) => void outages.push(reason),
    clearOutage: async () => void onClear(),
    providerAnswered: () => void answeredNotes.push(1),
    logger,
  };
  return {
    deps,
    onClear: (listener: () => unknown) => void (onClear = listener),
    process: createInquiryProcessor(deps),
    outcomes,
    counted,
    holds,
    heldBehind,
    sendHolds,
    heldTickets,
    asked,
    outages,
    answeredNotes,
    lines,
    breaker,
    preCalls,
    worked,
    slotsTaken: () => slots,
  };
}

const answer = (outcome: InquiryOutcome = VERIFIED): ClientClassification => ({ kind: 'answer', outcome });
const transient: ClientClassification = { kind: 'transient', reason: 'provider answered HTTP 503' };

describe('the inquiry processor (jobs/inquiry.ts)', () => {
  it('stores the answer once, and a job that runs again asks nothing', async () => {
    const w = processorWorld(() => answer());
    await w.process(job());
    await w.process(job());
    expect(w.asked).toEqual(['014:0012345678']);
    expect(w.outcomes.get('014:0012345678')).toEqual(VERIFIED);
    expect(w.counted).toEqual(['calls', 'usableAnswers']);
    // The provider's answer is noted for the waits of other batches on the queue.
    expect(w.answeredNotes).toHaveLength(1);
  });

  it('counts usable answers (a FAILED one for what the record says too), never an unusable one or a retry that ran out', async () => {
    const decisions: Record<string, ClientClassification> = {
      '014:0000000001': answer(VERIFIED),
      '014:0000000002': answer({ verdict: 'ACCOUNT_INVALID', reason: 'provider: Account not found' }),
      '014:0000000003': answer({ verdict: 'FAILED', reason: 'provider status PENDING is not SUCCESS' }),
      '014:0000000004': {
        kind: 'answer',
        outcome: { verdict: 'FAILED', reason: 'provider answered HTTP 404: no message' },
        unusable: true,
      },
      '014:0000000005': transient,
    };
    const w = processorWorld((account) => decisions[account]!);
    for (const account of Object.keys(decisions)) await w.process(job(account, 2, 3));
    expect(w.outcomes.size).toBe(5);
    expect(w.counted.filter((field) => field === 'usableAnswers')).toHaveLength(3);
  });

  it('one pre-call per job, and a job whose account is answered waits for no slot', async () => {
    const w = processorWorld(() => answer());
    await w.process(job());
    await w.process(job());
    expect(w.preCalls).toEqual(['014:0012345678', '014:0012345678']);
    expect(w.slotsTaken()).toBe(1);
    // The answered job's work sizes the concurrency; the run that asked nothing does not.
    expect(w.worked).toHaveLength(1);
  });

  it('a transient failure is retried by the queue; the last attempt stores FAILED with the reason', async () => {
    const w = processorWorld(() => transient);
    await expect(w.process(job('014:0012345678', 0, 3))).rejects.toBeInstanceOf(TransientInquiryError);
    await expect(w.process(job('014:0012345678', 1, 3))).rejects.toBeInstanceOf(TransientInquiryError);
    expect(w.outcomes.size).toBe(0);
    await w.process(job('014:0012345678', 2, 3));
    expect(w.outcomes.get('014:0012345678')).toEqual({
      verdict: 'FAILED',
      reason: 'no answer after 3 attempt(s): provider answered HTTP 503',
    });
  });

  it('a 429 holds every worker for Retry-After and hands the job back without spending an attempt or storing anything', async () => {
    const w = processorWorld(() => ({ kind: 'rate_limited', retryAfterMs: 4_000 }));
    await expect(w.process(job())).rejects.toBeInstanceOf(RateLimitError);
    expect(w.sendHolds).toEqual([4_000]);
    expect(w.heldTickets).toEqual(['slot 1']);
    expect(w.holds).toEqual([4_000]);
    expect(w.counted).toEqual(['calls', 'rateLimited']);
    expect(w.outcomes.size).toBe(0);
    expect(w.breaker.outageSince).toBeUndefined();
  });

  it('429s are posted as an outage naming the rate limit and the Retry-After (capped, saying so); the next answer clears it', async () => {
    let limited = true;
    const w = processorWorld(() => (limited ? { kind: 'rate_limited', retryAfterMs: 600_000, askedMs: 2_592_000_000 } : answer()));
    let cleared = 0;
    await expect(w.process(job('014:0000000001'))).rejects.toBeInstanceOf(RateLimitError);
    await expect(w.process(job('014:0000000001'))).rejects.toBeInstanceOf(RateLimitError);
    expect(w.outages).toEqual([
      'HTTP 429 (rate limit), Retry-After 2592000 s, capped at 600 s',
      'HTTP 429 (rate limit), Retry-After 2592000 s, capped at 600 s',
    ]);
    expect(w.holds).toEqual([600_000, 600_000]);
    limited = false;
    w.onClear(() => (cleared += 1));
    await w.process(job('014:0000000001'));
    expect(cleared).toBe(1);
  });

  it('a stop while the job waits for its send slot hands it back at once: nothing sent, counted or stored', async () => {
    const w = processorWorld(() => answer());
    const stop = new AbortController();
    const slotNeverComes = new Promise<never>(() => undefined);
    const held = { ...w.deps, preCall: async () => ({ answered: false, nextSlot: () => slotNeverComes }) };
    const processing = createInquiryProcessor(held)(job(), 'lock', stop.signal);
    stop.abort();
    await expect(processing).rejects.toBeInstanceOf(RateLimitError);
    expect(w.counted).toEqual([]);
    expect(w.outcomes.size).toBe(0);
  });

  it('a fresh token refused for one account holds every worker and puts that job behind the others, storing nothing', async () => {
    const w = processorWorld(
      () =>
        new TokenRejectedError(
          'the provider refused a freshly issued token (HTTP 401: Unauthenticated.) for account 014:******9999 of batch b1',
        ),
    );
    await expect(w.process(job('014:0099999999'))).rejects.toBeInstanceOf(DelayedError);
    expect(w.heldBehind).toEqual([{ jobId: 'b1.014:0099999999', ms: 1_000 }]);
    expect(w.holds).toEqual([]);
    expect(w.outcomes.size).toBe(0);
    expect(w.breaker.outageSince).toBeUndefined();
  });

  it('login trouble holds every worker, never stores an outcome and never trips the breaker', async () => {
    const w = processorWorld(() => new LoginUnavailableError('provider answered HTTP 503: Service Unavailable'));
    for (let attempt = 0; attempt < 30; attempt += 1)
      await expect(w.process(job(`014:00123456${String(attempt).padStart(2, '0')}`, 2, 3))).rejects.toBeInstanceOf(RateLimitError);
    expect(w.outcomes.size).toBe(0);
    expect(w.holds.every((ms) => ms >= 1_000 && ms <= 60_000)).toBe(true);
    expect(w.breaker.outageSince).toBeUndefined();
    expect(w.lines.filter((line) => line.level === 'error')).toHaveLength(1); // one clear line, not one per job
  });

  it('a rejected login is held the same way (run stops on it, through the posted login failure)', async () => {
    const w = processorWorld(() => new LoginRejectedError('Invalid username or password', 401));
    await expect(w.process(job())).rejects.toBeInstanceOf(RateLimitError);
    expect(w.outcomes.size).toBe(0);
  });

  it('a probe that meets login trouble does not leave the breaker closed to every later call', async () => {
    const breaker = new CircuitBreaker({ windowSize: 2, minimumCalls: 2, failureRatio: 0.5, openMs: 0, maxOpenMs: 0 });
    let loginWorks = false;
    const w = processorWorld(() => (loginWorks ? answer() : new LoginUnavailableError('cannot reach the provider')), breaker);
    breaker.record(false);
    breaker.record(false); // the provider failed: open; the next call is the probe
    expect(breaker.outageSince).toBeDefined();
    await expect(w.process(job('014:0000000001'))).rejects.toBeInstanceOf(RateLimitError);
    loginWorks = true;
    await w.process(job('014:0000000002'));
    expect(w.asked).toEqual(['014:0000000001', '014:0000000002']);
    expect(w.outcomes.get('014:0000000002')).toEqual(VERIFIED);
    expect(breaker.outageSince).toBeUndefined();
  });

  it('an unexpected error is a bug: logged once with its stack, counted, the row FAILED saying so, not rethrown', async () => {
    const w = processorWorld(() => new TypeError("Cannot read properties of undefined (reading 'status')"));
    await w.process(job('014:0000000001'));
    await w.process(job('014:0000000002'));
    for (const account of ['014:0000000001', '014:0000000002']) {
      expect(w.outcomes.get(account)).toEqual({
        verdict: 'FAILED',
        reason:
          "internal error: Cannot read properties of undefined (reading 'status'); a bug in beneficiary-check, not a provider answer (details in the log)",
      });
    }
    const errors = w.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect((errors[0]!.fields as { err: Error }).err.stack).toContain('TypeError');
    expect(w.counted.filter((field) => field === 'internalErrors')).toHaveLength(2);
    expect(w.breaker.outageSince).toBeUndefined();
    expect(w.outages).toEqual([]);
  });

  it('a bug on the probe does not hold the breaker either', async () => {
    const breaker = new CircuitBreaker({ windowSize: 2, minimumCalls: 2, failureRatio: 0.5, openMs: 0, maxOpenMs: 0 });
    let buggy = true;
    const w = processorWorld(() => (buggy ? new RangeError('bad') : answer()), breaker);
    breaker.record(false);
    breaker.record(false);
    await w.process(job('014:0000000001'));
    buggy = false;
    await w.process(job('014:0000000002'));
    expect(w.outcomes.get('014:0000000002')).toEqual(VERIFIED);
  });

  it('a Redis failure is not a bug: it is rethrown for the queue to retry, nothing stored', async () => {
    const failure = new Error('Connection is closed.');
    const w = processorWorld(() => failure);
    await expect(w.process(job())).rejects.toBe(failure);
    expect(w.outcomes.size).toBe(0);
    expect(w.counted).toEqual([]);
  });

  it('the provider failing opens the breaker and posts the outage; the next answer clears it', async () => {
    let down = true;
    const breaker = new CircuitBreaker({ windowSize: 2, minimumCalls: 2, failureRatio: 0.5, openMs: 0, maxOpenMs: 0 });
    const w = processorWorld(() => (down ? transient : answer()), breaker);
    await expect(w.process(job('014:0000000001'))).rejects.toBeInstanceOf(TransientInquiryError);
    await expect(w.process(job('014:0000000002'))).rejects.toBeInstanceOf(TransientInquiryError);
    expect(w.outages).toEqual(['provider answered HTTP 503']);
    down = false;
    await w.process(job('014:0000000003'));
    expect(breaker.outageSince).toBeUndefined();
  });
});

describe('a job of several accounts (jobs/inquiry.ts, accountsPerJob)', () => {
  const GROUP = ['014:0000000001', '014:0000000002', '014:0000000003'];

  it('asks each account once, in order, each its own answer; the job run again asks nothing', async () => {
    const w = processorWorld((account) => answer({ ...VERIFIED, holderName: `HOLDER ${account.slice(-1)}` }));
    await w.process(groupJob(GROUP));
    await w.process(groupJob(GROUP));
    expect(w.asked).toEqual(GROUP);
    expect(GROUP.map((account) => w.outcomes.get(account)?.holderName)).toEqual(['HOLDER 1', 'HOLDER 2', 'HOLDER 3']);
    expect(w.slotsTaken()).toBe(3);
  });

  it('each account its own attempts: a transient failure lets the others be asked, the retry asks only it, the last attempt writes it FAILED', async () => {
    const w = processorWorld((account) => (account === GROUP[1] ? transient : answer()));
    await expect(w.process(groupJob(GROUP, 0, 3))).rejects.toBeInstanceOf(TransientInquiryError);
    expect(w.asked).toEqual(GROUP);
    expect([...w.outcomes.keys()].sort()).toEqual([GROUP[0], GROUP[2]]);
    await expect(w.process(groupJob(GROUP, 1, 3))).rejects.toBeInstanceOf(TransientInquiryError);
    await w.process(groupJob(GROUP, 2, 3));
    expect(w.asked).toEqual([...GROUP, GROUP[1], GROUP[1]]);
    expect(w.outcomes.get(GROUP[1]!)).toEqual({ verdict: 'FAILED', reason: 'no answer after 3 attempt(s): provider answered HTTP 503' });
    expect(w.outcomes.get(GROUP[0]!)).toEqual(VERIFIED);
  });

  it('a 429 hands the whole job back: the accounts answered stay answered, the rest are asked when it runs again', async () => {
    let limited = true;
    const w = processorWorld((account) => (account === GROUP[1] && limited ? { kind: 'rate_limited', retryAfterMs: 1_000 } : answer()));
    await expect(w.process(groupJob(GROUP))).rejects.toBeInstanceOf(RateLimitError);
    expect(w.asked).toEqual(GROUP.slice(0, 2));
    expect([...w.outcomes.keys()]).toEqual([GROUP[0]]);
    limited = false;
    await w.process(groupJob(GROUP));
    expect(w.asked).toEqual([...GROUP.slice(0, 2), ...GROUP.slice(1)]);
    expect(w.outcomes.size).toBe(3);
  });

  it("a run handed back after an account's failure keeps that failure: the account never gets more calls than its attempts", async () => {
    // The first account always fails; the second meets 429s twice, then is answered.
    let limits = 2;
    const w = processorWorld((account) =>
      account === GROUP[0] ? transient : account === GROUP[1] && limits-- > 0 ? { kind: 'rate_limited', retryAfterMs: 1_000 } : answer(),
    );
    const run = groupJob(GROUP, 0, 2);
    await expect(w.process(run)).rejects.toBeInstanceOf(RateLimitError);
    expect(run.data).toMatchObject({ uncountedFailures: [1, 0, 0] });
    // Handed back again: its second failure is its last attempt (2 of 2), written FAILED; the job spent none.
    await expect(w.process(run)).rejects.toBeInstanceOf(RateLimitError);
    expect(w.outcomes.get(GROUP[0]!)).toEqual({ verdict: 'FAILED', reason: 'no answer after 2 attempt(s): provider answered HTTP 503' });
    await w.process(run);
    expect(w.asked.filter((account) => account === GROUP[0])).toHaveLength(2);
    expect(w.outcomes.size).toBe(3);
    const failures = w.lines.filter((line) => String(line.message).startsWith('inquiry failed'));
    expect(failures.map((line) => (line.fields as { attempt: number }).attempt)).toEqual([1, 2]);
  });

  it('a bug in one account ends that one FAILED saying so; the others are answered', async () => {
    const w = processorWorld((account) => (account === GROUP[0] ? new TypeError('boom') : answer()));
    await w.process(groupJob(GROUP));
    expect(w.outcomes.get(GROUP[0]!)?.verdict).toBe('FAILED');
    expect(w.outcomes.get(GROUP[0]!)?.reason).toContain('internal error: boom');
    expect([GROUP[1], GROUP[2]].map((account) => w.outcomes.get(account!))).toEqual([VERIFIED, VERIFIED]);
  });

  it('a stop after an answer hands the job back before its next account is asked', async () => {
    const stop = new AbortController();
    const w = processorWorld(() => {
      stop.abort();
      return answer();
    });
    await expect(w.process(groupJob(GROUP), 'lock', stop.signal)).rejects.toBeInstanceOf(RateLimitError);
    expect(w.asked).toEqual([GROUP[0]]);
    expect(w.outcomes.size).toBe(1);
  });

  it('asks its accounts side by side, as many at once as there are call permits, each its own answer', async () => {
    const answers = new Map<string, (classification: ClientClassification) => void>();
    const w = processorWorld(
      (account) => new Promise<ClientClassification>((resolve) => answers.set(account, resolve)),
      new CircuitBreaker(),
      2,
    );
    const processing = w.process(groupJob(GROUP));
    await vi.waitFor(() => expect(w.asked).toEqual(GROUP.slice(0, 2)));
    // The third waits for a permit: the calls in flight are the permits, whatever the jobs.
    answers.get(GROUP[1]!)!(answer({ ...VERIFIED, holderName: 'HOLDER 2' }));
    await vi.waitFor(() => expect(w.asked).toEqual(GROUP));
    answers.get(GROUP[0]!)!(answer({ ...VERIFIED, holderName: 'HOLDER 1' }));
    answers.get(GROUP[2]!)!(answer({ ...VERIFIED, holderName: 'HOLDER 3' }));
    await processing;
    expect(GROUP.map((account) => w.outcomes.get(account)?.holderName)).toEqual(['HOLDER 1', 'HOLDER 2', 'HOLDER 3']);
  });

  it('a 429 among calls side by side: the calls in flight land their answers, the ones not sent wait for the next run', async () => {
    const answers = new Map<string, (classification: ClientClassification) => void>();
    let limited = true;
    const w = processorWorld(
      (account) =>
        account === GROUP[0] && limited
          ? { kind: 'rate_limited', retryAfterMs: 1_000 }
          : new Promise<ClientClassification>((resolve) => answers.set(account, resolve)),
      new CircuitBreaker(),
      2,
    );
    const processing = w.process(groupJob(GROUP));
    await vi.waitFor(() => expect(answers.has(GROUP[1]!)).toBe(true));
    answers.get(GROUP[1]!)!(answer());
    await expect(processing).rejects.toBeInstanceOf(RateLimitError);
    expect(w.holds).toEqual([1_000]);
    // The third had no permit when the 429 came: not asked, its slot not taken.
    expect(w.asked).toEqual(GROUP.slice(0, 2));
    expect([...w.outcomes.keys()]).toEqual([GROUP[1]]);
    limited = false;
    const again = w.process(groupJob(GROUP));
    await vi.waitFor(() => expect(answers.has(GROUP[2]!)).toBe(true));
    answers.get(GROUP[2]!)!(answer());
    await vi.waitFor(() => expect(answers.has(GROUP[0]!)).toBe(true));
    answers.get(GROUP[0]!)!(answer());
    await again;
    expect(w.outcomes.size).toBe(3);
  });

  it("the breaker refusing one account side by side does not stop its probe waiting for its send slot: the probe's answer closes it, then the job goes back", async () => {
    const breaker = new CircuitBreaker({ windowSize: 2, minimumCalls: 2, failureRatio: 0.5, openMs: 0, maxOpenMs: 0 });
    breaker.record(false);
    breaker.record(false); // open; the next call is the probe, the others are refused while it is out
    const w = processorWorld(() => answer(), breaker, 3);
    // The probe's slot comes only once its siblings were refused.
    let slotDue!: () => void;
    const slot = new Promise<void>((resolve) => (slotDue = resolve));
    const preCall = w.deps.preCall;
    w.deps.preCall = async (batchId, accountKey, round) => {
      const pre = await preCall(batchId, accountKey, round);
      return accountKey === GROUP[0] ? { ...pre, nextSlot: () => slot.then(() => pre.nextSlot()) } : pre;
    };
    const processing = w.process(groupJob(GROUP));
    await vi.waitFor(() => expect(w.preCalls).toEqual(GROUP));
    slotDue();
    await expect(processing).rejects.toBeInstanceOf(RateLimitError);
    expect(w.asked).toEqual([GROUP[0]]);
    expect([...w.outcomes.keys()]).toEqual([GROUP[0]]);
    expect(breaker.outageSince).toBeUndefined();
    await w.process(groupJob(GROUP));
    expect(w.outcomes.size).toBe(3);
  });
});
