import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanKeys } from '../../src/redis/scan.js';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { startServe, stopServe } from '../console/console-helpers.js';
import { startLocalCluster, type LocalCluster } from '../support/redis-processes.js';
import { readReport } from '../support/report.js';

/**
 * The pipeline on a real 3-master Redis Cluster started here (redis-server --cluster-enabled, joined by
 * redis-cli --cluster create): every MULTI, script and BullMQ call must keep to one slot, or Redis answers
 * CROSSSLOT/MOVED and the run fails.
 */
let cluster: LocalCluster;
let workDir: string;
const prefix = 'bccluster';
const GENERATED_ROWS = 272;

const clusterEnv = (extra: Record<string, string> = {}) =>
  cliEnvironment({ REDIS_CLUSTER_NODES: cluster.nodes, BC_KEY_PREFIX: prefix, INQUIRY_RATE: '500/s', ...extra });

beforeAll(async () => {
  cluster = await startLocalCluster();
  workDir = await mkdtemp(join(tmpdir(), 'bc-cluster-run-'));
  // The shipped example (every kind of result) and accounts the emulator does not know, each once.
  const example = (await readFile(join(PROJECT_ROOT, 'examples/beneficiaries.csv'), 'utf8')).trimEnd().split('\n');
  const generated = Array.from(
    { length: GENERATED_ROWS },
    (_, index) => `GEN-${index},cluster,014,77${String(index).padStart(8, '0')},Holder ${index},1000,`,
  );
  await writeFile(join(workDir, 'many.csv'), `${[...example, ...generated].join('\n')}\n`);
});

afterAll(async () => {
  await cluster?.stop();
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  if (cluster !== undefined) expect(existsSync(cluster.directory)).toBe(false);
});

/** Every key of the test's prefix, from each master (a node's SCAN sees only its own slots). */
async function keysOnEveryMaster(): Promise<string[]> {
  const client = new Cluster(cluster.nodes.split(',').map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })));
  try {
    await new Promise((resolve) => client.once('ready', resolve));
    const keys: string[] = [];
    for await (const found of scanKeys(client, `${prefix}:*`, 1000)) keys.push(...found);
    return keys;
  } finally {
    client.disconnect();
  }
}

