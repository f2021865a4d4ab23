import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSandboxAccounts, startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { waitFor } from '../support/wait.js';

const FIXTURE = fileURLToPath(new URL('../../examples/sandbox-accounts.csv', import.meta.url));
const UPDATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

interface Reply {
  status: number;
  headers: Headers;
  /** Loosely typed on purpose: assertions read arbitrary JSON paths. */
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary JSON paths
  body: any;
}

async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Non-JSON bodies (502 HTML) stay as text.
  }
  return { status: res.status, headers: res.headers, body };
}

const loginJson = (base: string, username = 'sandbox', password = 'sandbox'): Promise<Reply> =>
  call(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });

async function token(base: string): Promise<string> {
  const reply = await loginJson(base);
  expect(reply.status).toBe(200);
  return reply.body.data.access_token as string;
}

const inquire = (base: string, auth: string | null, body: unknown, signal?: AbortSignal): Promise<Reply> =>
  call(`${base}/api/transfer/inquiry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth === null ? {} : { authorization: `Bearer ${auth}` }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });

const decodeJwtPart = (part: string | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('sandbox emulator', () => {
  let sandbox: SandboxServer;
  let base: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ accountsFile: FIXTURE, seed: 7 });
    base = sandbox.url;
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    sandbox.setKnobs({ rateLimit: null, serverErrorRate: 0, hangRate: 0, loginFailure: null, tokenLifetimeSeconds: 3600 });
    sandbox.resetStats();
  });

  describe('login', () => {
    it('accepts a JSON body and returns a real HS256 JWT', async () => {
      const reply = await loginJson(base);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ error: false, message: 'Login success' });
      expect(reply.body.data).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
      const parts = (reply.body.data.access_token as string).split('.');
      expect(parts).toHaveLength(3);
      expect(decodeJwtPart(parts[0])).toEqual({ alg: 'HS256', typ: 'JWT' });
      const claims = decodeJwtPart(parts[1]);
      expect(claims.sub).toBe('sandbox');
      expect(typeof claims.jti).toBe('string');
      // exp is rounded up to the next whole second, so the token lives at least expires_in.
      expect((claims.exp as number) - Date.now() / 1000).toBeGreaterThanOrEqual(3599.5);
      expect((claims.exp as number) - (claims.iat as number)).toBeGreaterThanOrEqual(3600);
      expect((claims.exp as number) - (claims.iat as number)).toBeLessThanOrEqual(3601);
      expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(5);
      expect(sandbox.stats().logins).toBe(1);
    });

    it('accepts a form-encoded body', async () => {
      const reply = await call(`${base}/api/login`, {
        method: 'POST',
        body: new URLSearchParams({ username: 'sandbox', password: 'sandbox' }),
      });
      expect(reply.status).toBe(200);
      expect(reply.body.data.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    });

    it('answers wrong credentials with 401 and no `error` field', async () => {
      const reply = await loginJson(base, 'sandbox', 'wrong');
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ status: 'error', message: 'Invalid username or password', data: null });
      expect(sandbox.stats()).toMatchObject({ logins: 0, failedLogins: 1 });
    });

    it('fails on demand with 500 or 503', async () => {
      sandbox.setKnobs({ loginFailure: 'server_error' });
      const serverError = await loginJson(base);
      expect(serverError.status).toBe(500);
      expect(serverError.body.error).toBe(true);
      sandbox.setKnobs({ loginFailure: 'unavailable' });
      expect((await loginJson(base)).status).toBe(503);
      expect(sandbox.stats().failedLogins).toBe(2);
    });

    it('puts tokenLifetimeSeconds into expires_in and the JWT', async () => {
      sandbox.setKnobs({ tokenLifetimeSeconds: 120 });
      const reply = await loginJson(base);
      expect(reply.body.data.expires_in).toBe(120);
      const claims = decodeJwtPart((reply.body.data.access_token as string).split('.')[1]);
      expect([120, 121]).toContain((claims.exp as number) - (claims.iat as number));
    });
  });

  describe('inquiry', () => {
    it('returns every record field on success, echoing the request', async () => {
      const auth = await token(base);
      const first = await inquire(base, auth, { bank_code: '014', account_number: '0012345678' });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ error: false, message: 'Inquiry success' });
      expect(first.body.data).toEqual({
        id: expect.any(Number),
        bank_code: '014',
        account_number: '0012345678',
        account_holder: 'BUDI SANTOSO',
        status: 'SUCCESS',
        updated_at: expect.stringMatching(UPDATED_AT),
        name: 'BCA',
        fee: '6500',
      });
      expect(Math.abs(Date.parse(first.body.data.updated_at as string) - Date.now())).toBeLessThan(5000);
      const second = await inquire(base, auth, { bank_code: '009', account_number: '1122334455' });
      expect(second.body.data.id).toBeGreaterThan(first.body.data.id as number);
    });

    it('returns non-SUCCESS statuses as they are', async () => {
      const auth = await token(base);
      const reply = await inquire(base, auth, { bank_code: '014', account_number: '0987612345' });
      expect(reply.body.error).toBe(false);
      expect(reply.body.data.status).toBe('PENDING');
    });

    it('echoes a different account number for echo_mismatch', async () => {
      const auth = await token(base);
      const reply = await inquire(base, auth, { bank_code: '014', account_number: '0223344556' });
      expect(reply.body.error).toBe(false);
      expect(reply.body.data.account_number).toBe('0223344557');
    });

    it('answers business rejections with HTTP 200 and error true', async () => {
      const auth = await token(base);
      const ask = (body: unknown): Promise<Reply> => inquire(base, auth, body);

      const required = { error: true, message: 'The bank code and account number are required.', data: null };
      expect((await ask({ bank_code: '014' })).body).toEqual(required);
      expect((await ask({ bank_code: '014', account_number: 12345678 })).body).toEqual(required);
      expect((await ask({ bank_code: '999', account_number: '123' })).body).toEqual({
        error: true,
        message: 'Bank not supported',
        data: null,
      });

      const unknown = await ask({ bank_code: '014', account_number: '0000000001' });
      expect(unknown.status).toBe(200);
      expect(unknown.body).toMatchObject({ error: true, message: 'Account not found' });
      expect(unknown.body.data).toMatchObject({
        bank_code: '014',
        account_number: '0000000001',
        account_holder: null,
        status: 'FAILED',
      });
      const flagged = await ask({ bank_code: '002', account_number: '055501000333444' });
      expect(flagged.body).toMatchObject({ error: true, message: 'Account not found' });
      expect((await ask({ bank_code: '008', account_number: '1310099988877' })).body).toEqual({
        error: true,
        message: 'Account closed',
        data: null,
      });
      expect(sandbox.stats().answeredInquiries).toBe(6);
    });

    it('answers 401 for a missing, malformed, foreign, expired or revoked token', async () => {
      const body = { bank_code: '014', account_number: '0012345678' };
      const unauthenticated = { error: true, message: 'Unauthenticated.' };
      expect((await inquire(base, null, body)).body).toEqual(unauthenticated);
      expect((await inquire(base, 'not-a-jwt', body)).status).toBe(401);

      const other = await startSandbox();
      const foreign = await token(other.url);
      await other.close();
      expect((await inquire(base, foreign, body)).status).toBe(401);

      const revoked = await token(base);
      expect((await inquire(base, revoked, body)).status).toBe(200);
      sandbox.revokeAllTokens();
      expect((await inquire(base, revoked, body)).status).toBe(401);
      expect((await inquire(base, await token(base), body)).status).toBe(200);

      sandbox.setKnobs({ tokenLifetimeSeconds: 1 });
      const shortLived = await token(base);
      await sleep(2100); // the token's lifetime running out is what is tested
      const expired = await inquire(base, shortLived, body);
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual(unauthenticated);
      expect(sandbox.stats().unauthorized).toBe(5);
    });

    it('rate-limits with 429 and Retry-After, and reports the peak window', async () => {
      const auth = await token(base);
      sandbox.setKnobs({ rateLimit: { max: 3, windowMs: 1000 } });
      const body = { bank_code: '014', account_number: '0012345678' };
      const replies = await Promise.all(Array.from({ length: 5 }, () => inquire(base, auth, body)));
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      for (const limited of replies.filter((r) => r.status === 429)) {
        expect(limited.body).toEqual({ error: true, message: 'Too Many Attempts.' });
        const retryAfter = limited.headers.get('retry-after');
        expect(retryAfter).toMatch(/^\d+$/);
        expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      }
      const stats = sandbox.stats();
      expect(stats).toMatchObject({ inquiries: 5, answeredInquiries: 3, rateLimited: 2, maxInquiriesInAnyWindow: 5 });
      await sleep(1050); // the window sliding past is what is tested (polling would add requests to it)
      expect((await inquire(base, auth, body)).status).toBe(200);
    });

    it('answers 500/502/503 when serverErrorRate is 1', async () => {
      const auth = await token(base);
      sandbox.setKnobs({ serverErrorRate: 1 });
      const replies = await Promise.all(
        Array.from({ length: 12 }, () => inquire(base, auth, { bank_code: '014', account_number: '0012345678' })),
      );
      for (const reply of replies) expect([500, 502, 503]).toContain(reply.status);
      expect(sandbox.stats()).toMatchObject({ serverErrors: 12, answeredInquiries: 0, inquiries: 12 });
    });

    it('applies latency', async () => {
      const auth = await token(base);
      sandbox.setKnobs({ latencyMs: { min: 150, max: 150 } });
      const started = Date.now();
      expect((await inquire(base, auth, { bank_code: '014', account_number: '0012345678' })).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      sandbox.setKnobs({ latencyMs: { min: 0, max: 0 } });
    });

    it('counts answers per account', async () => {
      const auth = await token(base);
      await inquire(base, auth, { bank_code: '014', account_number: '0012345678' });
      await inquire(base, auth, { bank_code: '014', account_number: '0012345678' });
      await inquire(base, auth, { bank_code: '009', account_number: '1122334455' });
      await inquire(base, null, { bank_code: '009', account_number: '1122334455' });
      const stats = sandbox.stats();
      expect(stats.inquiriesByAccount).toEqual({ '014:0012345678': 2, '009:1122334455': 1 });
      expect(stats).toMatchObject({ inquiries: 4, answeredInquiries: 3, unauthorized: 1, logins: 1 });
      expect(stats.firstInquiryAt).toBeTypeOf('number');
      expect(stats.lastInquiryAt).toBeGreaterThanOrEqual(stats.firstInquiryAt ?? Infinity);
      sandbox.resetStats();
      expect(sandbox.stats()).toMatchObject({ inquiries: 0, inquiriesByAccount: {}, firstInquiryAt: null });
    });
  });

  describe('HTTP edges and control endpoints', () => {
    it('answers 404 for unknown routes and 400 for bad JSON', async () => {
      expect((await call(`${base}/api/nope`)).status).toBe(404);
      expect((await call(`${base}/api/transfer/inquiry`)).status).toBe(404);
      const auth = await token(base);
      const bad = await inquire(base, auth, '{"bank_code":');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(true);
    });

    it('exposes stats, knobs, revocation and reset over HTTP', async () => {
      const auth = await token(base);
      const setKnobs = await call(`${base}/__sandbox/knobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ serverErrorRate: 1 }),
      });
      expect(setKnobs.status).toBe(204);
      expect((await inquire(base, auth, { bank_code: '014', account_number: '0012345678' })).status).toBeGreaterThanOrEqual(500);
      const badKnob = await call(`${base}/__sandbox/knobs`, { method: 'POST', body: JSON.stringify({ hangRate: 2 }) });
      expect(badKnob.status).toBe(400);

      const stats = await call(`${base}/__sandbox/stats`);
      expect(stats.body).toMatchObject({ logins: 1, serverErrors: 1, inquiries: 1 });

      expect((await call(`${base}/__sandbox/revoke-tokens`, { method: 'POST' })).status).toBe(204);
      sandbox.setKnobs({ serverErrorRate: 0 });
      expect((await inquire(base, auth, { bank_code: '014', account_number: '0012345678' })).status).toBe(401);

      expect((await call(`${base}/__sandbox/reset-stats`, { method: 'POST' })).status).toBe(204);
      expect(sandbox.stats().inquiries).toBe(0);
    });
  });
});

