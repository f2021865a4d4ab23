/**
 * Issue 11's memory run: `run` end to end on a file with 10% duplicate accounts and about 190 bytes of
 * pass-through columns per row, against an emulator with no latency and no rate limit, then
 * `prune --older-than 0s`. Measures:
 *   - peak Redis: used_memory sampled every 200 ms during the run, peak minus before, per row;
 *   - peak RSS of the `run` process (VmHWM, sampled every 200 ms until it exits);
 *   - what is left of the batch after `prune`: its keys (SCAN of its hash tag) and its jobs, with MEMORY USAGE.
 * Targets: peak Redis <= 400 B/row, RSS <= 250 MB, 0 bytes of the batch left. Issue 11's "before": 1.1 KB/row peak.
 *
 * Redis is a private redis-server of the benchmark's own (other processes' keys would blur used_memory).
 * The emulator is started here rather than `run`'s built-in one: the built-in one knows 30 fixture accounts
 * (every synthetic account would be answered "not found", smaller than a real answer) and waits 20-80 ms per
 * call; the batch's own keys are what `prune` must leave at 0 either way (the built-in emulator's queue
 * removal is covered by test/ops/retention.test.ts).
 *
 *   npm run build && node dist/bench/footprint.js [--rows 1000000] [--rounds 1]
 *
 * `footprintScenario(options)` runs one round and returns its figures (bench/compare.ts imports it).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { startPrivateRedis } from '../src/redis/private-server.js';
import { redisKeys } from '../src/redis/keys.js';
import { startSandbox } from '../src/sandbox/index.js';
import { syntheticAccounts } from '../src/sandbox/synthetic-accounts.js';
import type { SandboxAccount } from '../src/sandbox/types.js';
import { atStartingPriority, CLI, runCli } from './support.js';

export const TARGETS = { peakRedisBytesPerRow: 400, peakRssMb: 250, bytesLeft: 0 };
const SAMPLE_MS = 200;
const PREFIX = 'bcfoot';

export interface FootprintOptions {
  rows: number;
  /** A Redis to use (its used_memory must not move for other reasons); default: a private redis-server. */
  redisUrl?: string;
  /** Extra environment for `run` (e.g. INQUIRY_CONCURRENCY). */
  env?: Record<string, string>;
}

export interface FootprintFigures {
  rows: number;
  distinctAccounts: number;
  seconds: number;
  exitCode: number | null;
  peakRedisBytes: number;
  peakRedisBytesPerRow: number;
  /** Redis after the run and before `prune`, per row: what a finished batch keeps until it expires. */
  finishedRedisBytesPerRow: number;
  peakRssMb: number;
  /** Keys of the batch (its hash tag) and its jobs left after `prune --older-than 0s`, and their MEMORY USAGE. */
  /** MEMORY USAGE of each key of the finished batch, per row (rows, accounts, outcomes, ...), before `prune`. */
  finishedBatchBytesPerRow: Record<string, number>;
  batchKeysLeft: number;
  batchBytesLeft: number;
  /** Everything else under the prefix after `prune` (account history, the queue's own keys): kept by design. */
  otherKeysLeft: number;
}

/** Row i: every tenth row repeats an earlier account; about 190 bytes of columns the product only passes through. */
async function writeInput(path: string, rows: number): Promise<SandboxAccount[]> {
  const distinct = rows - Math.floor(rows / 10);
  const accounts = syntheticAccounts(distinct);
  const out = createWriteStream(path);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  await write('beneficiary_id,bank_code,account_number,beneficiary_name,partner,payout_amount,email,address,notes\n');
  let next = 0;
  for (let row = 0; row < rows; row += 1) {
    const index = row % 10 === 9 ? (row * 7919) % next : next++;
    const account = accounts[index]!;
    const id = String(row).padStart(7, '0');
    // A reference that does not compress (real exports carry such ids), so that stored rows are not flattered.
    const reference = randomBytes(8).toString('hex');
    await write(
      `BEN-${id},${account.bankCode},${account.accountNumber},${account.holderName.toLowerCase()},marketplace-seller-program,${(row % 9_000_000) + 100_000}.00,` +
        `seller.${id}@example.co.id,"Jl. Merdeka No. ${row % 300}, RT 004/RW 011, Kel. Sukamaju, Kec. Cibeunying, Bandung 40123",payout ref ${reference}\n`,
    );
  }
  out.end();
  await once(out, 'finish');
  return accounts;
}

const usedMemory = async (redis: Redis): Promise<number> => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);

async function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number | undefined> {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined; // the process has exited
  }
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 5000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

