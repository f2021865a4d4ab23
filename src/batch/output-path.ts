import { constants } from 'node:fs';
import { access, mkdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { OutputPathError } from '../errors.js';
import { reportFormatOf } from '../report/sink.js';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../host/private-files.js';
import { XLSX_MAX_COLUMNS } from '../report/xlsx-sink.js';
import { reportHeader } from './report-writer.js';

/**
 * Checks, before the first inquiry is paid for, that the report can be written where it was asked for:
 * not a directory or a device, not the input file itself, in a folder that exists (or can be made) where a
 * file of the report's temporary name can really be created (a read-only file system, a name too long, a
 * permission: all found here, not after every call was paid).
 */
export async function checkReportPath(reportPath: string, inputPath: string): Promise<void> {
  const target = resolve(reportPath);
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory())
    throw new OutputPathError(`the report path ${target} is a directory: give a file name, e.g. ${target}/report.csv`);
  if (existing !== undefined && !existing.isFile())
    throw new OutputPathError(`the report path ${target} is not a regular file (a device or a pipe): give a file name`);
  if (existing !== undefined && (await realpath(target)) === (await realpath(inputPath).catch(() => resolve(inputPath)))) {
    throw new OutputPathError(
      `the report path ${target} is the input file itself: writing it would destroy the input; choose another --out`,
    );
  }
  const folder = dirname(target);
  try {
    await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await access(folder, constants.W_OK);
    if (existing !== undefined) await access(target, constants.W_OK);
    // The longest name the writer will use (see temporary-file.ts): created and removed at once.
    const probe = `${target}.tmp-${process.pid}-000000`;
    await writeFile(probe, '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
    await rm(probe, { force: true });
  } catch (error) {
    throw new OutputPathError(`cannot write the report ${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, {
      cause: error,
    });
  }
}

/**
 * A workbook holds at most 16,384 columns: a report that would have more is refused before anything is
 * asked (found after every call was paid for, before), with the way out.
 */
export function checkReportWidth(reportPath: string, inputHeader: readonly string[]): void {
  const columns = reportHeader(inputHeader).length;
  if (reportFormatOf(reportPath) !== 'xlsx' || columns <= XLSX_MAX_COLUMNS) return;
  throw new OutputPathError(
    `the report ${resolve(reportPath)} would have ${columns.toLocaleString('en')} columns (the input's ${inputHeader.length.toLocaleString('en')} and the result columns), more than the ${XLSX_MAX_COLUMNS.toLocaleString('en')} a workbook holds: write it as CSV (--out <name>.csv, or OUTPUT_FORMAT=csv)`,
  );
}

/**
 * The changes file beside a report, in the report's format: `outbox/x.reconciled.csv` -> `outbox/x.changes.csv`,
 * `x.20261121-020000.reconciled.xlsx` -> `x.20261121-020000.changes.xlsx`, `report.csv` -> `report.changes.csv`.
 */
export function changesPathFor(reportPath: string): string {
  const extension = extname(reportPath);
  const stem = reportPath.slice(0, reportPath.length - extension.length).replace(/\.reconciled$/i, '');
  return `${stem}.changes${extension || '.csv'}`;
}
