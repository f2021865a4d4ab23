/**
 * Issue 10's 429 storm: the provider allows 5/s (sliding one-second window) while `--rate` says 40/s,
 * 3 processes (`run` and two `worker`s) share one Redis. Prints, per round, the share of calls answered
 * 429, FAILED rows, and the answered calls per second against a bare paced loop at 5/s (the baseline,
 * measured in the same run, alternating); then min/median/max.
 *
 *   npm run build && node dist/bench/rate-storm.js [rows] [rounds]
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { startSandbox } from '../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../src/sandbox/synthetic-accounts.js';
import { deletePrefix, pacedBaseline, ratio, REDIS_URL, runCli, startCli } from './support.js';

const rows = Number(process.argv[2] ?? 150);
const rounds = Number(process.argv[3] ?? 3);
const PROVIDER_LIMIT = 5;
const CONFIGURED_RATE = '40/s';
const EXTRA_WORKERS = 2;
const latency = { min: 20, max: 60 };

const accounts = syntheticAccounts(rows);
const directory = await mkdtemp(join(tmpdir(), 'bc-bench-'));
const input = join(directory, 'beneficiaries.csv');
await writeBeneficiaryFile(input, accounts);

interface Round {
  share429: number;
  failed: number;
  answeredPerSecond: number;
  allowedRate: unknown;
}

async function product(round: number): Promise<Round> {
  const sandbox = await startSandbox({ accounts, latencyMs: latency, rateLimit: { max: PROVIDER_LIMIT, windowMs: 1000 } });
  const prefix = `bcbench-${randomBytes(3).toString('hex')}`;
  const env = {
    REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    INQUIRY_RATE: CONFIGURED_RATE,
  };
  const workers = Array.from({ length: EXTRA_WORKERS }, () => startCli(['worker', '--concurrency', '12'], env));
  const out = join(directory, `storm-${round}.csv`);
  const result = await runCli(['run', input, '--out', out, '--rate', CONFIGURED_RATE, '--concurrency', '12'], env);
  for (const worker of workers) worker.kill('SIGTERM');
  const stats = sandbox.stats();
  await sandbox.close();
  await deletePrefix(prefix);
  if (result.code !== 0) throw new Error(`run exited ${result.code}: ${result.stderr.slice(-2000)}`);
  const report = parse(await readFile(out), { bom: true, columns: true }) as Record<string, string>[];
  const summary = JSON.parse(await readFile(out.replace(/\.csv$/, '.summary.json'), 'utf8')) as { allowedRate?: number };
  const seconds = ((stats.lastInquiryAt ?? 0) - (stats.firstInquiryAt ?? 0)) / 1000;
  return {
    share429: stats.rateLimited / stats.inquiries,
    failed: report.filter((row) => row.result === 'FAILED').length,
    answeredPerSecond: (stats.inquiries - stats.rateLimited) / seconds,
    allowedRate: summary.allowedRate,
  };
}

async function baseline(): Promise<number> {
  const sandbox = await startSandbox({ accounts, latencyMs: latency, rateLimit: { max: PROVIDER_LIMIT, windowMs: 1000 } });
  const rate = await pacedBaseline(sandbox.url, PROVIDER_LIMIT * 5, PROVIDER_LIMIT);
  await sandbox.close();
  return rate;
}

const spread = (values: number[], digits: number): string => {
  const sorted = [...values].sort((a, b) => a - b);
  return `min ${sorted[0]!.toFixed(digits)} / median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(digits)} / max ${sorted[sorted.length - 1]!.toFixed(digits)}`;
};

console.log(
  `rows ${rows}, provider limit ${PROVIDER_LIMIT}/s (sliding 1 s), --rate ${CONFIGURED_RATE}, ${EXTRA_WORKERS + 1} processes, latency ${latency.min}-${latency.max} ms`,
);
const shares: number[] = [];
const ratios: number[] = [];
let failed = 0;
for (let round = 1; round <= rounds; round += 1) {
  const base = await baseline();
  const measured = await product(round);
  shares.push(measured.share429 * 100);
  ratios.push(measured.answeredPerSecond / base);
  failed += measured.failed;
  console.log(
    `round ${round}: baseline ${base.toFixed(2)}/s; product ${(measured.share429 * 100).toFixed(1)}% of calls answered 429, ${measured.failed} FAILED, ` +
      `${measured.answeredPerSecond.toFixed(2)} answered/s = ${ratio(measured.answeredPerSecond, base)} of the baseline, summary allowedRate ${String(measured.allowedRate)}`,
  );
}
console.log(`429 share (%): ${spread(shares, 1)}`);
console.log(`answered/s vs baseline: ${spread(ratios, 3)}`);
console.log(`FAILED rows in all rounds: ${failed}`);
if (failed > 0 || Math.max(...shares) > 10) process.exitCode = 1;
