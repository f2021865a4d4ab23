/**
 * The keeper of a private redis-server, as a process of its own:
 *
 *   node private-server-watchdog.js <directory> <command> [args...]
 *
 * It starts the server (`<command> <args>`), writes `started <pid>` (or `failed <code> <message>`) on
 * stdout, then reads stdin until it closes. The other end is held by the `run` that started it: when that
 * process stops it, exits, crashes or is killed with SIGKILL, the pipe closes (the kernel closes a dead
 * process's files), and the watchdog stops the server and removes its directory. A server that dies by
 * itself ends the watchdog too. Signals from the terminal do not reach it (it runs in its own session);
 * any that do are treated like the pipe closing.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const KILL_AFTER_MS = 5_000;

const [directory, command, ...args] = process.argv.slice(2);
if (directory === undefined || command === undefined) {
  process.stderr.write('usage: private-server-watchdog <directory> <command> [args...]\n');
  process.exit(2);
}

const removeDirectory = () => rmSync(directory, { recursive: true, force: true });
const server = spawn(command, args, { stdio: 'ignore' });

server.once('spawn', () => {
  process.stdout.write(`started ${server.pid}\n`);
  if (stopping) server.kill('SIGTERM');
});
server.once('error', (error: NodeJS.ErrnoException) => {
  process.stdout.write(`failed ${error.code ?? 'ERROR'} ${error.message}\n`);
  removeDirectory();
  process.exit(1);
});
server.once('exit', () => {
  removeDirectory();
  process.exit(0);
});

let stopping = false;
function stopServer(): void {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  setTimeout(() => server.kill('SIGKILL'), KILL_AFTER_MS).unref();
}

process.stdin.on('end', stopServer);
process.stdin.on('close', stopServer);
process.stdin.on('error', stopServer);
process.stdin.resume();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stopServer);
// The parent may be gone: writing to a closed stdout must not kill the watchdog before it cleans up.
process.stdout.on('error', () => undefined);
