import { createWriteStream } from 'node:fs';
import { mkdir, rename, writeFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import type { BatchStore } from '../queue/batch-store.js';
import { decideRowResult, resultCells, RESULT_COLUMNS, RESULT_VALUES, type ResultValue } from './row-result.js';
import { neutraliseCell } from './neutralise.js';

const SLICE_ROWS = 1000;

export interface BatchSummary {
  batchId: string;
  sourceFile: string;
  report: string;
  rows: number;
  accounts: number;
  counts: Record<ResultValue, number>;
  /** Inquiry calls made, retries included; 429 answers counted apart. */
  calls: number;
  rateLimited: number;
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
}

/** `out/report.csv` -> `out/report.summary.json`. */
export const summaryPathFor = (reportPath: string): string => `${reportPath.replace(/\.csv$/i, '')}.summary.json`;

/**
 * Writes the reconciliation CSV: the input rows in file order with their columns untouched, then the
 * result columns. Streams slice by slice from Redis, and writes to a temporary file renamed at the end,
 * so a reader never sees half a report. `summaryExtras` are fields of the service that made the report
 * (input name, duplicate note, scheduled run), written into the summary JSON with the rest.
 */
export async function writeReport(
  store: BatchStore,
  batchId: string,
  reportPath: string,
  summaryExtras: Record<string, unknown> = {},
): Promise<BatchSummary> {
  const batch = await store.get(batchId);
  const counts = Object.fromEntries(RESULT_VALUES.map((value) => [value, 0])) as Record<ResultValue, number>;
  await mkdir(dirname(reportPath), { recursive: true });
  const temporaryPath = `${reportPath}.${process.pid}.tmp`;
  const file = createWriteStream(temporaryPath);
  const csv = stringify({ delimiter: batch.delimiter, bom: true, record_delimiter: 'windows' });
  csv.pipe(file);
  const write = async (cells: string[]) => {
    if (!csv.write(cells.map(neutraliseCell))) await once(csv, 'drain');
  };
  try {
    await write([...batch.header, ...RESULT_COLUMNS]);
    const nameColumn = batch.mapping.expectedName;
    for (let start = 0; start < batch.rowCount; start += SLICE_ROWS) {
      const rows = await store.readRows(batchId, start, SLICE_ROWS);
      const outcomes = await store.getOutcomes(batchId, [...new Set(rows.flatMap((row) => (row.accountKey === null ? [] : [row.accountKey])))]);
      for (const row of rows) {
        const expectedName = nameColumn === undefined ? undefined : row.fields[nameColumn];
        const decided = decideRowResult(row.invalidReason, row.accountKey === null ? undefined : outcomes.get(row.accountKey), expectedName);
        counts[decided.result] += 1;
        await write([...row.fields, ...resultCells(decided)]);
      }
    }
    csv.end();
    await once(file, 'finish');
    await rename(temporaryPath, reportPath);
  } catch (error) {
    file.destroy();
    await rm(temporaryPath, { force: true });
    throw error;
  }
  await store.markCompleted(batchId);
  const finished = (await store.get(batchId)).completedAt ?? Date.now();
  const summary: BatchSummary = {
    batchId,
    sourceFile: batch.sourceFile,
    report: reportPath,
    rows: batch.rowCount,
    accounts: batch.accountCount,
    counts,
    calls: batch.calls,
    rateLimited: batch.rateLimited,
    startedAt: new Date(batch.createdAt).toISOString(),
    finishedAt: new Date(finished).toISOString(),
    durationSeconds: Math.round((finished - batch.createdAt) / 100) / 10,
  };
  await writeFile(summaryPathFor(reportPath), `${JSON.stringify({ ...summary, ...summaryExtras }, null, 2)}\n`);
  return summary;
}

export function formatSummary(summary: BatchSummary): string {
  const counts = RESULT_VALUES.map((value) => `  ${value.padEnd(16)}${summary.counts[value]}`).join('\n');
  return [
    `batch ${summary.batchId}: ${summary.rows} rows, ${summary.accounts} distinct accounts, ${summary.calls} inquiry calls${
      summary.rateLimited > 0 ? ` (${summary.rateLimited} answered 429)` : ''
    }, ${summary.durationSeconds}s`,
    counts,
    `report: ${summary.report}`,
    `summary: ${summaryPathFor(summary.report)}`,
  ].join('\n');
}
