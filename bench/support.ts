import { spawn, type ChildProcess } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import got from 'got';
import { Redis } from 'ioredis';
import type { BaselineKind, BaselineOptions } from './baselines.js';

export const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const BASELINES_SCRIPT = fileURLToPath(new URL('./baselines.js', import.meta.url));
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** The priority the bench was started with (read as this module loads, before compare.ts raises its own). */
const STARTING_PRIORITY = getPriority();

/**
 * What the bench starts runs at the priority the bench was started with, whatever the bench's own now
 * (compare.ts raises its own, the emulator's, see favourTheEmulator): the runners compete for the cores as
 * they would without the bench. Not a fixed 0: under `nice`, going below the starting value needs privileges.
 */
export function atStartingPriority<T extends ChildProcess>(child: T): T {
  if (child.pid !== undefined && getPriority() !== STARTING_PRIORITY) setPriority(child.pid, STARTING_PRIORITY);
  return child;
}

/** Runs the built CLI as a real process and times it. */
export function runCli(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  const started = process.hrtime.bigint();
  const child = atStartingPriority(
    spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr, seconds: Number(process.hrtime.bigint() - started) / 1e9 })),
  );
}

/** Runs one baseline of bench/baselines.ts as a process of its own, against the Redis at `redisUrl`; resolves to its wall time (s). */
export function runBaseline(
  kind: BaselineKind,
  options: BaselineOptions,
  redisUrl: string,
  env: Record<string, string> = {},
): Promise<number> {
  const started = process.hrtime.bigint();
  const child = atStartingPriority(
    spawn(process.execPath, [BASELINES_SCRIPT, kind, JSON.stringify(options)], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, REDIS_URL: redisUrl, ...env },
    }),
  );
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e9) : reject(new Error(`baseline ${kind} exited ${code}`)),
    ),
  );
}

export function startCli(args: string[], env: Record<string, string>) {
  return atStartingPriority(
    spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env }, stdio: 'ignore' }),
  );
}

/** Deletes the keys a benchmark wrote under its prefix. */
export async function deletePrefix(prefix: string, redisUrl = REDIS_URL): Promise<void> {
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

export const ratio = (value: number, baseline: number): string => (baseline > 0 ? (value / baseline).toFixed(3) : 'n/a');

/**
 * The baseline every rate figure is compared with: a bare loop that sends `calls` inquiries paced at
 * `ratePerSecond` straight to the emulator (no queue, no Redis). It shows what this machine, as loaded
 * right now, achieves at all.
 */
export async function pacedBaseline(url: string, calls: number, ratePerSecond: number): Promise<number> {
  const { body } = await got.post(`${url}/api/login`, { json: { username: 'sandbox', password: 'sandbox' }, responseType: 'json' });
  const token = (body as { data: { access_token: string } }).data.access_token;
  const started = performance.now();
  const inFlight: Promise<unknown>[] = [];
  for (let call = 0; call < calls; call += 1) {
    const wait = started + (call * 1000) / ratePerSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      got.post(`${url}/api/transfer/inquiry`, {
        json: { bank_code: '014', account_number: '000100000000' },
        headers: { authorization: `Bearer ${token}` },
        throwHttpErrors: false,
      }),
    );
  }
  await Promise.all(inFlight);
  return (calls * 1000) / (performance.now() - started);
}
