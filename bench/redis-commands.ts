/**
 * What each row costs Redis, the product (`run`, the built CLI) beside raw BullMQ + undici: the commands
 * sent per row (MONITOR, each a write and a reply to parse for the client), the commands the server
 * executed per row (INFO commandstats, Lua's own calls included) with their server time, and the bytes
 * sent to it and received from it per row. The unlimited scenario of bench/compare.ts (zero-latency
 * emulator, everyone at --concurrency), one run each, on a private redis-server of its own, so that other
 * users of a shared Redis do not show up in the counts. Counts, not speed: compare.ts measures the speed.
 *
 *   npm run build && node dist/bench/redis-commands.js [--rows 5000] [--concurrency 64]
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import type { LuaCommand } from '../src/redis/commands/define.js';
import * as batchCommands from '../src/redis/commands/batch.js';
import * as historyCommands from '../src/redis/commands/history.js';
import * as leaseCommands from '../src/redis/commands/lease.js';
import * as pacerCommands from '../src/redis/commands/pacer.js';
import * as tokenCommands from '../src/redis/commands/token.js';
import { startPrivateRedis } from '../src/redis/private-server.js';
import { startSandbox } from '../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../src/sandbox/synthetic-accounts.js';
import { runBaseline, runCli } from './support.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '64' } } });
const rows = Number(values.rows);
const concurrency = Number(values.concurrency);

/** The product's own Lua commands by SHA (ioredis sends EVALSHA of the script's SHA-1); any other script is BullMQ's. */
const scriptNames = new Map(
  [batchCommands, historyCommands, leaseCommands, pacerCommands, tokenCommands]
    .flatMap((module): unknown[] => Object.values(module))
    .filter((value): value is LuaCommand => typeof value === 'object' && value !== null && 'lua' in value)
    .map((command) => [createHash('sha1').update(command.lua).digest('hex'), command.name]),
);
const sentName = (args: string[]): string => {
  const name = args[0]?.toLowerCase() ?? '';
  return name === 'evalsha' || name === 'eval' ? `${name}(${scriptNames.get(args[1] ?? '') ?? 'BullMQ'})` : name;
};

interface Counts {
  commands: Map<string, { calls: number; usec: number }>;
  bytesIn: number;
  bytesOut: number;
}

async function counts(redis: Redis): Promise<Counts> {
  const commands = new Map<string, { calls: number; usec: number }>();
  for (const match of (await redis.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    commands.set(match[1]!, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  const stats = await redis.info('stats');
  const stat = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
  return { commands, bytesIn: stat('total_net_input_bytes'), bytesOut: stat('total_net_output_bytes') };
}

/** Per row, between two readings; the readings' own INFO calls are left out. */
function perRow(before: Counts, after: Counts, sent: Map<string, number>): string {
  const sentTotal = [...sent.values()].reduce((sum, calls) => sum + calls, 0);
  const commands = [...after.commands]
    .filter(([name]) => name !== 'info' && name !== 'config')
    .map(([name, { calls, usec }]) => ({
      name,
      calls: calls - (before.commands.get(name)?.calls ?? 0),
      usec: usec - (before.commands.get(name)?.usec ?? 0),
    }))
    .filter((command) => command.calls > 0)
    .sort((a, b) => b.calls - a.calls);
  const total = commands.reduce((sum, command) => sum + command.calls, 0);
  const usec = commands.reduce((sum, command) => sum + command.usec, 0);
  return [
    `${(sentTotal / rows).toFixed(2)} commands sent/row: ${[...sent]
      .sort((a, b) => b[1] - a[1])
      .filter(([, calls]) => calls / rows >= 0.01)
      .map(([name, calls]) => `${name} ${(calls / rows).toFixed(2)}`)
      .join(', ')}`,
    `    ${(total / rows).toFixed(1)} commands executed/row, ${(usec / rows).toFixed(0)} µs of Redis time/row, ${((after.bytesIn - before.bytesIn) / rows).toFixed(0)} B/row sent to Redis, ${((after.bytesOut - before.bytesOut) / rows).toFixed(0)} B/row received`,
    `    ${commands.map((command) => `${command.name} ${(command.calls / rows).toFixed(2)}`).join(', ')}`,
  ].join('\n');
}

const redisServer = await startPrivateRedis();
const redis = new Redis(redisServer.url);
const accounts = syntheticAccounts(rows);
const sandbox = await startSandbox({ accounts });
const directory = await mkdtemp(join(tmpdir(), 'bc-redis-commands-'));
try {
  const input = join(directory, 'beneficiaries.csv');
  await writeBeneficiaryFile(input, accounts);
  // Each runner runs twice: once for the server's own counts, once under MONITOR (which costs the server
  // time and sends every command back, so it would blur the first figures) for the commands clients sent.
  const measure = async (run: () => Promise<void>): Promise<string> => {
    await redis.config('RESETSTAT');
    const before = await counts(redis);
    await run();
    const after = await counts(redis);
    // A script's own calls come from "lua"; this script's INFO and CONFIG are left out.
    const sent = new Map<string, number>();
    const monitor = await redis.monitor();
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      const name = sentName(args);
      if (source !== 'lua' && name !== 'info' && name !== 'config') sent.set(name, (sent.get(name) ?? 0) + 1);
    });
    await run();
    monitor.disconnect();
    return perRow(before, after, sent);
  };
  const product = await measure(async () => {
    const result = await runCli(
      ['run', input, '--out', join(directory, 'report.csv'), '--rate', '1000000/s', '--concurrency', String(concurrency)],
      {
        REDIS_URL: redisServer.url,
        // A prefix per run: the same file under the same prefix would be the finished batch, not asked again.
        BC_KEY_PREFIX: `bccmd-${randomBytes(3).toString('hex')}`,
        BC_ENV_FILE: 'none',
        H2H_BASE_URL: sandbox.url,
        H2H_USERNAME: 'sandbox',
        H2H_PASSWORD: 'sandbox',
      },
    );
    if (result.code !== 0) throw new Error(`run exited ${result.code}:\n${result.stderr}`);
  });
  const bullmq = await measure(async () => {
    await runBaseline(
      'bullmq-undici',
      { url: sandbox.url, rows, concurrency, rate: undefined, prefix: `bcbench-${randomBytes(3).toString('hex')}` },
      redisServer.url,
    );
  });
  console.log(`Redis per row, ${rows} rows, zero-latency emulator, concurrency ${concurrency} (run: the whole command, report included)`);
  console.log(`  product     ${product}`);
  console.log(`  raw BullMQ  ${bullmq}`);
} finally {
  redis.disconnect();
  await sandbox.close();
  await redisServer.stop();
  await rm(directory, { recursive: true, force: true });
}
