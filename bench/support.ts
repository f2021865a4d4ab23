import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

export const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs the built CLI as a real process and times it. */
export function runCli(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', LOG_LEVEL: 'error', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr, seconds: Number(process.hrtime.bigint() - started) / 1e9 })),
  );
}

export function startCli(args: string[], env: Record<string, string>) {
  return spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env }, stdio: 'ignore' });
}

/** Deletes the keys a benchmark wrote under its prefix. */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

export const ratio = (value: number, baseline: number): string => (baseline > 0 ? (value / baseline).toFixed(3) : 'n/a');
