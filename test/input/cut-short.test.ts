import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, runCli, startCli, waitForExit } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { readReport } from '../support/report.js';
import { sheetXml, workbookOf, workbookParts } from '../support/workbook-parts.js';
import { listDir, opsEnvironment, removeTempFolders, tempFolder, waitFor } from '../ops/ops-helpers.js';
import { getJson, startServe, stopServe, uploadCsv } from '../console/console-helpers.js';

/**
 * A last row cut short (issue 25, defect 3): a file whose transfer stopped mid-row (`...\nB,014,71000`, no
 * line end, fewer fields than the header) sent account `71000` and reported it, VERIFIED by a provider that
 * knows it. Now the file is refused, with exit 2 and the reason, whichever way it comes in: nothing is asked.
 * A last row with all its fields and no line end may be cut inside its last value (`7100012345` cut to
 * `71000` looks whole): refused too when that value is one the check reads.
 */
const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let folder: string;

const WHOLE = 'beneficiary_id,bank_code,account_number,beneficiary_name\nA,014,0012345678,Budi Santoso\nB,014,7100012345,Dewi Lestari\n';
const CUT = 'beneficiary_id,bank_code,account_number,beneficiary_name\nA,014,0012345678,Budi Santoso\nB,014,71000';
const REASON = "stops in the middle of a row: its last line (3) has 3 of the header's 4 fields and no line end";

beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: [
      { bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' },
      { bankCode: '014', accountNumber: '7100012345', holderName: 'DEWI LESTARI', status: 'SUCCESS' },
      // The provider knows the cut number too: asked, it would be VERIFIED.
      { bankCode: '014', accountNumber: '71000', holderName: 'SOMEBODY ELSE', status: 'SUCCESS' },
    ],
  });
  folder = await tempFolder('cut-short');
});

beforeEach(() => sandbox.resetStats());

afterAll(async () => {
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await removeTempFolders();
});

const env = (extra: Record<string, string> = {}) =>
  cliEnvironment(opsEnvironment(prefix, sandbox.url, { INQUIRY_RATE: '200/s', ...extra }));

