/**
 * The product (`run`, the built CLI as a real process) against anchors on the same HTTP client (undici;
 * bench/baselines.ts), against one in-process emulator and one private redis-server of the bench's own (so
 * that other users of a shared Redis neither slow it nor show in its counts), alternating product and anchor
 * over N rounds (the order rotated each round), printing min/median/max per runner of:
 *
 *   - rows/s: calls answered (429s excluded) over the time from the first call to the last, as the emulator
 *     saw them (process start and report writing are not in it), or for `example` the wall time of the
 *     whole process, start to exit;
 *   - 429s answered;
 *   - CPU per row of the client: user + system of every process the runner started (bench/cpu-probe.ts);
 *   - CPU per row of Redis (`INFO cpu` used_cpu_user + used_cpu_sys, before and after) and commands Redis
 *     executed per row (`INFO stats` total_commands_processed, Lua's own calls included).
 *
 * Scenarios:
 *   unlimited  zero latency, no limit, 100k rows, `run --rate 1000000/s --concurrency 64` against raw BullMQ + undici at 64
 *   rate       the emulator enforcing 200/s (sliding second), 20-80 ms, `run --rate 200/s`, 10k rows,
 *              against a loop paced at 200/s that never sends more than 200 in a sliding second; and, for the
 *              CPU a row only, raw BullMQ + undici held at 200/s by BullMQ's own limiter (concurrency 64)
 *   latency    100 ms, `run --rate 500/s` and no other flag, 5k rows, against the same loop at 500/s
 *   example    examples/beneficiaries.csv (28 rows) against the example accounts (20-80 ms), `run --rate 1000/s`,
 *              end to end, against a plain script: read the file, log in, ask each account
 *   memory     bench/footprint.ts (peak Redis bytes per row, RSS, bytes left after prune)
 *
 * Every product run's report is checked to hold every row exactly once.
 *
 *   npm run bench -- [--scenario unlimited|rate|latency|example|memory|all] [--rows N] [--rounds N] [--concurrency N]
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { Redis } from 'ioredis';
import { startPrivateRedis } from '../src/redis/private-server.js';
import { startSandbox } from '../src/sandbox/index.js';
import { syntheticAccounts, writeBeneficiaryFile } from '../src/sandbox/synthetic-accounts.js';
import type { SandboxKnobs, SandboxOptions, SandboxServer } from '../src/sandbox/types.js';
import type { BaselineKind } from './baselines.js';
import { deletePrefix, runBaseline, runCli } from './support.js';
import { footprintRounds } from './footprint.js';

const SCENARIOS = ['unlimited', 'rate', 'latency', 'example', 'memory'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

const EXAMPLE_FILE = fileURLToPath(new URL('../../examples/beneficiaries.csv', import.meta.url));
const EXAMPLE_ACCOUNTS = fileURLToPath(new URL('../../examples/sandbox-accounts.csv', import.meta.url));
const CPU_PROBE = pathToFileURL(fileURLToPath(new URL('./cpu-probe.js', import.meta.url))).href;

interface Scenario {
  /** Rows in the file (`example`: the example file's). */
  rows: number;
  emulator: SandboxOptions;
  /** The product's flags besides the input and --out. */
  flags: string[];
  anchor: BaselineKind;
  /**
   * Runners measured beside the anchor for their CPU a row only, at their own concurrency: what the
   * product's stack (BullMQ, Redis, undici) costs at the scenario's pace, where the anchor is no such stack.
   */
  cpuReferences?: Array<{ kind: BaselineKind; concurrency: number }>;
  /** The anchor's concurrency (where it has one) and rate. */
  concurrency: number;
  rate: number | undefined;
  /** Throughput is the whole process's wall time (small files), not the emulator's first-to-last call. */
  wallTime: boolean;
}

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'all' },
    rows: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '64' },
  },
});
const rounds = Number(values.rounds);
const sameConcurrency = Number(values.concurrency);
const rowsFlag = values.rows === undefined ? undefined : Number(values.rows);

/**
 * The emulator stands for a provider on machines of its own, and stamps each call when its handler runs.
 * Here it shares the cores with `run`, the anchors and Redis, and the scheduler can keep it off the CPU
 * for 20-30 ms: calls that reached it on time are then stamped that late, and its sliding window counts a
 * call a window later as one too many, a 429 no client caused. So the process that hosts it runs at a
 * higher priority where the OS allows it (root, or CAP_SYS_NICE), and says so where it does not.
 */