/** One round: a fresh file, a fresh prefix, `run`, then `prune --older-than 0s`. */
export async function footprintScenario(options: FootprintOptions): Promise<FootprintFigures> {
  const directory = await mkdtemp(join(tmpdir(), 'bc-bench-footprint-'));
  const privateRedis = options.redisUrl === undefined ? await startPrivateRedis() : undefined;
  const redisUrl = options.redisUrl ?? privateRedis!.url;
  const redis = new Redis(redisUrl);
  const input = join(directory, 'beneficiaries.csv');
  const accounts = await writeInput(input, options.rows);
  const sandbox = await startSandbox({ accounts });
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'error',
      BC_ENV_FILE: 'none',
      REDIS_URL: redisUrl,
      BC_KEY_PREFIX: PREFIX,
      H2H_BASE_URL: sandbox.url,
      H2H_USERNAME: 'sandbox',
      H2H_PASSWORD: 'sandbox',
      INQUIRY_RATE: '1000000/s',
      ...options.env,
    };
    const before = await usedMemory(redis);
    let peakRedis = before;
    let peakRssMb = 0;
    const started = performance.now();
    const child = atStartingPriority(
      spawn(process.execPath, [CLI, 'run', input, '--out', join(directory, 'report.csv'), '--json'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    let running = true;
    void exited.then(() => (running = false));
    while (running) {
      peakRedis = Math.max(peakRedis, await usedMemory(redis));
      peakRssMb = Math.max(peakRssMb, (await procStatus(child.pid!, 'VmHWM')) ?? 0);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, SAMPLE_MS))]);
    }
    const exitCode = await exited;
    const seconds = (performance.now() - started) / 1000;
    if (exitCode !== 0) throw new Error(`run exited ${exitCode}: ${stderr.slice(-2000)}`);
    const batchId = (JSON.parse(stdout) as { batchId: string }).batchId;
    const finished = await usedMemory(redis);
    // Where the finished batch's bytes are: each of its keys (the rest of `finished` is the account history and the queue).
    const finishedBatchBytesPerRow: Record<string, number> = {};
    for (const key of await scanKeys(redis, `${redisKeys(PREFIX).batch(batchId)}*`)) {
      finishedBatchBytesPerRow[key.slice(key.indexOf('}') + 2) || 'record'] =
        Number((await redis.memory('USAGE', key, 'SAMPLES', '0')) ?? 0) / options.rows;
    }

    const pruned = await runCli(['prune', '--older-than', '0s'], { BC_ENV_FILE: 'none', REDIS_URL: redisUrl, BC_KEY_PREFIX: PREFIX });
    if (pruned.code !== 0) throw new Error(`prune exited ${pruned.code}: ${pruned.stderr}`);
    const keys = redisKeys(PREFIX);
    const batchKeys = [
      ...(await scanKeys(redis, `${keys.batch(batchId)}*`)),
      ...(await scanKeys(redis, `${keys.bullPrefix()}:*:${batchId}.*`)),
    ];
    const sizes = await Promise.all(batchKeys.map(async (key) => Number((await redis.memory('USAGE', key)) ?? 0)));
    const allLeft = await scanKeys(redis, `${PREFIX}:*`);
    return {
      rows: options.rows,
      distinctAccounts: accounts.length,
      seconds,
      exitCode,
      peakRedisBytes: peakRedis - before,
      peakRedisBytesPerRow: (peakRedis - before) / options.rows,
      finishedRedisBytesPerRow: (finished - before) / options.rows,
      finishedBatchBytesPerRow,
      peakRssMb,
      batchKeysLeft: batchKeys.length,
      batchBytesLeft: sizes.reduce((sum, size) => sum + size, 0),
      otherKeysLeft: allLeft.length - batchKeys.length,
    };
  } finally {
    await sandbox.close();
    redis.disconnect();
    await privateRedis?.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

const summarise = (values: number[], digits = 0): string => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0]!.toFixed(digits)} / ${sorted[Math.floor(sorted.length / 2)]!.toFixed(digits)} / ${sorted.at(-1)!.toFixed(digits)}`;
};

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} takes a positive whole number`);
  return value;
}

/** Runs the scenario `rounds` times and prints min/median/max of each figure against its target (bench/compare.ts's `memory` too). */
export async function footprintRounds(rows: number, rounds: number): Promise<void> {
  const figures: FootprintFigures[] = [];
  for (let round = 0; round < rounds; round += 1) figures.push(await footprintScenario({ rows }));
  const of = (pick: (figure: FootprintFigures) => number, digits = 0) => summarise(figures.map(pick), digits);
  console.log(
    `${rows.toLocaleString('en-US')} rows (${figures[0]!.distinctAccounts.toLocaleString('en-US')} distinct accounts), ${rounds} round(s), Node ${process.version}; min / median / max`,
  );
  console.log(`  run time              ${of((f) => f.seconds, 1)} s`);
  console.log(
    `  peak Redis per row    ${of((f) => f.peakRedisBytesPerRow)} B   (target <= ${TARGETS.peakRedisBytesPerRow}; issue 11 before: ~1100)`,
  );
  console.log(`  finished batch / row  ${of((f) => f.finishedRedisBytesPerRow)} B   (kept until BATCH_RETENTION or prune)`);
  const parts = Object.keys(figures[0]!.finishedBatchBytesPerRow).sort();
  console.log(
    `  of it, the batch's keys / row: ${parts.map((part) => `${part} ${of((f) => f.finishedBatchBytesPerRow[part] ?? 0)}`).join(', ')} B (the rest: account history, queue)`,
  );
  console.log(`  peak RSS of run       ${of((f) => f.peakRssMb)} MB  (target <= ${TARGETS.peakRssMb})`);
  console.log(
    `  batch left after prune ${of((f) => f.batchKeysLeft)} keys, ${of((f) => f.batchBytesLeft)} bytes (target ${TARGETS.bytesLeft}); other keys under the prefix: ${of((f) => f.otherKeysLeft)}`,
  );
  const worst = (pick: (figure: FootprintFigures) => number) => Math.max(...figures.map(pick));
  const met =
    worst((f) => f.peakRedisBytesPerRow) <= TARGETS.peakRedisBytesPerRow &&
    worst((f) => f.peakRssMb) <= TARGETS.peakRssMb &&
    worst((f) => f.batchBytesLeft) <= TARGETS.bytesLeft;
  console.log(`  targets: ${met ? 'met' : 'NOT met'}`);
  if (!met) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await footprintRounds(flag('--rows', 1_000_000), flag('--rounds', 1));
