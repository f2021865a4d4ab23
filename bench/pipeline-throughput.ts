/**
 * Issue 2's benchmark: `run` on a 10,000-row file against the emulator at --rate 200/s (ideal: 50 s).
 * Baseline, measured in the same run: a bare paced HTTP loop (no queue, no Redis) at the same rate.
 * Prints the pipeline's duration, its achieved rate as a ratio of the configured rate and of the
 * baseline, and checks that every row is in the report exactly once.
 *
 *   npm run build && node dist/bench/pipeline-throughput.js [rows] [rate]
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { startSandbox } from '../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../src/sandbox/synthetic-accounts.js';
import { deletePrefix, pacedBaseline, ratio, REDIS_URL, runCli } from './support.js';

const rows = Number(process.argv[2] ?? 10_000);
const ratePerSecond = Number(process.argv[3] ?? 200);
const latency = { min: 20, max: 80 };

const accounts = syntheticAccounts(rows);
const sandbox = await startSandbox({ accounts, latencyMs: latency, rateLimit: { max: ratePerSecond, windowMs: 1000 } });
const directory = await mkdtemp(join(tmpdir(), 'bc-bench-'));
const input = join(directory, 'beneficiaries.csv');
await writeBeneficiaryFile(input, accounts);

const baselineCalls = Math.min(2_000, ratePerSecond * 5);
const baselineRate = await pacedBaseline(sandbox.url, baselineCalls, ratePerSecond);
sandbox.resetStats();

const prefix = `bcbench-${randomBytes(3).toString('hex')}`;
const out = join(directory, 'report.csv');
const result = await runCli(['run', input, '--out', out, '--rate', `${ratePerSecond}/s`, '--concurrency', '32'], {
  REDIS_URL,
  BC_KEY_PREFIX: prefix,
  H2H_BASE_URL: sandbox.url,
  H2H_USERNAME: 'sandbox',
  H2H_PASSWORD: 'sandbox',
});
const stats = sandbox.stats();
await sandbox.close();
await deletePrefix(prefix);

const report = parse(await readFile(out), { bom: true, columns: true }) as Record<string, string>[];
const ids = new Set(report.map((row) => row.beneficiary_id));
const inquirySeconds = ((stats.lastInquiryAt ?? 0) - (stats.firstInquiryAt ?? 0)) / 1000;
const achieved = stats.answeredInquiries / inquirySeconds;
const ideal = rows / ratePerSecond;

console.log(`rows ${rows}, rate ${ratePerSecond}/s, emulator latency ${latency.min}-${latency.max} ms, exit code ${result.code}`);
console.log(`baseline (bare paced HTTP loop, ${baselineCalls} calls): ${baselineRate.toFixed(1)}/s`);
console.log(
  `run: ${result.seconds.toFixed(1)} s wall (ideal ${ideal.toFixed(1)} s, ratio ${ratio(result.seconds, ideal)}), inquiries over ${inquirySeconds.toFixed(1)} s`,
);
console.log(
  `achieved ${achieved.toFixed(1)}/s = ${ratio(achieved, ratePerSecond)} of the configured rate, ${ratio(achieved, baselineRate)} of the baseline`,
);
console.log(
  `emulator: ${stats.inquiries} inquiries, ${stats.rateLimited} answered 429, max ${stats.maxInquiriesInAnyWindow} in any 1 s window, ${stats.logins} login(s)`,
);
console.log(
  `report: ${report.length} rows, ${ids.size} distinct ids, ${report.filter((row) => row.result === 'MATCH').length} MATCH, ${report.filter((row) => row.result === 'FAILED').length} FAILED`,
);
if (report.length !== rows || ids.size !== rows) {
  console.error('ROWS LOST OR DUPLICATED');
  process.exitCode = 1;
}