describe('a last row cut short', () => {
  it('`run` and `enqueue` refuse the file (exit 2, the line named, no account number shown); nothing is asked', async () => {
    const file = join(folder, 'cut.csv');
    await writeFile(file, CUT);
    for (const args of [
      ['run', file, '--out', join(folder, 'cut.out.csv')],
      ['enqueue', file],
    ]) {
      const result = await runCli(args, env());
      expect(result.code, `${args[0]}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(REASON);
      expect(result.stderr).not.toMatch(/71000|0012345678/);
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('a last row with every field but no line end, ending in a value the check reads, is refused the same way: nothing is asked', async () => {
    // `7100012345` cut after `71000`: the row looks whole. Whichever read column is last, it may be cut.
    const files = {
      'account-last.csv':
        'beneficiary_id,bank_code,beneficiary_name,account_number\nA,014,Budi Santoso,0012345678\nB,014,Dewi Lestari,71000',
      'name-last.csv': WHOLE.trimEnd(),
      'bank-last.csv': 'account_number,beneficiary_name,bank_code\n0012345678,Budi Santoso,014',
    };
    for (const [name, content] of Object.entries(files)) {
      const file = join(folder, name);
      await writeFile(file, content);
      const result = await runCli(['run', file, '--out', join(folder, `${name}.out.csv`)], env());
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(
        /stops in the middle of a row: its last line \(\d\) has no line end and ends in the column "\w+", which is read for the check and may have been cut/,
      );
      expect(result.stderr).toContain('end the file with a line break');
      expect(result.stderr).not.toMatch(/71000|0012345678/);
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('a last line of blank cells with no line end (`,`, `""`, a tab, a space) is a row cut off too: refused, nothing asked', async () => {
    for (const [name, tail] of Object.entries({ 'comma.csv': ',', 'tab.csv': '\t', 'space.csv': ' ', 'quotes.csv': '""' })) {
      const file = join(folder, name);
      await writeFile(file, `${WHOLE}${tail}`);
      const result = await runCli(['run', file, '--out', join(folder, `${name}.out.csv`)], env());
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain('stops in the middle of a row: its last line (4)');
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('a short last row with a line end, lacking a value the check reads and ending in one, is refused: a cut file given a line break', async () => {
    // `0012345678` cut after `00123`, then a line break (an editor, a tool): the row lacks its name too.
    const file = join(folder, 'short-last.csv');
    await writeFile(file, 'bank_code,account_number,beneficiary_name,amount\n014,0012345678,Budi Santoso,100\n014,71000\n');
    const result = await runCli(['run', file, '--out', join(folder, 'short-last.out.csv')], env());
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `stops in the middle of a row: its last line (3) has 2 of the header's 4 fields, lacks a value the check reads and ends in the column "account_number", which may have been cut`,
    );
    expect(result.stderr).toContain('write out its empty cells');
    expect(result.stderr).not.toMatch(/71000|0012345678/);
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('a short last row lacking only columns the check does not read, and a Ctrl-Z after the last line, are read as before', async () => {
    const files = {
      'no-amount.csv': 'bank_code,account_number,beneficiary_name,amount\n014,7100012345,Dewi Lestari,100\n014,0012345678,Budi Santoso\n',
      'ctrl-z.csv': `${WHOLE}\x1a`,
    };
    for (const [name, content] of Object.entries(files)) {
      const file = join(folder, name);
      await writeFile(file, content);
      const result = await runCli(['run', file, '--out', `${file}.out.csv`], env());
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      expect((await readReport(`${file}.out.csv`)).map((row) => row.result)).toEqual(['MATCH', 'MATCH']);
    }
    // A blank last line with a line end is a blank row, as anywhere in the file: no cut.
    for (const [name, tail] of Object.entries({ 'blank-last.csv': '   \n', 'comma-last.csv': ',\n' })) {
      const file = join(folder, name);
      await writeFile(file, `${WHOLE}${tail}`);
      const result = await runCli(['run', file, '--out', `${file}.out.csv`], env());
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      expect((await readReport(`${file}.out.csv`)).map((row) => row.result)).toEqual(['MATCH', 'MATCH', 'INPUT_INVALID']);
    }
  });

  it('the whole file, or a last row without a line end ending in a column the check does not read, is checked as before', async () => {
    const whole = join(folder, 'whole.csv');
    await writeFile(whole, WHOLE);
    const noted = join(folder, 'noted.csv');
    await writeFile(
      noted,
      'beneficiary_id,bank_code,account_number,beneficiary_name,note\nA,014,0012345678,Budi Santoso,first\nB,014,7100012345,Dewi Lestari,seco',
    );
    for (const file of [whole, noted]) {
      const result = await runCli(['run', file, '--out', `${file}.out.csv`], env());
      expect(result.code, result.stderr).toBe(0);
      expect((await readReport(`${file}.out.csv`)).map((row) => [row.beneficiary_id, row.result])).toEqual([
        ['A', 'MATCH'],
        ['B', 'MATCH'],
      ]);
    }
  });

  it('the watched folder moves it to failed/ with the reason; the console refuses the upload (422)', async () => {
    const watched = join(folder, 'watched');
    const watcher = startCli(['watch', watched], env({ WATCH_STABLE: '1s', WATCH_POLL: '100ms' }));
    try {
      await waitFor(async () => (await listDir(watched)).includes('inbox'), 10_000, 'the watcher to create its folders');
      await writeFile(join(watched, 'inbox', 'payouts.csv.part'), CUT);
      await rename(join(watched, 'inbox', 'payouts.csv.part'), join(watched, 'inbox', 'payouts.csv'));
      await waitFor(async () => (await listDir(join(watched, 'failed'))).includes('payouts.error.txt'), 30_000, 'the cut file in failed/');
      const refusal = await readFile(join(watched, 'failed', 'payouts.error.txt'), 'utf8');
      expect(refusal).toContain(REASON);
      // Named as it was dropped, not by the path the watcher read it at (processing/<claim>-payouts.csv).
      expect(refusal).toContain('payouts.csv was not checked: payouts.csv stops in the middle of a row');
      expect(refusal).not.toContain('processing');
      // A name holding what a replacement string would read as a pattern (`$&`: the path itself) is named as it is.
      await writeFile(join(watched, 'inbox', 'pay$&-0012345678.csv'), CUT);
      await waitFor(
        async () => (await listDir(join(watched, 'failed'))).includes('pay$&-0012345678.error.txt'),
        30_000,
        'the second cut file',
      );
      const named = await readFile(join(watched, 'failed', 'pay$&-0012345678.error.txt'), 'utf8');
      // Masked as a notice is: the file's name may hold an account number.
      expect(named).toContain('pay$&-******5678.csv was not checked: pay$&-******5678.csv stops in the middle of a row');
      expect(named).not.toContain('processing');
      expect(await listDir(join(watched, 'outbox'))).toEqual([]);
    } finally {
      watcher.kill('SIGTERM');
      await waitForExit(watcher);
    }

    const serve = await startServe([], env({ CONSOLE_REPORTS_DIR: join(folder, 'console') }));
    try {
      const response = await uploadCsv(serve.url, 'payouts.csv', CUT);
      expect(response.status).toBe(422);
      const refusal = await response.text();
      expect(refusal).toContain(REASON);
      expect(refusal).toContain('payouts.csv stops in the middle of a row');
      expect(refusal).not.toContain(join(folder, 'console'));
    } finally {
      await stopServe(serve);
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('a workbook cut short is refused too (a broken zip, exit 2), nothing asked', async () => {
    const source = join(folder, 'for-book.csv');
    await writeFile(source, WHOLE);
    const book = join(folder, 'book.xlsx');
    const made = await runCli(['run', source, '--out', book], env());
    expect(made.code, made.stderr).toBe(0);
    sandbox.resetStats();
    const bytes = await readFile(book);
    const cut = join(folder, 'cut-book.xlsx');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    const result = await runCli(['run', cut, '--out', join(folder, 'cut-book.out.csv')], env());
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('not a readable XLSX workbook');
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('merged cells over a column the check reads refuse the workbook (exit 2), nothing asked; over a column passed through they are read', async () => {
    const rows = [
      ['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name', 'note'],
      ['A', '014', '0012345678', 'Budi Santoso', 'one batch'],
      ['B', '014', '7100012345', '', ''],
    ];
    const book = workbookParts(rows);
    const merged = (ref: string) =>
      book.sheet.replace('</sheetData>', `</sheetData><mergeCells count="1"><mergeCell ref="${ref}"/></mergeCells>`);
    // The name merged over both rows: row B showed "Budi Santoso" in Excel and read no name (VERIFIED, green).
    const overName = join(folder, 'merged-name.xlsx');
    await writeFile(overName, book.build({ sheet: merged('D2:D3') }));
    const refused = await runCli(['run', overName, '--out', `${overName}.out.csv`], env());
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('cells D2:D3 are merged, and D3 is in column "beneficiary_name", which the check reads');
    expect(sandbox.stats().inquiries).toBe(0);
    const overNote = join(folder, 'merged-note.xlsx');
    await writeFile(overNote, book.build({ sheet: merged('E2:E3') }));
    const read = await runCli(['run', overNote, '--out', `${overNote}.out.csv`], env());
    expect(read.code, read.stderr).toBe(0);
    expect((await readReport(`${overNote}.out.csv`)).map((row) => row.beneficiary_id)).toEqual(['A', 'B']);
    // An empty box merged under the table (a signature box) covers no row that is read.
    const box = join(folder, 'merged-box-under.xlsx');
    await writeFile(box, book.build({ sheet: merged('D5:E7') }));
    const underneath = await runCli(['run', box, '--out', `${box}.out.csv`], env());
    expect(underneath.code, underneath.stderr).toBe(0);
    sandbox.resetStats();
  });

  it('a workbook with more than one sheet says which one is read and which are not', async () => {
    const rows = [
      ['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name'],
      ['A', '014', '0012345678', 'Budi Santoso'],
    ];
    const book = workbookParts(rows);
    /** The book with one more worksheet tab before its own. */
    const withTabBefore = (tab: { name: string; xml: string; hidden?: boolean }) =>
      workbookOf({
        sheet: book.sheet,
        sharedStrings: book.sharedStrings,
        before: [{ type: 'worksheet', target: 'worksheets/sheet2.xml', ...tab }],
      });
    const hidden = join(folder, 'hidden-data-sheet.xlsx');
    await writeFile(hidden, withTabBefore({ name: 'Data', xml: book.sheet, hidden: true }));
    const result = await runCli(['run', hidden, '--out', `${hidden}.out.csv`], env());
    expect(result.code, result.stderr).toBe(0);
    const sheetNote = 'sheet "Sheet1" is read (the first one shown); the workbook\'s other sheets are not: "Data" (hidden)';
    expect(result.stderr).toContain(sheetNote);
    // Said again where a person looks afterwards: the summary's last lines and the summary JSON beside the report.
    expect(result.stdout + result.stderr).toContain(`note: ${sheetNote}`);
    expect(JSON.parse(await readFile(`${hidden}.out.summary.json`, 'utf8')).notes).toEqual([sheetNote]);
    // The watched folder's and the console's users get it too: in the outbox's summary, on the batch's page.
    const watched = join(folder, 'watched-sheets');
    const watcher = startCli(['watch', watched], env({ WATCH_STABLE: '1s', WATCH_POLL: '100ms' }));
    try {
      await waitFor(async () => (await listDir(watched)).includes('inbox'), 10_000, 'the watcher to create its folders');
      await writeFile(join(watched, 'inbox', 'payouts.xlsx'), await readFile(hidden));
      await waitFor(async () => (await listDir(join(watched, 'outbox'))).includes('payouts.reconciled.summary.json'), 30_000, 'the outbox');
      expect(JSON.parse(await readFile(join(watched, 'outbox', 'payouts.reconciled.summary.json'), 'utf8')).notes).toEqual([sheetNote]);
    } finally {
      watcher.kill('SIGTERM');
      await waitForExit(watcher);
    }
    const serve = await startServe([], env({ CONSOLE_REPORTS_DIR: join(folder, 'console-sheets') }));
    try {
      const response = await uploadCsv(serve.url, 'payouts.xlsx', await readFile(hidden));
      expect(response.status).toBe(202);
      const { batchId } = (await response.json()) as { batchId: string };
      expect((await getJson<{ notes: string[] }>(`${serve.url}/api/batches/${batchId}`)).notes).toEqual([sheetNote]);
      const page = await (await fetch(`${serve.url}/batches/${batchId}`)).text();
      expect(page).toContain('sheet &quot;Sheet1&quot; is read (the first one shown)');
    } finally {
      await stopServe(serve);
    }
    sandbox.resetStats();
    // A first sheet of a header only (a template tab) before the data's is refused: an empty report would look fine.
    const template = join(folder, 'template-first.xlsx');
    // The header's strings come first in the book's shared strings: the same indexes.
    await writeFile(template, withTabBefore({ name: 'Template', xml: workbookParts([rows[0]!]).sheet }));
    const refused = await runCli(['run', template, '--out', `${template}.out.csv`], env());
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      'its first sheet shown, "Template", has a header and no data rows, and the workbook\'s other sheets, "Sheet1"',
    );
    // A cover sheet first, the list behind it: the refusal for its missing columns says which sheets were not read.
    const cover = join(folder, 'cover-first.xlsx');
    const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    await writeFile(
      cover,
      withTabBefore({
        name: 'Petunjuk',
        xml: sheetXml(
          `<row r="1">${inline('A1', 'Langkah')}${inline('B1', 'Petunjuk')}</row><row r="2">${inline('A2', '1')}${inline('B2', 'Isi daftar di sheet berikut')}</row>`,
        ),
      }),
    );
    const coverRefused = await runCli(['run', cover, '--out', `${cover}.out.csv`], env());
    expect(coverRefused.code, coverRefused.stderr).toBe(2);
    expect(coverRefused.stderr).toContain('required column(s) missing');
    expect(coverRefused.stderr).toContain(
      'Only the first sheet shown, "Petunjuk", is read; the workbook\'s other sheets are not: "Sheet1"',
    );
    // The console, which offers a choice of columns instead, says it beside the choice.
    const coverServe = await startServe([], env({ CONSOLE_REPORTS_DIR: join(folder, 'console-cover') }));
    try {
      const response = await uploadCsv(coverServe.url, 'cover.xlsx', await readFile(cover));
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: string }).error).toContain(
        'Only the first sheet shown, "Petunjuk", is read; the workbook\'s other sheets are not: "Sheet1"',
      );
    } finally {
      await stopServe(coverServe);
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('a workbook whose zip is whole but whose sheet or shared strings are cut is refused (exit 2), nothing asked; the whole one is read', async () => {
    const rows = [
      ['beneficiary_id', 'bank_code', 'account_number', 'beneficiary_name'],
      ['A', '014', '0012345678', 'Budi Santoso'],
      ['B', '014', '7100012345', 'Dewi Lestari'],
    ];
    const book = workbookParts(rows);
    const cutSheet = book.sheet.slice(0, book.sheet.indexOf('<row r="3"'));
    const cutStrings = book.sharedStrings.slice(0, book.sharedStrings.indexOf('Dewi'));
    // Cut between two strings and closed again: the part looks whole, its header still counts every string.
    const closedAgain = `${book.sharedStrings.slice(0, book.sharedStrings.indexOf('<si><t>7100012345'))}</sst>`;
    // The sheet cut between two rows and closed again: its dimension, before the rows, still spans them all.
    const withDimension = book.sheet.replace('<sheetData>', '<dimension ref="A1:D3"/><sheetData>');
    const sheetClosedAgain = `${withDimension.slice(0, withDimension.indexOf('<row r="3"'))}</sheetData></worksheet>`;
    const cases: Array<[string, Buffer, number, string]> = [
      ['whole-parts.xlsx', book.build({}), 0, ''],
      ['whole-parts-with-dimension.xlsx', book.build({ sheet: withDimension }), 0, ''],
      // An empty sheet's dimension is one cell (LibreOffice, Excel): empty, not cut.
      [
        'empty-sheet.xlsx',
        workbookOf({ sheet: sheetXml('').replace('<sheetData>', '<dimension ref="A1"/><sheetData>') }),
        2,
        'is empty: its first sheet needs a header row',
      ],
      [
        'sheet-closed-again.xlsx',
        book.build({ sheet: sheetClosedAgain }),
        2,
        'is cut short: its first sheet says it spans rows to 3 (its dimension), but holds rows only to 2',
      ],
      ['cut-sheet.xlsx', book.build({ sheet: cutSheet }), 2, "is cut short: its first sheet stops before the sheet's end (after row 2)"],
      [
        'cut-strings.xlsx',
        book.build({ sharedStrings: cutStrings }),
        2,
        "is cut short: its text cells' shared strings stop before their end",
      ],
      [
        'strings-closed-again.xlsx',
        book.build({ sharedStrings: closedAgain }),
        2,
        "is cut short: its text cells' shared strings stop before their end",
      ],
    ];
    for (const [name, bytes, code, message] of cases) {
      const file = join(folder, name);
      await writeFile(file, bytes);
      const result = await runCli(['run', file, '--out', `${file}.out.csv`], env());
      expect(result.code, `${name}: ${result.stderr}`).toBe(code);
      expect(result.stderr).toContain(message);
      if (code === 0) {
        expect((await readReport(`${file}.out.csv`)).map((row) => [row.beneficiary_id, row.result])).toEqual([
          ['A', 'MATCH'],
          ['B', 'MATCH'],
        ]);
        sandbox.resetStats();
      }
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });

  it('UTF-16 text with an odd number of bytes (half a character at its end) is refused (exit 2), nothing asked', async () => {
    for (const [encoding, mark] of [
      ['utf-16le', [0xff, 0xfe]],
      ['utf-16be', [0xfe, 0xff]],
    ] as const) {
      const text = Buffer.from(`${WHOLE}C,014,0012345678,Budi Santoso\n`, 'utf16le');
      if (encoding === 'utf-16be') text.swap16();
      const file = join(folder, `odd-${encoding}.csv`);
      await writeFile(file, Buffer.concat([Buffer.from(mark), text.subarray(0, text.length - 1)]));
      const result = await runCli(['run', file, '--out', `${file}.out.csv`], env());
      expect(result.code, `${encoding}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(`is cut short: as ${encoding.toUpperCase()} text it has an odd number of bytes`);
    }
    expect(sandbox.stats().inquiries).toBe(0);
  });
});

describe('a workbook gone between its check and its read', () => {
  it("is the file's error (InputFileError, exit 2 for a command), never an unhandled stream error", async () => {
    const { readXlsxRecords } = await import('../../src/xlsx/reader.js');
    const { InputFileError } = await import('../../src/errors.js');
    const gone = join(await tempFolder('gone-workbook'), 'gone.xlsx');
    const reading = (async () => {
      for await (const record of readXlsxRecords(gone)) expect.fail(`read a row of a missing file: ${record.line}`);
    })();
    await expect(reading).rejects.toBeInstanceOf(InputFileError);
    await expect(reading).rejects.toThrow(`cannot read input file ${gone}: ENOENT`);
  });
});
