import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, runCli } from '../support/cli.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { startLocalCluster, startTlsRedis, type TlsRedis } from '../support/redis-processes.js';
import { readReport } from '../support/report.js';

/** REDIS_URL with an ACL user and with TLS, against redis-servers of the test's own. */
let workDir: string;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-redis-security-'));
});

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('an ACL user in REDIS_URL', () => {
  let redis: OwnRedis;
  const env = (extra: Record<string, string>) => cliEnvironment({ BC_KEY_PREFIX: 'bcacl', ...extra });

  beforeAll(async () => {
    // The default user needs a password of its own: only the ACL user's credentials can let the tool in.
    redis = await startOwnRedis({ password: 'admin-only' });
    await redis.client.acl('SETUSER', 'checker', 'on', '>checker-pw', '~*', '&*', '+@all');
  });

  afterAll(async () => {
    await redis.remove();
  });

  it('connects as that user, from the URL or from REDIS_USERNAME/REDIS_PASSWORD', async () => {
    const fromUrl = await runCli(['status'], env({ REDIS_URL: `redis://checker:checker-pw@127.0.0.1:${redis.port}` }));
    expect(fromUrl.stderr).toBe('');
    expect(fromUrl.code).toBe(0);
    const fromVariables = await runCli(
      ['status'],
      env({ REDIS_URL: `redis://127.0.0.1:${redis.port}`, REDIS_USERNAME: 'checker', REDIS_PASSWORD: 'checker-pw' }),
    );
    expect(fromVariables.stderr).toBe('');
    expect(fromVariables.code).toBe(0);
  });

  it('a wrong password is one line that names the address, never the password', async () => {
    const result = await runCli(['status'], env({ REDIS_URL: `redis://checker:not-the-pw@127.0.0.1:${redis.port}` }));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `beneficiary-check: Redis at redis://checker:***@127.0.0.1:${redis.port} refused the credentials (WRONGPASS invalid username-password pair or user is disabled.): check the user and password in REDIS_URL or REDIS_USERNAME/REDIS_PASSWORD\n`,
    );
    expect(result.stderr).not.toContain('not-the-pw');
  });
});

describe('TLS (rediss://)', () => {
  let server: TlsRedis | undefined;

  beforeAll(async () => {
    server = await startTlsRedis();
    // Debian's redis-server is built with TLS; one built without it cannot run this part, and says so.
    if (server === undefined)
      console.warn('SKIPPED: this redis-server was built without TLS (--tls-port refused); the rediss:// tests did not run');
  });

  afterAll(async () => {
    await server?.stop();
    if (server !== undefined) expect(existsSync(server.directory)).toBe(false);
  });

  it('runs the example over TLS, trusting the private CA of REDIS_TLS_CA_FILE', async ({ skip }) => {
    if (server === undefined) return skip('redis-server without TLS');
    const out = join(workDir, 'tls.csv');
    const result = await runCli(
      ['run', 'examples/beneficiaries.csv', '--out', out],
      cliEnvironment({
        REDIS_URL: `rediss://127.0.0.1:${server.port}`,
        REDIS_TLS_CA_FILE: server.caFile,
        BC_KEY_PREFIX: 'bctls',
        INQUIRY_RATE: '200/s',
      }),
    );
    expect(result.stderr).not.toContain('private redis-server');
    expect(result.code).toBe(0);
    expect(await readReport(out)).toHaveLength(28);
  });

  it('without the CA, says that TLS failed and what to set', async ({ skip }) => {
    if (server === undefined) return skip('redis-server without TLS');
    const result = await runCli(['status'], cliEnvironment({ REDIS_URL: `rediss://127.0.0.1:${server.port}`, BC_KEY_PREFIX: 'bctls' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^beneficiary-check: TLS to Redis at rediss://127\\.0\\.0\\.1:${server.port} failed \\(.*certificate.*\\): .*REDIS_TLS_CA_FILE\\n$`,
      ),
    );
  });

  it('a cluster over TLS with a password: rediss:// nodes, REDIS_TLS_CA_FILE, REDIS_PASSWORD', async ({ skip }) => {
    if (server === undefined) return skip('redis-server without TLS');
    const cluster = await startLocalCluster({ tls: true, password: 'cluster-pw' });
    try {
      const nodes = cluster.nodes
        .split(',')
        .map((node) => `rediss://${node}`)
        .join(',');
      const env = (password: string) =>
        cliEnvironment({
          REDIS_CLUSTER_NODES: nodes,
          REDIS_TLS_CA_FILE: cluster.caFile,
          REDIS_PASSWORD: password,
          BC_KEY_PREFIX: 'bctlscluster',
          INQUIRY_RATE: '200/s',
        });
      const out = join(workDir, 'tls-cluster.csv');
      const result = await runCli(['run', 'examples/beneficiaries.csv', '--out', out], env('cluster-pw'));
      expect(result.stderr).not.toMatch(/CROSSSLOT|MOVED|private redis-server/);
      expect(result.code).toBe(0);
      expect(await readReport(out)).toHaveLength(28);

      const refused = await runCli(['status'], env('wrong-pw'));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(
          `^beneficiary-check: Redis at rediss://${cluster.nodes.replaceAll('.', '\\.')} \\(cluster\\) refused the credentials .*\\n$`,
        ),
      );
      expect(refused.stderr).not.toContain('wrong-pw');
    } finally {
      await cluster.stop();
    }
  });
});
