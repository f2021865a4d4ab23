import { mkdtemp, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, runCli, startCli, waitForExit, type CliResult } from '../support/cli.js';
import {
  answerSuccess,
  sendJson,
  startMisbehavingProvider,
  type MisbehavingProvider,
  type ReceivedInquiry,
} from '../support/misbehaving-provider.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { waitFor } from '../support/wait.js';

/**
 * The hostile-provider suite: a provider (or whatever stands between it and us: a captive proxy, a broken
 * gateway) that answers in ways the spec does not. Whatever it does, `run` ends: exit 1 naming what the
 * provider did when it never gave one usable answer, a report with every row exactly once, no row shown as
 * verified that was not, and a stop by signal within SHUTDOWN_TIMEOUT.
 */
const redis = testRedis();
const prefixes: string[] = [];
let provider: MisbehavingProvider;
let workDir: string;

const ACCOUNTS = ['0012345601', '0012345602', '0012345603'];

function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  return cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: provider.url,
    H2H_USERNAME: 'u',
    H2H_PASSWORD: 'p',
    RUN_WORKER_PROCESSES: '0',
    INQUIRY_BACKOFF: '50ms',
    ...extra,
  });
}

async function beneficiaries(name: string, accounts = ACCOUNTS): Promise<{ file: string; out: string }> {
  const file = join(workDir, `${name}.csv`);
  await writeFile(file, `bank_code,account_number,name\n${accounts.map((account) => `014,${account},Budi Santoso`).join('\n')}\n`);
  return { file, out: join(workDir, `${name}.out.csv`) };
}

/** The rows of a report: each input account exactly once, in order. */
async function reportRows(out: string, accounts = ACCOUNTS): Promise<Record<string, string>[]> {
  const rows = await readReport(out);
  expect(rows.map((row) => row.account_number)).toEqual(accounts);
  return rows;
}

const noOverflow = (result: CliResult) => expect(`${result.stderr}${result.stdout}`).not.toContain('TimeoutOverflowWarning');

beforeAll(async () => {
  provider = await startMisbehavingProvider();
  workDir = await mkdtemp(join(tmpdir(), 'bc-hostile-provider-'));
});

afterEach(() => provider.answerWith((inquiry, response) => answerSuccess(response, inquiry)));