function favourTheEmulator(): void {
  try {
    setPriority(-10);
  } catch (error) {
    console.log(
      `note: the emulator runs at normal priority (${(error as Error).message}): on a busy machine it may stamp calls late and answer 429s no client caused`,
    );
  }
}

/** The product run as fast as it goes: a rate nothing reaches, so that neither limit nor pacer holds it. */
const UNLIMITED_RATE = 1_000_000;

const scenarios: Record<Exclude<ScenarioName, 'memory'>, () => Scenario> = {
  unlimited: () => ({
    rows: rowsFlag ?? 100_000,
    emulator: {},
    flags: ['--rate', `${UNLIMITED_RATE}/s`, '--concurrency', String(sameConcurrency)],
    anchor: 'bullmq-undici',
    concurrency: sameConcurrency,
    rate: undefined,
    wallTime: false,
  }),
  rate: () => ({
    rows: rowsFlag ?? 10_000,
    emulator: { latencyMs: { min: 20, max: 80 }, rateLimit: { max: 200, windowMs: 1000 } },
    flags: ['--rate', '200/s'],
    anchor: 'paced',
    cpuReferences: [{ kind: 'bullmq-limiter', concurrency: sameConcurrency }],
    concurrency: 0,
    rate: 200,
    wallTime: false,
  }),
  latency: () => ({
    rows: rowsFlag ?? 5_000,
    emulator: { latencyMs: { min: 100, max: 100 } },
    flags: ['--rate', '500/s'],
    anchor: 'paced',
    concurrency: 0,
    rate: 500,
    wallTime: false,
  }),
  example: () => ({
    rows: 28,
    emulator: { accountsFile: EXAMPLE_ACCOUNTS, latencyMs: { min: 20, max: 80 } },
    flags: ['--rate', '1000/s'],
    anchor: 'script',
    concurrency: 0,
    rate: 1000,
    wallTime: true,
  }),
};

interface Measured {
  rowsPerSecond: number;
  seconds: number;
  rateLimited: number;
  clientMicrosPerRow: number;
  redisMicrosPerRow: number;
  redisCommandsPerRow: number;
}

interface RedisCounters {
  cpuMicros: number;
  commands: number;
}

async function redisCounters(redis: Redis): Promise<RedisCounters> {
  const info = `${await redis.info('cpu')}\n${await redis.info('stats')}`;
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 'NaN');
  return { cpuMicros: (field('used_cpu_user') + field('used_cpu_sys')) * 1e6, commands: field('total_commands_processed') };
}

const quantiles = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor((sorted.length - 1) / 2)]!, max: sorted.at(-1)! };
};
const spread = (numbers: number[], digits: number) => {
  const { min, median, max } = quantiles(numbers);
  return `${min.toFixed(digits)} / ${median.toFixed(digits)} / ${max.toFixed(digits)}`;
};

class Bench {
  private constructor(
    private readonly redisUrl: string,
    private readonly redis: Redis,
    private readonly directory: string,
    readonly stop: () => Promise<void>,
  ) {}

  static async start(): Promise<Bench> {
    const server = await startPrivateRedis();
    const redis = new Redis(server.url);
    const directory = await mkdtemp(join(tmpdir(), 'bc-compare-'));
    return new Bench(server.url, redis, directory, async () => {
      redis.disconnect();
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    });
  }

  /** Runs `run` against the emulator, measures it, and checks its report holds every row once. */
  async runProduct(sandbox: SandboxServer, scenario: Scenario, input: string): Promise<Measured> {
    const prefix = `bcbench-${randomBytes(3).toString('hex')}`;
    const out = join(this.directory, `${prefix}.csv`);
    const measured = await this.measure(sandbox, scenario, prefix, (env) =>
      runCli(['run', input, '--out', out, ...scenario.flags], {
        ...env,
        REDIS_URL: this.redisUrl,
        BC_KEY_PREFIX: prefix,
        BC_ENV_FILE: 'none',
        H2H_BASE_URL: sandbox.url,
        H2H_USERNAME: 'sandbox',
        H2H_PASSWORD: 'sandbox',
      }).then((result) => {
        if (result.code !== 0) throw new Error(`product run exited ${result.code}:\n${result.stderr}`);
        return result.seconds;
      }),
    );
    const report = parse(await readFile(out), { bom: true, columns: true }) as Record<string, string>[];
    await rm(out);
    await rm(out.replace(/\.csv$/, '.summary.json'), { force: true });
    const ids = new Set(report.map((row) => row.beneficiary_id));
    if (report.length !== scenario.rows || ids.size !== scenario.rows)
      throw new Error(`product run: ${report.length} rows, ${ids.size} distinct of ${scenario.rows}: ROWS LOST OR DUPLICATED`);
    return measured;
  }

