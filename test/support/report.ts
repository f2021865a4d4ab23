import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';

/** Reads a reconciliation CSV into one object per row, keyed by header. */
export async function readReport(path: string, delimiter = ','): Promise<Record<string, string>[]> {
  return parse(await readFile(path), { bom: true, columns: true, delimiter }) as Record<string, string>[];
}
