import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import { neutraliseCell } from './neutralise.js';
import type { RowSink, SinkOptions } from './sink.js';
import { openTemporaryFile } from './temporary-file.js';

/**
 * A reconciliation CSV: the input's delimiter, UTF-8 with BOM (spreadsheets then read names right), CRLF,
 * every formula-like cell neutralised (a spreadsheet opening the file must not run what a row carries).
 */
export async function openCsvSink(path: string, options: Pick<SinkOptions, 'delimiter'>): Promise<RowSink> {
  const file = await openTemporaryFile(path);
  // Every cell with a line break is quoted: otherwise it would split the row in every reader.
  const csv = stringify({ delimiter: options.delimiter, bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ });
  csv.pipe(file.stream);
  return {
    write: async (cells) => {
      if (!csv.write(cells.map(neutraliseCell))) await Promise.race([once(csv, 'drain'), file.failed]);
    },
    close: async () => {
      csv.end();
      await Promise.race([once(file.stream, 'finish'), file.failed]);
      await file.commit();
    },
    discard: () => file.discard(),
  };
}