describe('sandbox lifecycle', () => {
  it('hangs when hangRate is 1, and close() still resolves promptly', async () => {
    const sandbox = await startSandbox({ accounts: [], hangRate: 1 });
    const auth = await token(sandbox.url);
    const hung = inquire(sandbox.url, auth, { bank_code: '014', account_number: '1' }, AbortSignal.timeout(200));
    await expect(hung).rejects.toThrow();
    // A second hung request still open (no client timeout) when close() is called.
    const pending = inquire(sandbox.url, auth, { bank_code: '014', account_number: '1' }).catch(() => 'closed');
    await waitFor(() => sandbox.stats().hangs === 2, 5_000, 'the second request to hang');
    expect(sandbox.stats()).toMatchObject({ hangs: 2, answeredInquiries: 0 });
    const started = Date.now();
    await sandbox.close();
    expect(Date.now() - started).toBeLessThan(500);
    expect(await pending).toBe('closed');
  });

  it('closes promptly with keep-alive connections open', async () => {
    const sandbox = await startSandbox();
    await token(sandbox.url);
    await token(sandbox.url);
    const started = Date.now();
    await sandbox.close();
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('uses given credentials and in-memory accounts', async () => {
    const sandbox = await startSandbox({
      username: 'acme',
      password: 's3cret',
      accounts: [{ bankCode: '777', accountNumber: '42', holderName: 'ACME', status: 'SUCCESS' }],
      banks: [{ bankCode: '777', name: 'TEST BANK', fee: '1000' }],
    });
    try {
      expect((await loginJson(sandbox.url)).status).toBe(401);
      const auth = (await loginJson(sandbox.url, 'acme', 's3cret')).body.data.access_token as string;
      const reply = await inquire(sandbox.url, auth, { bank_code: '777', account_number: '42' });
      expect(reply.body.data).toMatchObject({ account_holder: 'ACME', name: 'TEST BANK', fee: '1000' });
      expect((await inquire(sandbox.url, auth, { bank_code: '014', account_number: '42' })).body.message).toBe('Bank not supported');
    } finally {
      await sandbox.close();
    }
  });

  it('rejects invalid knobs', async () => {
    await expect(startSandbox({ serverErrorRate: 1.5 })).rejects.toThrow(/serverErrorRate/);
    const sandbox = await startSandbox();
    try {
      expect(() => sandbox.setKnobs({ latencyMs: { min: 10, max: 5 } })).toThrow(/latencyMs/);
    } finally {
      await sandbox.close();
    }
  });
});

describe('loadSandboxAccounts', () => {
  it('reads the example fixture keeping leading zeros and behaviours', async () => {
    const accounts = await loadSandboxAccounts(FIXTURE);
    expect(accounts.length).toBeGreaterThanOrEqual(35);
    expect(accounts).toContainEqual({
      bankCode: '014',
      accountNumber: '0012345678',
      holderName: 'BUDI SANTOSO',
      status: 'SUCCESS',
      behaviour: 'normal',
    });
    const behaviours = new Set(accounts.map((a) => a.behaviour));
    expect([...behaviours].sort()).toEqual(['closed', 'echo_mismatch', 'normal', 'not_found']);
    expect(accounts.some((a) => a.status !== 'SUCCESS')).toBe(true);
    expect(accounts.find((a) => a.holderName.includes(','))).toBeDefined();
    const keys = accounts.map((a) => `${a.bankCode}:${a.accountNumber}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
