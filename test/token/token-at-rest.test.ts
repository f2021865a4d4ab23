import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';

const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-token-at-rest-'));
});

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

describe('the access token in Redis', () => {
  it('is stored sealed: the key holds no copy of the token the provider issued, and a second process still uses it', async () => {
    const env = cliEnvironment({
      REDIS_URL: TEST_REDIS_URL,
      BC_KEY_PREFIX: prefix,
      H2H_BASE_URL: sandbox.url,
      H2H_USERNAME: 'sandbox',
      H2H_PASSWORD: 'sandbox',
      INQUIRY_RATE: '200/s',
    });
    const first = await runCli(['run', 'examples/beneficiaries.csv', '--out', join(workDir, 'first.csv')], env);
    expect(first.code).toBe(0);
    const issued = sandbox.issuedTokens();
    expect(issued).toHaveLength(1);
    const [token] = issued as [string];

    const tokenKeys = (await redis.keys(`${prefix}:token:*`)).filter((key) => !key.endsWith(':lock') && !key.endsWith(':login-failure'));
    expect(tokenKeys).toHaveLength(1);
    const stored = (await redis.get(tokenKeys[0]!))!;
    expect(stored).not.toContain(token);
    // Not even the signature, nor the claims: nothing of the token can be put together from Redis.
    for (const part of token.split('.').slice(1)) expect(stored).not.toContain(part);
    expect(JSON.parse(stored)).toEqual({ sealed: expect.stringMatching(/^v1\./), id: expect.any(String), marginMs: expect.any(Number) });

    // Another process with the same credentials opens it: no second login.
    sandbox.resetStats();
    const { batchId } = JSON.parse(await readFile(join(workDir, 'first.summary.json'), 'utf8')) as { batchId: string };
    const second = await runCli(['resume', batchId, '--out', join(workDir, 'second.csv')], env);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('logging in again');
    expect(sandbox.stats().inquiries).toBeGreaterThan(0);
    expect(sandbox.stats().logins).toBe(0);
  });
});
