import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_REDIS_URL } from './redis.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment for a CLI child: never a developer's .env (BC_ENV_FILE=none), the test's Redis prefix and provider. */
export function cliEnvironment(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', BC_ENV_FILE: 'none' };
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) environment[key] = value;
  return environment;
}

/** The CLI's environment against a test's emulator: the test Redis under `prefix`, the emulator's address and login, then `extra`. */
export const emulatorEnvironment = (
  prefix: string,
  emulatorUrl: string,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv =>
  cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: emulatorUrl,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    ...extra,
  });

/** Starts the built binary as a real process. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, cwd = PROJECT_ROOT): ChildProcess & { output: () => CliResult } {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return Object.assign(child, { output: () => ({ code: child.exitCode, stdout, stderr }) });
}

/** Runs the binary to the end. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000, cwd = PROJECT_ROOT): Promise<CliResult> {
  const child = startCli(args, env, cwd);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  return { ...child.output(), code };
}

export async function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('close', resolve));
}
