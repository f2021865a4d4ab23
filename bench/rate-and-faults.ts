/**
 * Issue 4's benchmark: 2,000 rows, emulator limit 50/s (sliding one-second window), 100 ms latency,
 * 3 worker processes sharing one Redis. Scenario A: a healthy provider; scenario B: the same with 5%
 * of inquiries answered 5xx and 1% never answered. Baseline, measured in the same run: a single bare
 * paced HTTP loop at the same rate (no queue, no Redis), i.e. what this machine achieves at all.
 *
 *   npm run build && node dist/bench/rate-and-faults.js [rows] [rate] [timeoutMs]
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { startSandbox, type SandboxKnobs } from '../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../src/sandbox/synthetic-accounts.js';
import { deletePrefix, pacedBaseline, ratio, REDIS_URL, runCli, startCli } from './support.js';

const rows = Number(process.argv[2] ?? 2_000);
const ratePerSecond = Number(process.argv[3] ?? 50);
// A hang costs a worker slot until the timeout; 5 s instead of the default 15 s keeps the benchmark short.
const timeoutMs = Number(process.argv[4] ?? 5_000);
const WORKER_PROCESSES = 3;
const CONCURRENCY_PER_PROCESS = 12;

const accounts = syntheticAccounts(rows);
const directory = await mkdtemp(join(tmpdir(), 'bc-bench-'));
const input = join(directory, 'beneficiaries.csv');
await writeBeneficiaryFile(input, accounts);

async function scenario(name: string, knobs: Partial<SandboxKnobs>, baselineRate: number) {
  const sandbox = await startSandbox({
    accounts,
    latencyMs: { min: 100, max: 100 },
    rateLimit: { max: ratePerSecond, windowMs: 1000 },
    ...knobs,
  });
  const prefix = `bcbench-${randomBytes(3).toString('hex')}`;
  const env = {
    REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    H2H_TIMEOUT: `${timeoutMs}ms`,
    INQUIRY_RATE: `${ratePerSecond}/s`,
    INQUIRY_BACKOFF: '500ms',
  };
  const batchId = (await runCli(['enqueue', input], env)).stdout.trim();
  const started = performance.now();
  const workers = Array.from({ length: WORKER_PROCESSES }, () =>
    startCli(['worker', '--concurrency', String(CONCURRENCY_PER_PROCESS)], env),
  );
  // `resume` waits for the batch with its own (fourth) process and writes the report.
  const out = join(directory, `${name}.csv`);
  const reported = await runCli(['resume', batchId, '--out', out, '--concurrency', '1'], env);
  const seconds = (performance.now() - started) / 1000;
  for (const worker of workers) worker.kill('SIGTERM');
  const stats = sandbox.stats();
  await sandbox.close();
  await deletePrefix(prefix);
  const report = parse(await readFile(out), { bom: true, columns: true }) as Record<string, string>[];
  const ids = report.map((row) => row.beneficiary_id);
  const inquirySeconds = ((stats.lastInquiryAt ?? 0) - (stats.firstInquiryAt ?? 0)) / 1000;
  const achieved = stats.inquiries / inquirySeconds;
  const askedTwice = Object.values(stats.inquiriesByAccount).filter((count) => count > 1).length;
  console.log(`\n${name}: ${JSON.stringify(knobs)} exit ${reported.code}, ${seconds.toFixed(1)} s`);
  console.log(
    `  sent ${achieved.toFixed(1)}/s = ${ratio(achieved, ratePerSecond)} of the configured rate, ${ratio(achieved, baselineRate)} of the baseline`,
  );
  console.log(
    `  emulator: ${stats.inquiries} requests, ${stats.rateLimited} answered 429, max ${stats.maxInquiriesInAnyWindow} in any 1 s window, ${stats.serverErrors} 5xx, ${stats.hangs} hangs, ${stats.logins} login(s)`,
  );
  console.log(`  accounts answered twice by the provider: ${askedTwice}`);
  console.log(
    `  report: ${report.length} rows, ${new Set(ids).size} distinct, FAILED ${report.filter((row) => row.result === 'FAILED').length}, duplicated rows ${ids.length - new Set(ids).size}, missing rows ${rows - new Set(ids).size}`,
  );
}

const baselineSandbox = await startSandbox({ accounts, latencyMs: { min: 100, max: 100 } });
const baselineRate = await pacedBaseline(baselineSandbox.url, ratePerSecond * 10, ratePerSecond);
await baselineSandbox.close();
console.log(
  `rows ${rows}, limit ${ratePerSecond}/s, latency 100 ms, ${WORKER_PROCESSES} worker processes x ${CONCURRENCY_PER_PROCESS}, timeout ${timeoutMs} ms`,
);
console.log(`baseline (bare paced HTTP loop): ${baselineRate.toFixed(1)}/s = ${ratio(baselineRate, ratePerSecond)} of the rate`);
await scenario('healthy', {}, baselineRate);
await scenario('faults', { serverErrorRate: 0.05, hangRate: 0.01 }, baselineRate);
