import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { stringify } from 'csv-stringify';
import { describeError, OutputPathError } from '../errors.js';
import type { NameMatchPolicy } from '../matching/compare-names.js';
import { decideRowResult, resultCells, RESULT_COLUMNS, RESULT_VALUES, type ResultValue } from '../report/row-result.js';
import { neutraliseCell } from '../report/neutralise.js';
import type { BatchStore } from './batch-store.js';
import { HandedBackError } from './settle.js';

const SLICE_ROWS = 1000;

export interface WrittenReport {
  rows: number;
  counts: Record<ResultValue, number>;
}

/** `report.csv.tmp-<pid>-<random>`: whose it is, so a later writer can remove what a dead process left. */
const TEMPORARY = /^(.*)\.tmp-(\d+)-[0-9a-f]+$/;

/**
 * Writes the reconciliation CSV: the input rows in file order with their columns untouched, then the
 * result columns. Streams slice by slice from Redis into a temporary file renamed at the end, so nobody
 * opens half a report; the temporary file is removed on any failure or abort. Any file-system failure is
 * an OutputPathError naming the path. Names are compared under `nameMatchPolicy` (NAME_MATCH_POLICY).
 */
export async function writeReconciliation(
  store: BatchStore,
  batchId: string,
  reportPath: string,
  nameMatchPolicy: NameMatchPolicy,
  signal?: AbortSignal,
): Promise<WrittenReport> {
  const batch = await store.get(batchId);
  const counts = Object.fromEntries(RESULT_VALUES.map((value) => [value, 0])) as Record<ResultValue, number>;
  const cannotWrite = (error: unknown) => new OutputPathError(`cannot write the report ${reportPath}: ${describeError(error)}`, { cause: error });
  try {
    await mkdir(dirname(reportPath), { recursive: true });
    await removeAbandonedTemporaries(reportPath);
  } catch (error) {
    throw cannotWrite(error);
  }
  const temporaryPath = `${reportPath}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  const file = createWriteStream(temporaryPath);
  // A stream error (disk full, permission) must reject the write below, not crash the process.
  const failed = new Promise<never>((_, reject) => file.once('error', reject));
  failed.catch(() => undefined);
  // Every cell with a line break is quoted: otherwise it would split the row in every reader.
  const csv = stringify({ delimiter: batch.layout.delimiter, bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
  csv.pipe(file);
  const write = async (cells: string[]) => {
    if (!csv.write(cells.map(neutraliseCell))) await Promise.race([once(csv, 'drain'), failed]);
  };
  let rows = 0;
  try {
    await write([...batch.header, ...RESULT_COLUMNS]);
    const nameColumn = batch.mapping.expectedName;
    for (let start = 0; start < batch.rowCount; start += SLICE_ROWS) {
      if (signal?.aborted) throw new HandedBackError(`report of batch ${batchId} not written: stopped`);
      const slice = await store.readRows(batchId, start, SLICE_ROWS);
      const outcomes = await store.getOutcomes(batchId, [...new Set(slice.flatMap((row) => (row.accountKey === null ? [] : [row.accountKey])))]);
      for (const row of slice) {
        const expectedName = nameColumn === undefined ? undefined : row.fields[nameColumn];
        const decided = decideRowResult(row.invalidReason, row.accountKey === null ? undefined : outcomes.get(row.accountKey), expectedName, nameMatchPolicy);
        counts[decided.result] += 1;
        rows += 1;
        await write([...row.fields, ...resultCells(decided)]);
      }
    }
    csv.end();
    await Promise.race([once(file, 'finish'), failed]);
    await rename(temporaryPath, reportPath);
  } catch (error) {
    file.destroy();
    await rm(temporaryPath, { force: true });
    if (error instanceof HandedBackError || !isFileSystemError(error)) throw error;
    throw cannotWrite(error);
  }
  return { rows, counts };
}

const isFileSystemError = (error: unknown): boolean => error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).syscall !== undefined;

/** Temporary files of this report left by a process that died while writing it (same host only: pids are local). */
async function removeAbandonedTemporaries(reportPath: string): Promise<void> {
  const directory = dirname(reportPath);
  for (const name of await readdir(directory)) {
    const match = TEMPORARY.exec(name);
    if (!match || match[1] !== basename(reportPath) || isAlive(Number(match[2]))) continue;
    await rm(join(directory, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
