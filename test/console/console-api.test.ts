import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { beneficiaryCsv, waitFor } from '../ops/ops-helpers.js';
import { Queue } from 'bullmq';
import { redisKeys } from '../../src/redis/keys.js';
import { getJson, rawRequest, sample, startServe, stopServe, uploadCsv, type ServeProcess } from './console-helpers.js';

/** The console over HTTP on a non-local bind: the token, the API, /metrics moving with a batch, bull-board, upload limits. */
const TOKEN = 'console-test-token-3f9a1c5e8b7d2046aa19';
const bearer = { authorization: `Bearer ${TOKEN}` };
const basic = { authorization: `Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}` };

const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;
let serve: ServeProcess | undefined;

const env = (extra: Record<string, string> = {}) =>
  cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    INQUIRY_RATE: '100/s',
    ...extra,
  });

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-console-api-'));
});

afterAll(async () => {
  await stopServe(serve);
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

describe('access', () => {
  it('refuses to start on a non-local address without CONSOLE_TOKEN', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], env(), 30_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to serve the console on 0.0.0.0 without CONSOLE_TOKEN');
  });

  it('on 0.0.0.0 with CONSOLE_TOKEN: 401 without it, the probes open, bearer and basic accepted', async () => {
    serve = await startServe(
      ['--host', '0.0.0.0'],
      env({ CONSOLE_TOKEN: TOKEN, CONSOLE_REPORTS_DIR: join(workDir, 'reports'), CONSOLE_UPLOAD_MAX_MB: '0.01' }),
    );
    for (const path of ['/', '/api/batches', '/metrics', '/queues']) {
      const response = await fetch(`${serve.url}${path}`);
      expect(response.status, path).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Basic');
    }
    expect((await fetch(`${serve.url}/api/batches`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect(
      (await fetch(`${serve.url}/api/batches`, { headers: { authorization: `Basic ${Buffer.from('ops:wrong').toString('base64')}` } }))
        .status,
    ).toBe(401);
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    expect(await getJson(`${serve.url}/readyz`)).toEqual({ status: 'ready' });
    expect((await fetch(`${serve.url}/api/batches`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${serve.url}/api/batches`, { headers: basic })).status).toBe(200);
    expect((await uploadCsv(serve.url, 'x.csv', 'a,b\n')).status).toBe(401);
  });
});

/** A multipart upload as a browser sends it (raw, so that its Host and Origin can be a foreign site's). */
function multipartUpload(name: string, content: string): { body: string; contentType: string } {
  const boundary = '----bc-test-boundary';
  return {
    body: `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('access without CONSOLE_TOKEN: loopback names only (DNS rebinding)', () => {
  let local: ServeProcess | undefined;

  afterAll(async () => {
    await stopServe(local);
  });

  it('refuses (421) a request addressed to any other name, pages, API, report and upload alike; answers localhost, 127.0.0.1 and [::1]', async () => {
    local = await startServe([], env({ CONSOLE_REPORTS_DIR: join(workDir, 'local-reports') }));
    const port = new URL(local.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
      expect((await rawRequest(`${local.url}/api/batches`, { headers: { host } })).status, host).toBe(200);
    }
    for (const host of [
      `attacker.example:${port}`,
      'attacker.example',
      `127.0.0.1.nip.io:${port}`,
      `localhost.attacker.example:${port}`,
      `10.0.0.5:${port}`,
    ]) {
      for (const path of ['/', '/api/batches', '/api/batches/b20261121-065203-3f9a1c/report.csv', '/queues', '/metrics']) {
        const response = await rawRequest(`${local.url}${path}`, { headers: { host } });
        expect(response.status, `${host} ${path}`).toBe(421);
        expect(response.body, `${host} ${path}`).toContain(
          'answers only requests addressed to this machine as localhost, 127.0.0.1 or [::1]',
        );
      }
    }
    // An upload from the rebound page: its Host and a matching Origin are the attacker's.
    const upload = multipartUpload('payroll.csv', 'bank_code,account_number\n014,0012345678\n');
    const refused = await rawRequest(`${local.url}/api/batches`, {
      method: 'POST',
      headers: { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}`, 'content-type': upload.contentType },
      body: upload.body,
    });
    expect(refused.status).toBe(421);
    expect((await getJson<{ batches: unknown[] }>(`${local.url}/api/batches`)).batches).toEqual([]);
    // The probes say nothing about any batch: open to any name.
    expect((await rawRequest(`${local.url}/healthz`, { headers: { host: 'probe.example' } })).status).toBe(200);
  });
});

describe('files of the console', () => {
  let local: ServeProcess | undefined;
  const mode = async (path: string) => (await stat(path)).mode & 0o777;
  // A prefix of its own: its login (the shared token) must not stand in for the token console's own below.
  const filesPrefix = testKeyPrefix();

  afterEach(async () => {
    await stopServe(local);
    local = undefined;
  });

  afterAll(async () => {
    await deleteKeys(redis, filesPrefix);
  });

  it('keeps uploads, reports and summaries private: files 0600 in 0700 folders', async () => {
    const reports = join(workDir, 'private-reports');
    local = await startServe([], env({ CONSOLE_REPORTS_DIR: reports, BC_KEY_PREFIX: filesPrefix }));
    const response = await uploadCsv(local.url, 'private.csv', (await beneficiaryCsv('PRV', 2)).text);
    expect(response.status).toBe(202);
    const { batchId } = (await response.json()) as { batchId: string };
    await waitFor(
      async () => (await getJson<{ state: string }>(`${local!.url}/api/batches/${batchId}`)).state === 'reported',
      60_000,
      'the upload to be reported',
    );
    expect(await mode(reports)).toBe(0o700);
    expect(await mode(join(reports, 'inputs'))).toBe(0o700);
    const [input] = await readdir(join(reports, 'inputs'));
    expect(await mode(join(reports, 'inputs', input!))).toBe(0o600);
    const written = (await readdir(reports)).filter((name) => name !== 'inputs');
    expect(written.some((name) => name.endsWith('.reconciled.csv'))).toBe(true);
    for (const name of written) expect(await mode(join(reports, name)), name).toBe(0o600);
  });

  it('removes uploads older than BATCH_RETENTION (at start, then hourly); younger ones stay', async () => {
    const reports = join(workDir, 'sweep-reports');
    await mkdir(join(reports, 'inputs'), { recursive: true, mode: 0o755 });
    const old = join(reports, 'inputs', '20261001T000000Z-aaaaaa--old.csv');
    const young = join(reports, 'inputs', '20261120T000000Z-bbbbbb--young.csv');
    await writeFile(old, 'bank_code,account_number\n014,0012345678\n');
    await writeFile(young, 'bank_code,account_number\n014,0012345678\n');
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600_000);
    await utimes(old, daysAgo(31), daysAgo(31));
    await utimes(young, daysAgo(29), daysAgo(29));
    local = await startServe(
      [],
      env({ CONSOLE_REPORTS_DIR: reports, BATCH_RETENTION: '30d', LOG_LEVEL: 'info', BC_KEY_PREFIX: filesPrefix }),
    );
    expect(await readdir(join(reports, 'inputs'))).toEqual(['20261120T000000Z-bbbbbb--young.csv']);
    expect(await mode(join(reports, 'inputs'))).toBe(0o700);
    expect(local.output().stderr).toContain('removed 1 upload(s) older than BATCH_RETENTION');
  });
});

describe('CONSOLE_TOKEN', () => {
  it('a short, placeholder or repetitive token is refused at start (exit 2), saying how to make one, never echoing it', async () => {
    for (const [token, says] of [
      ['a', 'CONSOLE_TOKEN has 1 characters; it needs at least 32 random ones'],
      ['change-me-console-token-change-me-please', 'CONSOLE_TOKEN is still a placeholder'],
      ['ab'.repeat(20), 'CONSOLE_TOKEN repeats a few characters'],
    ] as const) {
      const result = await runCli(['serve', '--port', '0'], env({ CONSOLE_TOKEN: token }), 30_000);
      expect(result.code, token).toBe(2);
      expect(result.stderr).toContain(says);
      expect(result.stderr).toContain('openssl rand -hex 32');
      if (token.length > 1) expect(result.stderr).not.toContain(token);
    }
  });

  it('wrong tokens are slowed down per client address: after 10, every request of that address is 429 with Retry-After (the right token too); another address is not', async () => {
    const attacker = '127.0.0.3';
    const wrong = async () =>
      rawRequest(`${serve!.url}/api/batches`, { headers: { authorization: 'Bearer wrong-token-guess' }, localAddress: attacker });
    for (let attempt = 1; attempt <= 10; attempt += 1) expect((await wrong()).status, `attempt ${attempt}`).toBe(401);
    const slowed = await wrong();
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    expect(slowed.body).toContain('too many wrong tokens from this address');
    expect((await rawRequest(`${serve!.url}/api/batches`, { headers: bearer, localAddress: attacker })).status).toBe(429);
    // Without any token it costs nothing (a browser's first visit), and another client is not held up.
    expect((await rawRequest(`${serve!.url}/api/batches`, { headers: bearer, localAddress: '127.0.0.4' })).status).toBe(200);
    expect((await fetch(`${serve!.url}/api/batches`, { headers: bearer })).status).toBe(200);
  });
});

describe('a batch through the API', () => {
  it('answers 202 with the batch id, moves the metrics, and lists the batch with masked rows', async () => {
    const before = await (await fetch(`${serve!.url}/metrics`, { headers: bearer })).text();
    const csv = await beneficiaryCsv('API', 6);
    const mismatched = `${csv.text}API-999,${csv.lines[0]!.split(',')[1]},${csv.lines[0]!.split(',')[2]},"Somebody Else Entirely"\n`;
    const response = await uploadCsv(serve!.url, 'partners.csv', mismatched, bearer);
    expect(response.status).toBe(202);
    const { batchId } = (await response.json()) as { batchId: string };
    expect(batchId).toMatch(/^b\d{8}-\d{6}-[0-9a-f]{6}$/);

    const view = await waitFor(
      async () => {
        const batch = await getJson<{ state: string; counts: Record<string, number>; percent: number; rows: number }>(
          `${serve!.url}/api/batches/${batchId}`,
          basic,
        );
        return batch.state === 'reported' && batch;
      },
      60_000,
      'the uploaded batch to be reported',
    );
    expect(view).toMatchObject({ rows: 7, percent: 100, counts: { MATCH: 6, NO_MATCH: 1 } });
    const list = await getJson<{ batches: Array<{ batchId: string }> }>(`${serve!.url}/api/batches`, bearer);
    expect(list.batches[0]!.batchId).toBe(batchId);

    const review = await getJson<{ rows: Array<Record<string, unknown>>; next: number | null }>(
      `${serve!.url}/api/batches/${batchId}/review`,
      bearer,
    );
    expect(review.next).toBeNull();
    expect(review.rows).toHaveLength(1);
    expect(review.rows[0]).toMatchObject({ row: 7, reference: 'API-999', result: 'NO_MATCH', expectedName: 'Somebody Else Entirely' });
    const fullAccount = csv.lines[0]!.split(',')[2]!;
    expect(review.rows[0]!.accountNumber).toBe(`${'*'.repeat(fullAccount.length - 4)}${fullAccount.slice(-4)}`);
    expect(JSON.stringify(review)).not.toContain(fullAccount);

    const after = await (await fetch(`${serve!.url}/metrics`, { headers: bearer })).text();
    // 6 distinct accounts (the mismatched row repeats the first account): 6 calls.
    expect(sample(after, 'beneficiary_check_inquiry_calls_total') - sample(before, 'beneficiary_check_inquiry_calls_total')).toBe(6);
    expect(
      sample(after, 'beneficiary_check_rows_total{result="MATCH"}') - sample(before, 'beneficiary_check_rows_total{result="MATCH"}'),
    ).toBe(6);
    expect(
      sample(after, 'beneficiary_check_rows_total{result="NO_MATCH"}') - sample(before, 'beneficiary_check_rows_total{result="NO_MATCH"}'),
    ).toBe(1);
    expect(sample(after, 'beneficiary_check_logins_total{outcome="success"}')).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/bullmq_job_count\{queue="inquiries-sandbox-[0-9a-f]+", state="waiting"\} 0/);
    expect(after).toContain('beneficiary_check_inquiry_duration_seconds_bucket');
    // One HELP and TYPE line per family, even with three queues exported.
    expect(after.split('\n').filter((line) => line === '# TYPE bullmq_job_count gauge')).toHaveLength(1);

    const report = await fetch(`${serve!.url}/api/batches/${batchId}/report.csv`, { headers: bearer });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-disposition')).toContain('.reconciled.csv');
    expect(await report.text()).toContain(fullAccount);
  });

  it('masks account numbers in every free text it shows: written with separators in a reference, in the file name, in paths', async () => {
    const csv = await beneficiaryCsv('MSK', 2);
    const [, bank, account] = csv.lines[0]!.split(',');
    // The reference column holds an account number written as the product itself accepts one: with spaces.
    const text = `reference,bank_code,account_number,beneficiary_name\n"ref 5270 1234 56",${bank},${account},"Somebody Else Entirely"\n`;
    const response = await uploadCsv(serve!.url, 'payroll 5270123456.csv', text, bearer);
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as { batchId: string; report: string };
    expect(accepted.report).toContain('payroll ******3456.reconciled.csv');
    const { batchId } = accepted;
    await waitFor(
      async () => (await getJson<{ state: string }>(`${serve!.url}/api/batches/${batchId}`, bearer)).state === 'reported',
      60_000,
      'the batch to be reported',
    );
    const shown = [
      await (await fetch(`${serve!.url}/api/batches`, { headers: bearer })).text(),
      await (await fetch(`${serve!.url}/api/batches/${batchId}`, { headers: bearer })).text(),
      await (await fetch(`${serve!.url}/api/batches/${batchId}/review`, { headers: bearer })).text(),
      await (await fetch(`${serve!.url}/`, { headers: bearer })).text(),
      await (await fetch(`${serve!.url}/batches/${batchId}`, { headers: bearer })).text(),
    ].join('\n');
    expect(shown).not.toMatch(/5270123456|5270 1234 56/);
    expect(shown).not.toContain(account!);
    const view = await getJson<{ source: { name: string; file: string }; report: string }>(`${serve!.url}/api/batches/${batchId}`, bearer);
    expect(view.source.name).toBe('payroll ******3456.csv');
    expect(view.source.file).toMatch(/--payroll \*{6}3456\.csv$/);
    expect(view.report).toMatch(/--payroll \*{6}3456\.reconciled\.csv$/);
    const review = await getJson<{ rows: Array<{ reference: string }> }>(`${serve!.url}/api/batches/${batchId}/review`, bearer);
    expect(review.rows[0]!.reference).toBe('ref ******3456');
    // The download is the user's own full report, under its real name.
    const report = await fetch(`${serve!.url}/api/batches/${batchId}/report.csv`, { headers: bearer });
    expect(await report.text()).toContain('ref 5270 1234 56');
  });

  it('serves bull-board at /queues, read-only, with account keys masked', async () => {
    const page = await fetch(`${serve!.url}/queues`, { headers: bearer });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
    const queues = await getJson<{ queues: Array<{ name: string; readOnlyMode: boolean }> }>(
      `${serve!.url}/queues/api/queues?activeQueue=&page=1&jobsPerPage=10`,
      bearer,
    );
    const names = queues.queues.map((queue) => queue.name);
    expect(names.some((name) => name.startsWith('inquiries-sandbox-'))).toBe(true);
    expect(names).toContain('scheduled-validation');
    expect(queues.queues.every((queue) => queue.readOnlyMode)).toBe(true);
  });

  it('read-only is read-only: pause all, pause, retry and clean are refused (403) and nothing is paused', async () => {
    const queues = await getJson<{ queues: Array<{ name: string }> }>(
      `${serve!.url}/queues/api/queues?activeQueue=&page=1&jobsPerPage=10`,
      bearer,
    );
    const inquiries = queues.queues.find((queue) => queue.name.startsWith('inquiries-sandbox-'))!.name;
    for (const path of [
      '/queues/api/queues/pause',
      `/queues/api/queues/${inquiries}/pause`,
      `/queues/api/queues/${inquiries}/retry/failed`,
      `/queues/api/queues/${inquiries}/clean/completed`,
      '/queues/api/queues/resume',
    ]) {
      const response = await fetch(`${serve!.url}${path}`, { method: 'PUT', headers: bearer });
      expect(response.status, path).toBe(403);
      expect(((await response.json()) as { error: string }).error).toContain('read-only: start `serve --queue-actions`');
    }
    const queue = new Queue(inquiries, { connection: redis, prefix: redisKeys(prefix).bullPrefix() });
    expect(await queue.isPaused()).toBe(false);
    await queue.close();
  });

  it('refuses what is not a CSV or a workbook, a file over the limit, and a cross-site upload', async () => {
    const notCsv = await uploadCsv(serve!.url, 'payouts.pdf', '%PDF', bearer);
    expect(notCsv.status).toBe(415);
    expect(((await notCsv.json()) as { error: string }).error).toContain('only CSV (.csv) and Excel workbooks (.xlsx)');
    const big = await uploadCsv(serve!.url, 'big.csv', `bank_code,account_number\n${'014,0012345678\n'.repeat(1_000)}`, bearer);
    expect(big.status).toBe(413);
    const crossSite = await uploadCsv(serve!.url, 'x.csv', 'bank_code,account_number\n014,0012345678\n', {
      ...bearer,
      origin: 'http://elsewhere.example',
    });
    expect(crossSite.status).toBe(403);
    const missingColumn = await uploadCsv(serve!.url, 'nocol.csv', 'name\nBudi\n', bearer);
    expect(missingColumn.status).toBe(422);
    expect(((await missingColumn.json()) as { error: string }).error).toContain('required column(s) missing');
  });
});
