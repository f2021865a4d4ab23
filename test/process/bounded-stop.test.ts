import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, uploadCsv } from '../console/console-helpers.js';
import { cliEnvironment, startCli, waitForExit } from '../support/cli.js';
import { startMisbehavingProvider, type MisbehavingProvider } from '../support/misbehaving-provider.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

/**
 * A stop ends within SHUTDOWN_TIMEOUT whatever the provider does: here it never answers, and the
 * request timeout (H2H_TIMEOUT) is five minutes. The inquiries in flight are abandoned (their jobs come
 * back to the queue when their locks expire); the process does not wait for them.
 */
const CSV = 'bank_code,account_number,name\n014,0012345601,Budi Santoso\n014,0012345602,Dewi Lestari\n';
const redis = testRedis();
const prefixes: string[] = [];
let provider: MisbehavingProvider;
let workDir: string;

function environment(): NodeJS.ProcessEnv {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  return cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: provider.url,
    H2H_USERNAME: 'u',
    H2H_PASSWORD: 'p',
    RUN_WORKER_PROCESSES: '0',
    H2H_TIMEOUT: '300000ms',
    SHUTDOWN_TIMEOUT: '2s',
    CONSOLE_REPORTS_DIR: join(workDir, `reports-${prefix}`),
  });
}

beforeAll(async () => {
  // Every inquiry hangs: the answer never comes.
  provider = await startMisbehavingProvider(() => undefined);
  workDir = await mkdtemp(join(tmpdir(), 'bc-bounded-stop-'));
});

afterAll(async () => {
  await provider.close();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('a stop with calls hanging at the provider', () => {
  it('run: SIGTERM exits 143 within SHUTDOWN_TIMEOUT, not after the request timeout', async () => {
    const file = join(workDir, 'hanging.csv');
    await writeFile(file, CSV);
    const before = provider.counts.inquiries;
    const run = startCli(['run', file, '--out', join(workDir, 'hanging.out.csv')], environment());
    await waitFor(() => provider.counts.inquiries >= before + 2, 30_000, 'two hanging calls');
    run.kill('SIGTERM');
    expect(await waitForExit(run)).toBe(143);
    expect(run.output().stderr).toContain('still in flight after SHUTDOWN_TIMEOUT');
  });

  it('serve: SIGTERM with an uploaded batch hanging exits within SHUTDOWN_TIMEOUT', async () => {
    const serve = await startServe([], environment());
    const before = provider.counts.inquiries;
    expect((await uploadCsv(serve.url, 'hanging.csv', CSV)).status).toBe(202);
    await waitFor(() => provider.counts.inquiries >= before + 2, 30_000, 'two hanging calls');
    serve.kill('SIGTERM');
    expect(await waitForExit(serve)).toBe(0);
    expect(serve.output().stderr).toContain('still in flight after SHUTDOWN_TIMEOUT');
  });
});
