import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT } from '../support/cli.js';
import { waitFor } from '../ops/ops-helpers.js';
import { startServe, stopServe, type ServeProcess } from './console-helpers.js';

/** Our own password-protected redis-server (never the shared one): stopped under a running console. */
const PASSWORD = 'readyz-test-password';
let redisServer: ChildProcess | undefined;
let sandbox: SandboxServer;
let serve: ServeProcess | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
});

afterAll(async () => {
  // Its Redis is gone: closing its connections gracefully would wait for a Redis that never comes back.
  await stopServe(serve, 'SIGKILL');
  redisServer?.kill('SIGKILL');
  await sandbox.close();
});

describe('/readyz and /healthz', () => {
  it('is ready with Redis (password from REDIS_PASSWORD), not ready once Redis is gone, while /healthz stays 200', async () => {
    const port = await freePort();
    redisServer = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', PASSWORD],
      { stdio: 'ignore' },
    );
    serve = await startServe(
      [],
      cliEnvironment({
        REDIS_URL: `redis://127.0.0.1:${port}`,
        REDIS_PASSWORD: PASSWORD,
        H2H_BASE_URL: sandbox.url,
        H2H_USERNAME: 'sandbox',
        H2H_PASSWORD: 'sandbox',
      }),
    );
    const ready = await fetch(`${serve.url}/readyz`);
    expect(ready.status).toBe(200);

    const stopped = new Promise((resolve) => redisServer!.once('exit', resolve));
    redisServer.kill('SIGTERM');
    await stopped;
    const notReady = await waitFor(
      async () => {
        const response = await fetch(`${serve!.url}/readyz`);
        return response.status === 503 && ((await response.json()) as { reason: string });
      },
      15_000,
      '/readyz to fail',
    );
    expect(notReady.reason).toMatch(/Redis|no answer/);
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    expect(serve.exitCode).toBeNull();
  });
});
