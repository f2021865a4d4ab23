import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, rename } from 'node:fs/promises';
import { startServe, uploadCsv } from '../console/console-helpers.js';
import { cliEnvironment, startCli, waitForExit } from '../support/cli.js';
import { sendJson, startMisbehavingProvider, type MisbehavingProvider } from '../support/misbehaving-provider.js';
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

/** `watch` on `folder`, once it has made its folders. */
async function startWatch(folder: string) {
  const watch = startCli(['watch', folder], { ...environment(), WATCH_STABLE: '1s', WATCH_POLL: '100ms' });
  await waitFor(
    async () =>
      readdir(folder).then(
        (names) => names.includes('inbox'),
        () => false,
      ),
    30_000,
    'the watched folders',
  );
  return watch;
}

describe('a stop with calls hanging at the provider', () => {
  it('run: SIGTERM exits 143 within SHUTDOWN_TIMEOUT, not after the request timeout', async () => {
    const file = join(workDir, 'hanging.csv');
    await writeFile(file, CSV);
    const before = provider.counts.inquiries;
    const run = startCli(['run', file, '--out', join(workDir, 'hanging.out.csv')], environment());
    await waitFor(() => provider.counts.inquiries >= before + 2, 30_000, 'two hanging calls');
    run.kill('SIGTERM');
    expect(await waitForExit(run)).toBe(143);
    expect(run.output().stderr).toContain('2 inquiries still in flight after SHUTDOWN_TIMEOUT');
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

  describe('while the provider login hangs', () => {
    beforeAll(() => provider.hangLogins(true));
    afterAll(() => provider.hangLogins(false));

    it('run: SIGTERM exits 143 within SHUTDOWN_TIMEOUT, naming the login it stopped waiting for', async () => {
      const file = join(workDir, 'login-hangs.csv');
      await writeFile(file, CSV);
      const before = provider.counts.logins;
      const run = startCli(['run', file, '--out', join(workDir, 'login-hangs.out.csv')], environment());
      await waitFor(() => provider.counts.logins > before, 30_000, 'a hanging login');
      run.kill('SIGTERM');
      expect(await waitForExit(run)).toBe(143);
      expect(run.output().stderr, run.output().stderr).toContain('stopped while logging in to the provider');
    });

    it('watch: SIGTERM with a file waiting on the login exits within SHUTDOWN_TIMEOUT; the file stays for the next start', async () => {
      const folder = join(workDir, 'watched');
      const before = provider.counts.logins;
      const watch = await startWatch(folder);
      await writeFile(join(folder, 'inbox', 'payouts.csv.part'), CSV);
      await rename(join(folder, 'inbox', 'payouts.csv.part'), join(folder, 'inbox', 'payouts.csv'));
      await waitFor(() => provider.counts.logins > before, 30_000, 'a hanging login');
      watch.kill('SIGTERM');
      expect(await waitForExit(watch)).toBe(0);
      const left = [...(await readdir(join(folder, 'processing'))), ...(await readdir(join(folder, 'inbox')))];
      expect(left.some((name) => name.includes('payouts'))).toBe(true);
    });

    it('serve: SIGTERM with an upload waiting on the login exits within SHUTDOWN_TIMEOUT', async () => {
      const serve = await startServe([], environment());
      const before = provider.counts.logins;
      const upload = uploadCsv(serve.url, 'login-hangs.csv', CSV);
      await waitFor(() => provider.counts.logins > before, 30_000, 'a hanging login');
      serve.kill('SIGTERM');
      expect(await waitForExit(serve), serve.output().stderr).toBe(0);
      // The upload is told the console stopped before its batch started: nothing of it was stored.
      const answer = await upload;
      expect(answer.status).toBe(503);
      expect(await answer.text()).toContain('stopped while logging in to the provider');
    });
  });

  describe('while the provider answers 429 with a long Retry-After', () => {
    beforeAll(() => {
      provider.answerWith((_inquiry, response) =>
        sendJson(response, 429, { error: true, message: 'Too Many Requests' }, { 'retry-after': '60' }),
      );
    });
    afterAll(() => {
      provider.answerWith(() => undefined);
    });

    it('watch: a stop that spends SHUTDOWN_TIMEOUT on the held file names no inquiry in flight: none is', async () => {
      const folder = join(workDir, 'held');
      const before = provider.counts.inquiries;
      const watch = await startWatch(folder);
      await writeFile(join(folder, 'inbox', 'payouts.csv'), CSV);
      await waitFor(() => provider.counts.inquiries > before, 30_000, 'a call answered 429');
      watch.kill('SIGTERM');
      expect(await waitForExit(watch)).toBe(0);
      const { stderr } = watch.output();
      expect(stderr).toContain('handing it back');
      expect(stderr).not.toContain('still in flight');
    });
  });
});