afterAll(async () => {
  await provider.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

const rateLimited = (retryAfter: string) => (_inquiry: ReceivedInquiry, response: ServerResponse) =>
  sendJson(response, 429, { message: 'Too Many Attempts.' }, { 'retry-after': retryAfter });

describe('a provider answering 429 for ever', () => {
  it('is an outage once the outage budget passes with nothing but 429s: exit 1 naming the rate limit, every row FAILED once', async () => {
    provider.answerWith(rateLimited('1'));
    const { file, out } = await beneficiaries('limited-for-ever');
    const result = await runCli(['run', file, '--out', out], environment({ INQUIRY_OUTAGE_BUDGET: '3s' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/stopped: no answer from the provider since .*HTTP 429 \(rate limit\)/);
    const rows = await reportRows(out);
    expect(rows.map((row) => row.result)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(rows[0]!.reason).toContain('HTTP 429 (rate limit)');
  });
});

describe('a provider answering 429 with a huge Retry-After', () => {
  it.each([
    ['30 days in seconds', '2592000'],
    ['an HTTP date in 2100', 'Fri, 01 Jan 2100 00:00:00 GMT'],
  ])('%s: the hold is capped, the run stops at the outage budget naming the rate limit, no timer overflows', async (_, retryAfter) => {
    provider.answerWith(rateLimited(retryAfter));
    const { file, out } = await beneficiaries(`huge-retry-after-${retryAfter.length}`);
    const before = provider.counts.inquiries;
    const result = await runCli(['run', file, '--out', out], environment({ INQUIRY_OUTAGE_BUDGET: '3s' }));
    noOverflow(result);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/HTTP 429 \(rate limit\).*Retry-After .*capped at 600 s/);
    expect((await reportRows(out)).every((row) => row.result === 'FAILED')).toBe(true);
    // The hold keeps every worker off the provider: no account is asked twice (the calls paced before the first 429 at most).
    expect(provider.counts.inquiries - before).toBeLessThanOrEqual(ACCOUNTS.length);
  });

  it("a run started while an earlier run's hold is in force asks nothing and stops at the outage budget, naming the rate limit", async () => {
    provider.answerWith(rateLimited('2592000'));
    const env = environment({ INQUIRY_OUTAGE_BUDGET: '3s' });
    const first = await beneficiaries('held-first');
    expect((await runCli(['run', first.file, '--out', first.out], env)).code).toBe(1);
    const before = provider.counts.inquiries;
    const second = await beneficiaries('held-second', ['0012345611', '0012345612']);
    const result = await runCli(['run', second.file, '--out', second.out], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/stopped: no answer from the provider since .*HTTP 429 \(rate limit\).*capped at 600 s/);
    expect((await reportRows(second.out, ['0012345611', '0012345612'])).every((row) => row.result === 'FAILED')).toBe(true);
    expect(provider.counts.inquiries).toBe(before);
  });

  it.each([
    ['run', 143],
    ['worker', 0],
  ] as const)('%s stops on SIGTERM within SHUTDOWN_TIMEOUT while every worker is held', async (command, code) => {
    provider.answerWith(rateLimited('2592000'));
    const { file, out } = await beneficiaries(`held-${command}`);
    const env = environment({ SHUTDOWN_TIMEOUT: '2s' });
    const before = provider.counts.inquiries;
    const child = command === 'run' ? startCli(['run', file, '--out', out], env) : startCli(['worker'], env);
    if (command === 'worker') expect((await runCli(['enqueue', file], env)).code).toBe(0);
    await waitFor(() => provider.counts.inquiries > before, 30_000, 'the first 429');
    // Held (a wait of 600 s at the pacer), not stopped: SIGTERM must end it within the shutdown timeout.
    child.kill('SIGTERM');
    expect(await waitForExit(child)).toBe(code);
    noOverflow(child.output());
  });
});

describe('a provider (or a captive proxy) answering 200 with HTML to everything', () => {
  it('is a systemic failure: exit 1 saying no usable answer came, every row FAILED with the reason', async () => {
    provider.answerWith((_inquiry, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><html><body>Please sign in to the hotel Wi-Fi</body></html>');
    });
    const { file, out } = await beneficiaries('html');
    const result = await runCli(['run', file, '--out', out], environment({ INQUIRY_ATTEMPTS: '2' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the provider gave no usable answer');
    const rows = await reportRows(out);
    expect(rows.map((row) => row.result)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(rows[0]!.reason).toMatch(/not JSON \(text\/html/);
    const summary = JSON.parse(await readFile(out.replace(/\.csv$/, '.summary.json'), 'utf8')) as { incomplete?: string };
    expect(summary.incomplete).toContain('the provider gave no usable answer');
  });

  it('watch moves the file to failed/ with that reason, not to archive/ as a success', async () => {
    provider.answerWith((_inquiry, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><html><body>Please sign in to the hotel Wi-Fi</body></html>');
    });
    const folder = join(workDir, 'watched-html');
    const watcher = startCli(['watch', folder], environment({ INQUIRY_ATTEMPTS: '2', WATCH_STABLE: '1s', WATCH_POLL: '100ms' }));
    try {
      await waitFor(async () => (await readdir(folder).catch((): string[] => [])).includes('inbox'), 30_000, 'the watched folders');
      const { file } = await beneficiaries('html-watched');
      await writeFile(join(folder, 'inbox', 'payouts.csv.part'), await readFile(file));
      await rename(join(folder, 'inbox', 'payouts.csv.part'), join(folder, 'inbox', 'payouts.csv'));
      // The watcher makes its folders one after the other: failed/ may come a moment after inbox/.
      await waitFor(
        async () => (await readdir(join(folder, 'failed')).catch((): string[] => [])).includes('payouts.error.txt'),
        60_000,
        'the file in failed/',
      );
      const note = await readFile(join(folder, 'failed', 'payouts.error.txt'), 'utf8');
      expect(note).toContain('payouts.csv was checked, but not answered: the provider gave no usable answer');
      expect(note).toContain(join(folder, 'outbox', 'payouts.reconciled.csv'));
      expect(await readdir(join(folder, 'failed'))).toContain('payouts.csv');
      expect(await readdir(join(folder, 'archive'))).toEqual([]);
    } finally {
      watcher.kill('SIGTERM');
      await waitForExit(watcher);
    }
  });
});

describe('a provider answering huge bodies', () => {
  const HUGE = 64 * 1024 * 1024;
  /** Bytes each answer got out before the client dropped the connection (all of them when it read everything). */
  let sent: number[] = [];

  /** A valid SUCCESS answer for what was asked, padded to HUGE bytes, streamed as the socket takes it. */
  const hugeAnswer = (declareLength: boolean) => (inquiry: ReceivedInquiry, response: ServerResponse) => {
    const head = Buffer.from(
      JSON.stringify({
        error: false,
        message: 'Inquiry success',
        data: {
          id: 1,
          bank_code: inquiry.bankCode,
          account_number: inquiry.accountNumber,
          account_holder: 'BUDI SANTOSO',
          status: 'SUCCESS',
          name: 'BCA',
        },
      }).replace(/}$/, ',"padding":"'),
    );
    const tail = Buffer.from('"}');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    response.writeHead(200, { 'content-type': 'application/json', ...(declareLength && { 'content-length': String(HUGE) }) });
    let written = 0;
    const index = sent.push(0) - 1;
    const pump = () => {
      while (!response.destroyed) {
        const piece =
          written === 0
            ? head
            : written + chunk.length + tail.length >= HUGE
              ? Buffer.concat([chunk.subarray(0, HUGE - written - tail.length), tail])
              : chunk;
        written += piece.length;
        sent[index] = written;
        if (written >= HUGE) return void response.end(piece);
        if (!response.write(piece)) return void response.once('drain', pump);
      }
    };
    response.on('close', () => response.destroy());
    pump();
  };

  it.each([
    ['streamed without a length', false],
    ['with a Content-Length of 64 MB', true],
  ])('%s: a provider error, the connection dropped unread; exit 1, every row FAILED', async (_, declareLength) => {
    sent = [];
    provider.answerWith(hugeAnswer(declareLength));
    const { file, out } = await beneficiaries(`huge-${String(declareLength)}`);
    const result = await runCli(['run', file, '--out', out], environment({ INQUIRY_ATTEMPTS: '2' }));
    expect(result.code).toBe(1);
    const rows = await reportRows(out);
    expect(rows.map((row) => row.result)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(rows[0]!.reason).toContain(
      "the provider's answer is larger than 64 KB, where an inquiry or login answer is a few hundred bytes",
    );
    // Dropped, not read: what got out is what the socket buffers hold, far from the 64 MB of each answer.
    expect(sent.length).toBeGreaterThan(0);
    expect(Math.max(...sent)).toBeLessThan(HUGE / 4);
  });
});

describe('answers that look verified but are not', () => {
  it('a holder name of punctuation only is no answer: FAILED, never compared', async () => {
    provider.answerWith((inquiry, response) =>
      answerSuccess(
        response,
        inquiry,
        inquiry.accountNumber === ACCOUNTS[0] ? '-' : inquiry.accountNumber === ACCOUNTS[1] ? '.' : 'BUDI SANTOSO',
      ),
    );
    const { file, out } = await beneficiaries('punctuation-holder');
    const result = await runCli(['run', file, '--out', out], environment());
    const rows = await reportRows(out);
    expect(rows.map((row) => [row.result, row.account_holder, row.name_score])).toEqual([
      ['FAILED', '', ''],
      ['FAILED', '', ''],
      ['MATCH', 'BUDI SANTOSO', '100'],
    ]);
    expect(rows[0]!.reason).toContain('no account holder name (no letter in it');
    expect(result.code).toBe(0);
  });

  it('never shows the holder or a SUCCESS status of a rejected answer, and an invisible holder name is no answer', async () => {
    const record = (inquiry: ReceivedInquiry, extra: Record<string, unknown>) => ({
      id: 9,
      bank_code: inquiry.bankCode,
      account_number: inquiry.accountNumber,
      account_holder: 'BUDI SANTOSO',
      status: 'SUCCESS',
      updated_at: '2026-11-21T06:52:03.123456Z',
      ...extra,
    });
    provider.answerWith((inquiry, response) => {
      if (inquiry.accountNumber === ACCOUNTS[0])
        return sendJson(response, 200, { error: true, message: 'Account not found', data: record(inquiry, {}) });
      if (inquiry.accountNumber === ACCOUNTS[1])
        return sendJson(response, 200, { error: true, message: 'Account closed', data: record(inquiry, { status: 'FAILED' }) });
      return answerSuccess(response, inquiry, '\u200b\u00a0\u200d\u0007 \u2060');
    });
    const { file, out } = await beneficiaries('look-verified');
    const result = await runCli(['run', file, '--out', out], environment());
    const rows = await reportRows(out);
    // error: true beside a record that says SUCCESS contradicts itself: no definitive answer.
    expect(rows[0]).toMatchObject({ result: 'FAILED', account_holder: '', inquiry_status: '', inquiry_id: '9' });
    expect(rows[0]!.reason).toContain('inconsistent answer');
    expect(rows[1]).toMatchObject({
      result: 'ACCOUNT_INVALID',
      account_holder: '',
      inquiry_status: 'FAILED',
      reason: 'provider: Account closed',
    });
    expect(rows[2]).toMatchObject({ result: 'FAILED', account_holder: '', name_score: '' });
    expect(rows[2]!.reason).toContain('no account holder name');
    // One definitive answer (the ACCOUNT_INVALID): the provider works, the run is not a systemic failure.
    expect(result.code).toBe(0);
  });
});
