// Memory and time of writing a 1M-row report as XLSX (exceljs' streaming writer, as the report writer
// uses it) against the CSV of the same rows, each in its own process so that peak RSS is its own.
// Formats alternate (csv, xlsx, csv, xlsx, ...); min/median/max per format.
// Run: npx tsc -p tsconfig.json && node dist/bench/xlsx-footprint.js   (BENCH_ROWS, BENCH_REPEATS)
// Target (issue 14): the 1M-row XLSX with peak RSS at most 300 MB.

import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULT_COLUMNS } from '../src/report/row-result.js';
import { openSink, type ReportFormat } from '../src/report/sink.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const TARGET_RSS_MB = 300;
const HEADER = ['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name', 'notes'];
const RESULTS = ['MATCH', 'MATCH', 'MATCH', 'CLOSE_MATCH', 'NO_MATCH', 'ACCOUNT_INVALID', 'FAILED'];

interface Measure {
  format: ReportFormat;
  seconds: number;
  peakRssMb: number;
  bytes: number;
}

/** A report row as the writer makes it: distinct ids, names and account numbers (no string repeats for the writer to share). */
function row(index: number): string[] {
  const result = RESULTS[index % RESULTS.length]!;
  return [
    `BEN-${String(index).padStart(7, '0')}`,
    '014',
    String(1_000_000_000 + index * 7).padStart(16, '0'),
    `Budi Santoso ${index}`,
    index % 10 === 0 ? '=HYPERLINK("http://example.invalid")' : '',
    result,
    result === 'MATCH' ? '100' : '72',
    `BUDI SANTOSO ${index}`,
    'BCA',
    '6500',
    'SUCCESS',
    String(100_000 + index),
    '2026-11-21T06:52:03.123456Z',
    result === 'MATCH' ? '' : 'holder differs: SANTOSA for SANTOSO',
    index % 50 === 0 ? 'HOLDER_CHANGED' : 'UNCHANGED',
  ];
}

/** In the child: writes the rows through the sink and prints its own figures. */
async function writeReport(format: ReportFormat, path: string): Promise<void> {
  const started = process.hrtime.bigint();
  const sink = await openSink(path, { delimiter: ',', resultColumn: HEADER.length });
  await sink.write([...HEADER, ...RESULT_COLUMNS]);
  for (let index = 0; index < ROWS; index += 1) await sink.write(row(index));
  await sink.close();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const measure: Measure = { format, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024, bytes: (await stat(path)).size };
  process.stdout.write(`${JSON.stringify(measure)}\n`);
}

function runChild(format: ReportFormat, path: string): Promise<Measure> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'child', format, path], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(output.trim()) as Measure) : reject(new Error(`${format} writer exited ${code}`)),
    ),
  );
}

const summarise = (values: number[], digits = 1) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0]!.toFixed(digits)} / ${sorted[Math.floor(sorted.length / 2)]!.toFixed(digits)} / ${sorted.at(-1)!.toFixed(digits)}`;
};

async function main(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'bc-bench-xlsx-'));
  const measures: Measure[] = [];
  try {
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      for (const format of ['csv', 'xlsx'] as const) {
        const path = join(folder, `report-${repeat}.${format}`);
        measures.push(await runChild(format, path));
        await rm(path, { force: true });
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const of = (format: ReportFormat) => measures.filter((measure) => measure.format === format);
  const csv = of('csv');
  const xlsx = of('xlsx');
  const ratios = xlsx.map((measure, index) => measure.seconds / csv[index]!.seconds);
  console.log(
    `${ROWS.toLocaleString('en-US')} rows x ${HEADER.length + RESULT_COLUMNS.length} columns, ${REPEATS} runs per format (alternating), Node ${process.version}; min / median / max`,
  );
  console.log(
    `  CSV   time ${summarise(csv.map((m) => m.seconds))} s   peak RSS ${summarise(
      csv.map((m) => m.peakRssMb),
      0,
    )} MB   file ${(csv[0]!.bytes / 1e6).toFixed(0)} MB`,
  );
  console.log(
    `  XLSX  time ${summarise(xlsx.map((m) => m.seconds))} s   peak RSS ${summarise(
      xlsx.map((m) => m.peakRssMb),
      0,
    )} MB   file ${(xlsx[0]!.bytes / 1e6).toFixed(0)} MB`,
  );
  console.log(`  XLSX/CSV time ratio (pairwise) ${summarise(ratios, 2)}`);
  const worst = Math.max(...xlsx.map((m) => m.peakRssMb));
  console.log(
    `  target: XLSX peak RSS <= ${TARGET_RSS_MB} MB: ${worst <= TARGET_RSS_MB ? 'met' : 'NOT met'} (worst ${worst.toFixed(0)} MB)`,
  );
  if (worst > TARGET_RSS_MB) process.exitCode = 1;
}

if (process.argv[2] === 'child') await writeReport(process.argv[3] as ReportFormat, process.argv[4]!);
else await main();