  async runAnchor(
    sandbox: SandboxServer,
    scenario: Scenario,
    input: string,
    { kind, concurrency }: { kind: BaselineKind; concurrency: number },
  ): Promise<Measured> {
    const prefix = `bcbench-${randomBytes(3).toString('hex')}`;
    return this.measure(sandbox, scenario, prefix, (env) =>
      runBaseline(
        kind,
        { url: sandbox.url, rows: scenario.rows, concurrency, rate: scenario.rate, prefix, file: input },
        this.redisUrl,
        env,
      ),
    );
  }

  /** One run (resolving to its wall time), measured from the emulator's stamps, the CPU probe's lines and Redis's counters. */
  private async measure(
    sandbox: SandboxServer,
    scenario: Scenario,
    prefix: string,
    run: (env: Record<string, string>) => Promise<number>,
  ): Promise<Measured> {
    const cpuFile = join(this.directory, `${prefix}.cpu`);
    await writeFile(cpuFile, '');
    // The emulator's sliding window counts every caller: a runner that starts within a window of the one
    // before would be answered 429 for that one's calls. Each starts with the window empty.
    await delay(scenario.emulator.rateLimit?.windowMs ?? 0);
    sandbox.resetStats();
    const before = await redisCounters(this.redis);
    const seconds = await run({ NODE_OPTIONS: `--import ${CPU_PROBE}`, BENCH_CPU_FILE: cpuFile });
    const after = await redisCounters(this.redis);
    await deletePrefix(prefix, this.redisUrl);
    const clientMicros = (await readFile(cpuFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .reduce((sum, line) => sum + Number(line), 0);
    const stats = sandbox.stats();
    const answered = stats.inquiries - stats.rateLimited;
    const callSeconds = ((stats.lastInquiryAt ?? 0) - (stats.firstInquiryAt ?? 0)) / 1000;
    return {
      rowsPerSecond: scenario.wallTime ? scenario.rows / seconds : callSeconds > 0 ? answered / callSeconds : 0,
      seconds,
      rateLimited: stats.rateLimited,
      clientMicrosPerRow: clientMicros / scenario.rows,
      redisMicrosPerRow: (after.cpuMicros - before.cpuMicros) / scenario.rows,
      // The two INFO calls of the reading before are counted in `after`.
      redisCommandsPerRow: (after.commands - before.commands - 2) / scenario.rows,
    };
  }
}

async function compare(bench: Bench, name: Exclude<ScenarioName, 'memory'>): Promise<void> {
  const scenario = scenarios[name]();
  let input = EXAMPLE_FILE;
  let sandbox: SandboxServer;
  if (name === 'example') sandbox = await startSandbox(scenario.emulator);
  else {
    const accounts = syntheticAccounts(scenario.rows);
    sandbox = await startSandbox({ accounts, ...scenario.emulator });
    input = join(tmpdir(), `bc-compare-${randomBytes(3).toString('hex')}.csv`);
    await writeBeneficiaryFile(input, accounts);
  }
  const anchors = [{ kind: scenario.anchor, concurrency: scenario.concurrency }, ...(scenario.cpuReferences ?? [])];
  const runners = ['product', ...anchors.map((anchor) => anchor.kind)];
  const measured = new Map<string, Measured[]>(runners.map((runner) => [runner, []]));
  const knobs: Partial<SandboxKnobs> = {
    latencyMs: scenario.emulator.latencyMs ?? { min: 0, max: 0 },
    rateLimit: scenario.emulator.rateLimit ?? null,
  };
  console.log(
    `\n${name}: ${scenario.rows} rows, emulator ${JSON.stringify(knobs)}, product \`run ${scenario.flags.join(' ')}\`, anchor ${scenario.anchor}${scenario.concurrency ? ` at concurrency ${scenario.concurrency}` : ''}${scenario.rate ? ` at ${scenario.rate}/s` : ''}${(scenario.cpuReferences ?? []).map((reference) => `; CPU reference ${reference.kind} at concurrency ${reference.concurrency}`).join('')}`,
  );
  try {
    for (let round = 0; round < rounds; round += 1) {
      // Rotated each round, so that each runner goes first in turn (with two, the order swaps).
      const order = runners.map((_, index) => runners[(index + round) % runners.length]!);
      for (const runner of order) {
        const result =
          runner === 'product'
            ? await bench.runProduct(sandbox, scenario, input)
            : await bench.runAnchor(sandbox, scenario, input, anchors.find((anchor) => anchor.kind === runner)!);
        measured.get(runner)!.push(result);
        console.log(
          `  round ${round + 1} ${runner.padEnd(14)} ${result.rowsPerSecond.toFixed(1)} rows/s, ${result.seconds.toFixed(2)} s, ${result.rateLimited} answered 429, CPU/row client ${result.clientMicrosPerRow.toFixed(0)} µs + Redis ${result.redisMicrosPerRow.toFixed(0)} µs, ${result.redisCommandsPerRow.toFixed(1)} Redis commands/row`,
        );
      }
    }
  } finally {
    await sandbox.close();
    if (input !== EXAMPLE_FILE) await rm(input, { force: true });
  }
  console.log(`${name} summary (${rounds} rounds, min / median / max):`);
  for (const runner of runners) {
    const runs = measured.get(runner)!;
    const column = (pick: (each: Measured) => number, digits: number) => spread(runs.map(pick), digits);
    console.log(
      `  ${runner.padEnd(14)} ${scenario.wallTime ? `wall s ${column((each) => each.seconds, 2)}` : `rows/s ${column((each) => each.rowsPerSecond, 1)}`}; 429s ${column((each) => each.rateLimited, 0)}; CPU/row client µs ${column((each) => each.clientMicrosPerRow, 0)}, Redis µs ${column((each) => each.redisMicrosPerRow, 0)}; Redis commands/row ${column((each) => each.redisCommandsPerRow, 1)}`,
    );
  }
  const product = measured.get('product')!;
  const anchor = measured.get(scenario.anchor)!;
  if (scenario.wallTime)
    console.log(
      `  product wall time / ${scenario.anchor}: ${spread(
        product.map((each, round) => each.seconds / anchor[round]!.seconds),
        2,
      )}`,
    );
  else {
    if (scenario.rate !== undefined)
      console.log(
        `  product / ${scenario.rate}/s: ${spread(
          product.map((each) => each.rowsPerSecond / scenario.rate!),
          3,
        )}`,
      );
    console.log(
      `  product / ${scenario.anchor}: ${spread(
        product.map((each, round) => each.rowsPerSecond / anchor[round]!.rowsPerSecond),
        3,
      )}`,
    );
  }
  const cpu = (each: Measured) => each.clientMicrosPerRow + each.redisMicrosPerRow;
  for (const { kind } of anchors) {
    const runs = measured.get(kind)!;
    console.log(
      `  CPU/row (client + Redis) product / ${kind}: ${spread(
        product.map((each, round) => cpu(each) / cpu(runs[round]!)),
        2,
      )}`,
    );
  }
}

/** The memory scenario is bench/footprint.ts's (1,000,000 rows unless --rows says otherwise). */
async function memory(): Promise<void> {
  console.log('\nmemory:');
  await footprintRounds(rowsFlag ?? 1_000_000, rounds);
}

favourTheEmulator();
const chosen =
  values.scenario === 'all'
    ? SCENARIOS.filter((name) => name !== 'memory')
    : values.scenario!.split(',').map((name) => name as ScenarioName);
if (!chosen.every((name) => SCENARIOS.includes(name))) {
  console.error(
    `unknown scenario ${JSON.stringify(values.scenario)}: ${SCENARIOS.join(', ')} (comma-separated) or all (every one but memory)`,
  );
  process.exit(2);
}
const bench = await Bench.start();
try {
  for (const name of chosen) {
    if (name === 'memory') await memory();
    else await compare(bench, name);
  }
} finally {
  await bench.stop();
}
