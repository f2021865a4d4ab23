/**
 * What this machine charges for work done at a pace rather than back to back: the floor under every paced
 * figure of bench/compare.ts, measured in one Node process with no Redis, no HTTP and no product code.
 *
 *   - a bare timer: CPU per wake-up of a timer that does nothing, one every `1000 / rate` ms;
 *   - a fixed piece of JS (JSON parsing, a SHA-256, some string work: about what a row's own work is made of),
 *     run `rows` times back to back, then once per wake-up at the same pace, alternating, min/median/max.
 *
 * On a machine where an idle core costs nothing to wake and stays warm, the paced figure is the back-to-back
 * one plus a few microseconds. On the virtual machines this was written on, a wake-up costs 60-160 µs by itself
 * and the same work runs 2-4 times slower when it comes 5 ms apart (caches and predictors cold): a paced row
 * can then never cost what an unpaced one does, whatever the code does per row. See docs/performance.md.
 *
 *   npm run build && node dist/bench/wake-cost.js [--rate 200] [--rows 1000] [--rounds 3]
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    rows: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
  },
});
const gapMs = 1000 / Number(values.rate);
const rows = Number(values.rows);
const rounds = Number(values.rounds);

const ANSWER = JSON.stringify({
  response_code: '2001600',
  response_message: 'Successful',
  data: { account_name: 'PT SUMBER REJEKI ABADI', bank_code: '014', account_number: '0012345678', status: 'valid' },
});
let sink = 0;

/** About a row's own work, done hot: a few dozen microseconds back to back on a current core. */
function rowWork(): void {
  for (let index = 0; index < 20; index += 1) {
    const answer = JSON.parse(ANSWER) as { data: { account_name: string; account_number: string } };
    sink += createHash('sha256')
      .update(answer.data.account_number + index)
      .digest()[0]!;
    sink += answer.data.account_name
      .split(' ')
      .map((word) => word.normalize('NFKD').toUpperCase())
      .join('|').length;
  }
}

const cpuMicros = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

/** CPU a row (µs) of `work` done `rows` times, back to back or one per wake-up `gapMs` apart. */
async function measure(work: () => void, paced: boolean): Promise<number> {
  const started = process.cpuUsage();
  if (!paced) for (let row = 0; row < rows; row += 1) work();
  else
    await new Promise<void>((resolve) => {
      let row = 0;
      const wake = () => {
        work();
        row += 1;
        if (row < rows) setTimeout(wake, gapMs);
        else resolve();
      };
      setTimeout(wake, gapMs);
    });
  return cpuMicros(started) / rows;
}

const spread = (numbers: number[]): string => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return `${sorted[0]!.toFixed(1)} / ${sorted[Math.floor((sorted.length - 1) / 2)]!.toFixed(1)} / ${sorted.at(-1)!.toFixed(1)}`;
};

// Compiled and warmed before anything is measured.
for (let row = 0; row < 2_000; row += 1) rowWork();
const bare: number[] = [];
const hot: number[] = [];
const paced: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  bare.push(await measure(() => undefined, true));
  hot.push(await measure(rowWork, false));
  paced.push(await measure(rowWork, true));
}
console.log(`wake-cost: ${rows} rows a round, ${rounds} rounds, paced at ${values.rate}/s (min / median / max, µs of CPU a row)`);
console.log(`  a bare timer's wake-up       ${spread(bare)}`);
console.log(`  row work back to back        ${spread(hot)}`);
console.log(`  the same work, paced         ${spread(paced)}`);
console.log(`  paced / back to back         ${spread(paced.map((each, round) => each / hot[round]!))}x`);
if (sink === 0) console.log('');
