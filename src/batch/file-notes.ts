import { headerKey } from '../csv/columns.js';
import type { TextEncoding } from '../csv/sniff.js';
import { maskDigitRuns } from '../logging/logger.js';
import { listedSheets, shownSheetName } from '../xlsx/sheet-names.js';
import type { BatchRecord } from './batch-store.js';

/** How a note names an encoding other than UTF-8. */
const ENCODING_NAMES: Record<TextEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (little-endian)',
  'utf-16be': 'UTF-16 (big-endian)',
  'windows-1252': 'Windows-1252 (Excel\'s "CSV" on Windows)',
};

/**
 * What the reading of a batch's file did that a person must know, in words without the file's path: an
 * encoding other than UTF-8 (names with accents hang on it), a workbook's sheets not read (rows there are
 * not checked), a header with no data rows (an export that failed upstream looks like a night with nobody
 * to pay), an earlier report given as input (the decisions written in it are not recorded so), masked as free text. One source for every place that shows them: the notices of a run, the summary JSON beside every
 * report (the watched folder's outbox, the nightly run's), the console's batch page and the completion notice.
 */
export function fileNotes(batch: Pick<BatchRecord, 'layout' | 'sheets' | 'rowCount' | 'replacedColumns'>): string[] {
  const notes: string[] = [];
  const encoding = batch.layout.encoding ?? 'utf-8';
  if (encoding !== 'utf-8') notes.push(`read as ${ENCODING_NAMES[encoding]} text`);
  if (batch.sheets !== undefined && batch.sheets.notRead.length > 0)
    notes.push(
      `sheet ${shownSheetName(batch.sheets.read)} is read (the first one shown); the workbook's other sheets are not: ${listedSheets(batch.sheets.notRead)}`,
    );
  // A reviewed report dropped or uploaded as a new file: its decisions are not recorded that way, and must be told.
  if (batch.replacedColumns.some((name) => headerKey(name) === 'decision'))
    notes.push(
      "the file is an earlier report: its result and decision columns are not read, and decisions written in it are not recorded (record them with `review`, or in a watched folder's reviews/)",
    );
  // Counted by the inspection until production ends, then stored: zero either way for a header alone.
  if (batch.rowCount === 0) notes.push('the file has a header and no data rows: the report holds none');
  // Masked as free text everywhere: a sheet's name may hold an account number.
  return notes.map(maskDigitRuns);
}
