import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { emulatorEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { beneficiaryCsv } from '../ops/ops-helpers.js';

/** Completion notices from `run` to a local receiver: once per batch and signed; retried after a 500; never holding up the report. */
const SECRET = 'notice-test-secret';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  /** Whether the report the notice names was on disk when the notice arrived. */
  reportExisted: boolean;
  response: ServerResponse;
}

const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;
let receiver: Server;
let receiverUrl: string;
let mode: 'ok' | 'fail-first' | 'hang' = 'ok';
let received: Received[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-notices-'));
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const report = (JSON.parse(body) as { report: string }).report;
      received.push({ headers: request.headers, body, reportExisted: existsSync(report), response });
      if (mode === 'hang') return; // never answers
      response.statusCode = mode === 'fail-first' && received.length === 1 ? 500 : 200;
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/batches`;
});

afterEach(() => {
  for (const { response } of received) if (!response.writableEnded) response.destroy();
  received = [];
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) =>
  emulatorEnvironment(prefix, sandbox.url, {
    INQUIRY_RATE: '100/s',
    NOTIFY_WEBHOOK_URL: receiverUrl,
    NOTIFY_WEBHOOK_SECRET: SECRET,
    NOTIFY_WEBHOOK_BACKOFF: '200ms',
    ...extra,
  });

async function inputFile(label: string): Promise<{ input: string; out: string }> {
  const input = join(workDir, `${label}.csv`);
  await writeFile(input, (await beneficiaryCsv(label.toUpperCase(), 4)).text);
  return { input, out: join(workDir, `${label}.reconciled.csv`) };
}

/** The signature a receiver computes: over `<timestamp header>.<raw body>` (docs/console.md, "Completion notices"). */
const signatureOf = (notice: Pick<Received, 'headers' | 'body'>) =>
  `sha256=${createHmac('sha256', SECRET)
    .update(`${String(notice.headers['x-beneficiary-check-timestamp'])}.${notice.body}`)
    .digest('hex')}`;

describe('completion notices', () => {
  it('POSTs one signed JSON notice per finished batch', async () => {
    mode = 'ok';
    const { input, out } = await inputFile('once');
    const result = await runCli(['run', input, '--out', out], env({}));
    expect(result.code).toBe(0);
    expect(received).toHaveLength(1);
    const [notice] = received;
    expect(notice!.headers['x-beneficiary-check-signature']).toBe(signatureOf(notice!));
    expect(notice!.headers['content-type']).toBe('application/json');
    const document = JSON.parse(notice!.body);
    expect(document).toMatchObject({
      event: 'batch.finished',
      rows: 4,
      report: out,
      environment: 'sandbox',
      source: { file: input, name: 'once.csv' },
    });
    expect(document.counts.MATCH).toBe(4);
    expect(document.batchId).toMatch(/^b\d{8}-/);
    expect(Date.parse(document.finishedAt)).toBeGreaterThanOrEqual(Date.parse(document.startedAt));
    expect(notice!.reportExisted).toBe(true);

    // The same finished batch exported again is no new finish: no second notice.
    const exported = await runCli(['export', document.batchId, '--out', join(workDir, 'again.csv')], env({}));
    expect(exported.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received).toHaveLength(1);
  });

  it('retries when the receiver answers 500, with the same body, signature and delivery id', async () => {
    mode = 'fail-first';
    const { input, out } = await inputFile('retry');
    const result = await runCli(['run', input, '--out', out], env({ NOTIFY_RUN_WAIT: '20s' }));
    expect(result.code).toBe(0);
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toBe(received[0]!.body);
    expect(received[1]!.headers['x-beneficiary-check-signature']).toBe(signatureOf(received[1]!));
    expect(received[1]!.headers['x-beneficiary-check-delivery']).toBe(received[0]!.headers['x-beneficiary-check-delivery']);
    expect(result.stderr).not.toContain('not delivered within');
  });

  it('signs the timestamp with the body: the timestamp is the time of sending, and a replay with another timestamp does not verify', async () => {
    mode = 'ok';
    const { input, out } = await inputFile('stamped');
    const before = Math.floor(Date.now() / 1000);
    const result = await runCli(['run', input, '--out', out], env({}));
    expect(result.code).toBe(0);
    expect(received).toHaveLength(1);
    const [notice] = received;
    const timestamp = Number(notice!.headers['x-beneficiary-check-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(notice!.headers['x-beneficiary-check-signature']).toBe(signatureOf(notice!));
    // The body alone no longer verifies, nor the same body and signature under a later timestamp (a replay).
    expect(notice!.headers['x-beneficiary-check-signature']).not.toBe(
      `sha256=${createHmac('sha256', SECRET).update(notice!.body).digest('hex')}`,
    );
    const replayed = { ...notice!, headers: { ...notice!.headers, 'x-beneficiary-check-timestamp': String(timestamp + 3600) } };
    expect(notice!.headers['x-beneficiary-check-signature']).not.toBe(signatureOf(replayed));
  });

  it('a URL with credentials: delivered with HTTP basic authentication; no log line shows the password or a token in the query', async () => {
    mode = 'fail-first';
    const { input, out } = await inputFile('credentials');
    const withCredentials = `${receiverUrl.replace('http://', 'http://ops:s3cret-pw@')}?token=t0ken-in-query`;
    const result = await runCli(
      ['run', input, '--out', out],
      env({ NOTIFY_WEBHOOK_URL: withCredentials, NOTIFY_RUN_WAIT: '20s', LOG_LEVEL: 'debug' }),
    );
    expect(result.code).toBe(0);
    expect(received).toHaveLength(2);
    expect(received[1]!.headers.authorization).toBe(`Basic ${Buffer.from('ops:s3cret-pw').toString('base64')}`);
    expect(result.stderr).toContain('completion notice not delivered');
    expect(result.stderr).not.toContain('s3cret-pw');
    expect(result.stderr).not.toContain('t0ken-in-query');
    // A URL refused at start is shown without its secrets either.
    const refused = await runCli(
      ['run', input, '--out', out],
      env({ NOTIFY_WEBHOOK_URL: 'ftp://ops:s3cret-pw@hooks.example/in?token=t0ken-in-query' }),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('NOTIFY_WEBHOOK_URL must be an http(s) address, not "ftp://ops:***@hooks.example/in?token=***"');
    expect(refused.stderr).not.toMatch(/s3cret-pw|t0ken-in-query/);
  });

  it('names the file and the report masked, like every free text: an account number in a file name is not sent', async () => {
    mode = 'ok';
    const input = join(workDir, 'payroll 5270 1234 56.csv');
    await writeFile(input, (await beneficiaryCsv('MASKED', 4)).text);
    const out = join(workDir, 'payroll 5270123456.reconciled.csv');
    const result = await runCli(['run', input, '--out', out], env({}));
    expect(result.code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]!.body).not.toMatch(/5270123456|5270 1234 56/);
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      source: { name: 'payroll ******3456.csv', file: join(workDir, 'payroll ******3456.csv') },
      report: join(workDir, 'payroll ******3456.reconciled.csv'),
    });
  });

  it('writes the report on time and exits when the receiver hangs; the notice stays queued', async () => {
    mode = 'hang';
    const { input, out } = await inputFile('hang');
    const result = await runCli(['run', input, '--out', out], env({ NOTIFY_WEBHOOK_TIMEOUT: '60000ms', NOTIFY_RUN_WAIT: '1s' }));
    expect(result.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    // The receiver got the notice after the report was on disk, and run ended while it still had no answer.
    expect(received).toHaveLength(1);
    expect(received[0]!.reportExisted).toBe(true);
    expect(received[0]!.response.writableEnded).toBe(false);
    expect(result.stderr).toContain('completion notice was not delivered within 1s: it stays queued');
  });
});
