import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { loadConfig, type ProviderSettings } from '../../src/config/index.js';
import { createLogger } from '../../src/logging/logger.js';
import { createHttpClient } from '../../src/provider/http.js';
import { login } from '../../src/provider/login.js';
import { SharedTokenSession } from '../../src/provider/token.js';
import { redisKeys } from '../../src/redis/keys.js';
import { LoginRejectedError, LoginUnavailableError } from '../../src/errors.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

const prefix = testKeyPrefix();
const redis = testRedis();
const connections = [redis];
let sandbox: SandboxServer;
const silent = createLogger('silent');

function providerSettings(overrides: Record<string, string> = {}): ProviderSettings {
  return loadConfig({}, { H2H_BASE_URL: sandbox.url, H2H_USERNAME: 'sandbox', H2H_PASSWORD: 'sandbox', ...overrides }).provider;
}

/** A session as one process would have it: its own Redis connection and HTTP client. */
function processSession(provider: ProviderSettings, keyPrefix = prefix): SharedTokenSession {
  const connection = testRedis();
  connections.push(connection);
  const http = createHttpClient(provider.requestTimeoutMs);
  return new SharedTokenSession(connection, redisKeys(keyPrefix), provider, () => login(http, provider), silent, provider.requestTimeoutMs);
}

beforeAll(async () => {
  sandbox = await startSandbox({ loginLatencyMs: 200, accounts: [] });
});

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  for (const connection of connections) connection.disconnect();
});

