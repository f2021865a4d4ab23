import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isoInZone } from '../clock/local-time.js';
import { describeError, OutputPathError } from '../errors.js';
import { maskDigitRuns } from '../logging/logger.js';
import { openSink, type RowSink } from '../report/sink.js';
import type { DecisionStore } from './decision-store.js';

/** The audit trail as exported: one row per decision recorded or changed, in the order they were made. */
export const TRAIL_COLUMNS = [
  'recorded_at',
  'event',
  'decision',
  'decided_by',
  'note',
  'previous_decision',
  'previous_by',
  'previous_at',
  'environment',
  'bank_code',
  'account',
  'account_ref',
  'expected_name',
  'holder_name',
  'source',
  'batch_id',
  'row',
  'entry_id',
] as const;

/** The columns people write in: masked like every free text (`account` is masked when the trail is written). */
const FREE_TEXT: ReadonlySet<string> = new Set(['decided_by', 'note', 'previous_by', 'expected_name', 'holder_name', 'source']);

/**
 * `decisions export --out FILE`: writes the audit trail, CSV or a workbook by the name (as reports are:
 * formula-like cells neutralised, every workbook cell text), streamed a page at a time, under a temporary
 * name renamed at the end. Accounts are masked as they are in the trail (`account_ref` links the entries of
 * one account), digit runs in free text too. Returns the entries written.
 */
export async function exportTrail(decisions: Pick<DecisionStore, 'trail'>, outPath: string, timeZone: string): Promise<number> {
  const path = resolve(outPath);
  const cannotWrite = (error: unknown) =>
    new OutputPathError(`cannot write the audit trail to ${path}: ${describeError(error)}`, { cause: error });
  if ((await stat(path).catch(() => undefined))?.isDirectory())
    throw new OutputPathError(`${path} is a directory: give a file name, e.g. ${path}/decisions.csv`);
  let sink: RowSink | undefined;
  let written = 0;
  try {
    await mkdir(dirname(path), { recursive: true });
    sink = await openSink(path, { delimiter: ',', resultColumn: -1 });
    await sink.write([...TRAIL_COLUMNS]);
    for await (const page of decisions.trail()) {
      for (const { id, recordedAt, fields } of page) {
        // Each column is the stored field of its name, but for the times (shown in the zone) and the entry's id.
        const shown: Partial<Record<(typeof TRAIL_COLUMNS)[number], string>> = {
          recorded_at: isoInZone(recordedAt, timeZone),
          previous_at: fields.previous_at ? isoInZone(Number(fields.previous_at), timeZone) : '',
          entry_id: id,
        };
        // Free text (a note, a name, a reviewer's name) masked as everywhere: a note may quote an account number.
        await sink.write(
          TRAIL_COLUMNS.map((column) => shown[column] ?? (FREE_TEXT.has(column) ? maskDigitRuns : String)(fields[column] ?? '')),
        );
        written += 1;
      }
    }
    await sink.close();
    return written;
  } catch (error) {
    await sink?.discard();
    throw isFileSystemError(error) ? cannotWrite(error) : error;
  }
}

const isFileSystemError = (error: unknown): boolean =>
  error instanceof Error &&
  typeof (error as NodeJS.ErrnoException).code === 'string' &&
  (error as NodeJS.ErrnoException).syscall !== undefined;