describe('Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  let batchId: string;

  it('runs a file through the built-in emulator: every row once, exit 0', async () => {
    const out = join(workDir, 'many.report.csv');
    const result = await runCli(['run', join(workDir, 'many.csv'), '--out', out], clusterEnv(), 120_000);
    expect(result.stderr).not.toMatch(/CROSSSLOT|MOVED|private redis-server/);
    expect(result.code).toBe(0);
    const input = await readReport(join(workDir, 'many.csv'));
    const rows = await readReport(out);
    expect(input).toHaveLength(28 + GENERATED_ROWS);
    expect(rows.map((row) => row.beneficiary_id)).toEqual(input.map((row) => row.beneficiary_id));
    const byId = new Map(rows.map((row) => [row.beneficiary_id, row]));
    expect(byId.get('SEL-0001')).toMatchObject({ result: 'MATCH', account_holder: 'BUDI SANTOSO' });
    expect(byId.get('GEN-0')).toMatchObject({ result: 'ACCOUNT_INVALID', reason: 'provider: Account not found' });
    const summary = JSON.parse(await readFile(join(workDir, 'many.report.summary.json'), 'utf8'));
    expect(summary.rows).toBe(28 + GENERATED_ROWS);
    expect(summary.calls).toBe(24 + GENERATED_ROWS);
    batchId = summary.batchId;
    expect(batchId).toMatch(/^b\d{8}-/);
  });

  it('spreads the keys over the masters: batch, BullMQ and token keys each in their own slot', async () => {
    const keys = await keysOnEveryMaster();
    expect(keys).toEqual(
      expect.arrayContaining([`${prefix}:batch:{${batchId}}`, `${prefix}:batch:{${batchId}}:outcomes`, `${prefix}:batches`]),
    );
    expect(keys.some((key) => key.startsWith(`${prefix}:{bull}:inquiries-`))).toBe(true);
    expect(keys.some((key) => key.startsWith(`${prefix}:token:{sandbox:`))).toBe(true);
  });

  it('answers status and resume from the cluster', async () => {
    const status = await runCli(['status', batchId], clusterEnv());
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(batchId);
    const list = await runCli(['status', '--json'], clusterEnv());
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(batchId);

    // resume asks the provider again for the FAILED rows, at the endpoint the batch was checked at: an emulator
    // of the same accounts by address (the built-in one's batch belongs to that run's emulator: refused, exit 2).
    const sandbox: SandboxServer = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
    try {
      const atAddress = clusterEnv({ H2H_BASE_URL: sandbox.url, H2H_USERNAME: 'sandbox', H2H_PASSWORD: 'sandbox' });
      const elsewhere = await runCli(['resume', batchId, '--out', join(workDir, 'elsewhere.csv')], atAddress, 120_000);
      expect(elsewhere.code, elsewhere.stderr).toBe(2);
      expect(elsewhere.stderr).toContain('(the built-in emulator of one run), and this process asks sandbox');
      const checked = await runCli(['run', join(workDir, 'many.csv'), '--out', join(workDir, 'at-address.csv')], atAddress, 120_000);
      expect(checked.code, checked.stderr).toBe(0);
      const atAddressBatch = JSON.parse(await readFile(join(workDir, 'at-address.summary.json'), 'utf8')).batchId as string;
      expect(atAddressBatch).not.toBe(batchId);
      const out = join(workDir, 'resumed.csv');
      const resumed = await runCli(['resume', atAddressBatch, '--out', out], atAddress, 120_000);
      expect(resumed.stderr).not.toMatch(/CROSSSLOT|MOVED/);
      expect(resumed.code).toBe(0);
      const rows = await readReport(out);
      expect(rows).toHaveLength(28 + GENERATED_ROWS);
      expect(new Set(rows.map((row) => row.beneficiary_id)).size).toBe(28 + GENERATED_ROWS);
    } finally {
      await sandbox.close();
    }
  });

  it('serves the console from the cluster: ready, the batch, the queue gauges', async () => {
    const sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
    const serve = await startServe([], clusterEnv({ H2H_BASE_URL: sandbox.url, H2H_USERNAME: 'sandbox', H2H_PASSWORD: 'sandbox' }));
    try {
      expect((await fetch(`${serve.url}/readyz`)).status).toBe(200);
      const batch = (await (await fetch(`${serve.url}/api/batches/${batchId}`)).json()) as { batchId: string; rows: number };
      expect(batch).toMatchObject({ batchId, rows: 28 + GENERATED_ROWS });
      const metrics = await (await fetch(`${serve.url}/metrics`)).text();
      expect(metrics).toMatch(/bullmq_job_count\{[^}]*queue="inquiries-/);
      expect(serve.output().stderr).not.toMatch(/CROSSSLOT|MOVED/);
    } finally {
      await stopServe(serve);
      await sandbox.close();
    }
  });

  it('prunes the finished batch from every master: no key of it is left', async () => {
    const result = await runCli(['prune', '--older-than', '0s'], clusterEnv());
    expect(result.stderr).not.toMatch(/CROSSSLOT|MOVED/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(batchId);
    const left = await keysOnEveryMaster();
    expect(left.filter((key) => key.includes(`{${batchId}}`))).toEqual([]);
  });

  it('a cluster nobody answers for: run stops with one line naming the nodes, and starts no private Redis', async () => {
    const result = await runCli(
      ['run', 'examples/beneficiaries.csv', '--out', join(workDir, 'none.csv')],
      cliEnvironment({ REDIS_CLUSTER_NODES: '127.0.0.1:1,127.0.0.1:2', BC_KEY_PREFIX: prefix }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^beneficiary-check: Redis is unreachable at redis:\/\/127\.0\.0\.1:1,127\.0\.0\.1:2 \(cluster\): .+\n$/);
    expect(result.stderr).not.toContain('private redis-server');
  });
});