describe('SharedTokenSession', () => {
  it('logs in once for 8 "processes" x 16 concurrent callers', async () => {
    sandbox.resetStats();
    const provider = providerSettings();
    const sessions = Array.from({ length: 8 }, () => processSession(provider));
    const tokens = await Promise.all(sessions.flatMap((session) => Array.from({ length: 16 }, () => session.token())));
    expect(new Set(tokens).size).toBe(1);
    expect(sandbox.stats().logins).toBe(1);
  });

  it('refreshes before expiry, once, from the lifetime the provider gave', async () => {
    sandbox.setKnobs({ tokenLifetimeSeconds: 3, loginLatencyMs: 0 });
    const ownPrefix = testKeyPrefix();
    try {
      sandbox.resetStats();
      const sessions = Array.from({ length: 4 }, () => processSession(providerSettings(), ownPrefix));
      const first = await sessions[0]!.token();
      expect(await sessions[3]!.token()).toBe(first);
      // 3 s tokens refresh at nineteen twentieths of their lifetime: 2.85 s (the refresh time is what is tested).
      await new Promise((resolve) => setTimeout(resolve, 2_900));
      // While one process logs in, the others keep using the still-valid token; then all use the new one.
      await Promise.all(sessions.map((session) => session.token()));
      const refreshed = await waitFor(
        async () => {
          const tokens = await Promise.all(sessions.map((session) => session.token()));
          return new Set(tokens).size === 1 && tokens[0] !== first && tokens;
        },
        5_000,
        'every process to use the new token',
        50,
      );
      expect(new Set(refreshed).size).toBe(1);
      expect(refreshed[0]).not.toBe(first);
      expect(sandbox.stats().logins).toBe(2);
    } finally {
      sandbox.setKnobs({ tokenLifetimeSeconds: 3600, loginLatencyMs: 200 });
      await deleteKeys(redis, ownPrefix);
    }
  });

  it('drops a refused token only if it is still the cached one (compare-and-delete)', async () => {
    const ownPrefix = testKeyPrefix();
    try {
      sandbox.resetStats();
      const [a, b] = [processSession(providerSettings(), ownPrefix), processSession(providerSettings(), ownPrefix)];
      const stale = await a.token();
      await a.invalidate(stale);
      const fresh = await b.token();
      expect(fresh).not.toBe(stale);
      // A late 401 for the old token must not throw away the new one.
      await b.invalidate(stale);
      expect(await a.token()).toBe(fresh);
      expect(sandbox.stats().logins).toBe(2);
    } finally {
      await deleteKeys(redis, ownPrefix);
    }
  });

  it('a stored token it cannot open (password changed, value altered) counts as none: one login replaces it', async () => {
    const ownPrefix = testKeyPrefix();
    try {
      sandbox.resetStats();
      const first = await processSession(providerSettings(), ownPrefix).token();
      const [key] = (await redis.keys(`${ownPrefix}:token:*`)).filter((name) => !name.endsWith(':lock'));
      const stored = JSON.parse((await redis.get(key!))!) as { sealed: string };
      // What a process with another H2H_PASSWORD sees: a value sealed under a key it does not have.
      await redis.set(
        key!,
        JSON.stringify({ ...stored, sealed: stored.sealed.replace(/\.([\w-])/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`) }),
        'PX',
        60_000,
      );
      const again = await processSession(providerSettings(), ownPrefix).token();
      expect(again).not.toBe(first);
      expect(sandbox.stats().logins).toBe(2);
      expect(JSON.parse((await redis.get(key!))!).sealed).not.toBe(stored.sealed);
    } finally {
      await deleteKeys(redis, ownPrefix);
    }
  });

  it('keeps sandbox and production tokens apart in one Redis', async () => {
    const ownPrefix = testKeyPrefix();
    sandbox.resetStats();
    const sandboxToken = await processSession(providerSettings({ H2H_ENV: 'sandbox' }), ownPrefix).token();
    const productionToken = await processSession(providerSettings({ H2H_ENV: 'production' }), ownPrefix).token();
    expect(productionToken).not.toBe(sandboxToken);
    expect(sandbox.stats().logins).toBe(2);
    const tokenKeys = await redis.keys(`${ownPrefix}:token:*`);
    await deleteKeys(redis, ownPrefix);
    expect(tokenKeys.filter((key) => !key.endsWith(':lock') && !key.endsWith(':login-failure')).sort()).toEqual([
      expect.stringContaining(`${ownPrefix}:token:{production:`),
      expect.stringContaining(`${ownPrefix}:token:{sandbox:`),
    ]);
  });

  it('records a rejected login for every process to see, with one login call', async () => {
    const ownPrefix = testKeyPrefix();
    try {
      sandbox.resetStats();
      const session = processSession(providerSettings({ H2H_PASSWORD: 'wrong' }), ownPrefix);
      await expect(session.token()).rejects.toThrow(LoginRejectedError);
      const other = processSession(providerSettings({ H2H_PASSWORD: 'wrong' }), ownPrefix);
      expect(await other.lastLoginFailure()).toMatchObject({ rejected: true, message: 'login failed: Invalid username or password' });
      expect(sandbox.stats()).toMatchObject({ failedLogins: 1, logins: 0 });
      // The password put right: that failure is not this process's, and it logs in.
      const corrected = processSession(providerSettings(), ownPrefix);
      expect(await corrected.lastLoginFailure()).toBeUndefined();
      await corrected.token();
      expect(sandbox.stats()).toMatchObject({ logins: 1 });
    } finally {
      await deleteKeys(redis, ownPrefix);
    }
  });

  it('sends the login as a form when configured', async () => {
    sandbox.resetStats();
    const provider = providerSettings({ H2H_LOGIN_BODY: 'form' });
    const token = await login(createHttpClient(5_000), provider);
    expect(token.token.split('.')).toHaveLength(3);
    expect(sandbox.stats().logins).toBe(1);
  });
});

describe('log redaction', () => {
  it('logs an HTTP client error (and one wrapped in a cause) without its request body or headers', async () => {
    let output = '';
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          output += chunk.toString();
          done();
        },
      }),
    );
    const http = createHttpClient(1_000);
    const error = await http
      .post('http://127.0.0.1:1/api/login', { json: { username: 'u', password: 'hunter4' } }, { authorization: 'Bearer eyJjkl' })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    logger.error({ err: error }, 'raw');
    logger.error({ err: new LoginUnavailableError('cannot reach', { cause: error }) }, 'wrapped');
    expect(output).toContain('ECONNREFUSED');
    expect(output).not.toMatch(/hunter4|eyJ/);
  });

  it('never writes passwords, tokens or authorization headers', () => {
    let output = '';
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const logger = createLogger('info', capture);
    logger.info({ password: 'hunter2', token: 'eyJhbGciOi.secret.sig', headers: { authorization: 'Bearer eyJabc' } }, 'request');
    logger.info({ request: { headers: { authorization: 'Bearer eyJdef' }, password: 'hunter3' } }, 'nested');
    logger.info({ body: { data: { access_token: 'eyJghi' } } }, 'login answer');
    expect(output).not.toMatch(/hunter|eyJ/);
    expect(output.match(/\[redacted\]/g)).toHaveLength(6);
  });
});
