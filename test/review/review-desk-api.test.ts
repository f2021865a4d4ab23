import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment, PROJECT_ROOT } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { getJson, startServe, stopServe, type ServeProcess } from '../console/console-helpers.js';

/**
 * The console as the review desk, over its JSON API: an XLSX upload, the rows a person looks at (invalid
 * ones too) filtered and searched, decisions by the person the proxy names (none without one), the batch's
 * review counts; a file whose columns are not recognised is mapped on upload; `serve` without the provider's
 * settings shows everything and takes decisions, but no upload.
 */
const EXAMPLE = join(PROJECT_ROOT, 'examples/beneficiaries.csv');
const TOKEN = 'review-desk-token-0123456789abcdef0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };
const as = (person: string) => ({ ...auth, 'x-forwarded-user': person });

interface DeskRow {
  row: number;
  reference: string;
  accountNumber: string;
  result: string;
  reason: string;
  decidable: boolean;
  decision: { decision: string; decidedBy: string; decidedAt: string; decidedAtShown: string; note: string } | null;
}

const prefix = testKeyPrefix();
const redis = testRedis();
let sandbox: SandboxServer;
let workDir: string;
let serve: ServeProcess | undefined;
let readOnly: ServeProcess | undefined;

const env = (extra: Record<string, string | undefined> = {}) =>
  cliEnvironment({
    REDIS_URL: TEST_REDIS_URL,
    BC_KEY_PREFIX: prefix,
    H2H_BASE_URL: sandbox.url,
    H2H_USERNAME: 'sandbox',
    H2H_PASSWORD: 'sandbox',
    INQUIRY_RATE: '100/s',
    CONSOLE_TOKEN: TOKEN,
    CONSOLE_USER_HEADER: 'X-Forwarded-User',
    CONSOLE_REPORTS_DIR: join(workDir, 'reports'),
    ...extra,
  });

beforeAll(async () => {
  sandbox = await startSandbox({ accountsFile: join(PROJECT_ROOT, 'examples/sandbox-accounts.csv') });
  workDir = await mkdtemp(join(tmpdir(), 'bc-review-desk-'));
  serve = await startServe([], env());
});

afterAll(async () => {
  await stopServe(serve);
  await stopServe(readOnly);
  await sandbox.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(workDir, { recursive: true, force: true });
});

/** The example file as a workbook, every cell text (as an export keeps account numbers). */
async function exampleWorkbook(): Promise<Buffer> {
  const rows = parse(await readFile(EXAMPLE), { bom: true }) as string[][];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Payouts');
  for (const row of rows) sheet.addRow(row).eachCell((cell) => (cell.numFmt = '@'));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function upload(name: string, content: Buffer | string, fields: Record<string, string> = {}, on = serve!): Promise<Response> {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  return fetch(`${on.url}/api/batches`, { method: 'POST', body: form, headers: auth });
}

const review = async (batchId: string, query = '', on = serve!) =>
  getJson<{ rows: DeskRow[]; next: number | null }>(`${on.url}/api/batches/${batchId}/review?limit=500${query}`, auth);
const decide = (batchId: string, row: number, body: Record<string, unknown>, headers: Record<string, string>, on = serve!) =>
  fetch(`${on.url}/api/batches/${batchId}/rows/${row}/decision`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the review desk over the API', () => {
  let batchId: string;

  it('takes an XLSX upload through the reader of run and lists the rows a person looks at, invalid ones too', async () => {
    const response = await upload('payouts.xlsx', await exampleWorkbook());
    expect(response.status, await response.clone().text()).toBe(202);
    batchId = ((await response.json()) as { batchId: string }).batchId;
    await waitFor(
      async () => (await getJson<{ state: string }>(`${serve!.url}/api/batches/${batchId}`, auth)).state === 'reported',
      60_000,
      'the uploaded batch to be reported',
    );
    const all = await review(batchId);
    expect(all.next).toBeNull();
    const results = all.rows.map((row) => row.result).sort();
    expect(results).toEqual([
      'ACCOUNT_INVALID',
      'ACCOUNT_INVALID',
      'CLOSE_MATCH',
      'FAILED',
      'FAILED',
      'INPUT_INVALID',
      'INPUT_INVALID',
      'INPUT_INVALID',
      'NO_MATCH',
      'NO_MATCH',
    ]);
    expect(
      all.rows
        .filter((row) => row.decidable)
        .map((row) => row.reference)
        .sort(),
    ).toEqual(['AGT-0201', 'AGT-0205', 'DRV-0106']);
    const invalid = await review(batchId, '&result=INPUT_INVALID');
    expect(invalid.rows.map((row) => row.reference)).toEqual(['EMP-0308', 'EMP-0309', 'EMP-0310']);
    expect(JSON.stringify(all)).not.toContain('0060009876543');
  });

  it('searches by reference, by name and by the last digits of the account', async () => {
    const search = async (q: string) => (await review(batchId, `&q=${encodeURIComponent(q)}`)).rows.map((row) => row.reference);
    expect(await search('AGT-0201')).toEqual(['AGT-0201']);
    expect(await search('ratna')).toEqual(['DRV-0106']);
    expect(await search('iqbal')).toEqual(['AGT-0201']);
    expect(await search('6543')).toEqual(['DRV-0106']);
    // The whole number finds its row; a longer end than the list shows does not (it would read the hidden digits one by one).
    expect(await search('0060009876543')).toEqual(['DRV-0106']);
    expect(await search('76543')).toEqual([]);
    expect(await search('9876543')).toEqual([]);
    expect(await search('nobody at all')).toEqual([]);
  });

  it('records a decision only for a person the proxy names, on a row that can be decided', async () => {
    const refused = await decide(batchId, 11, { decision: 'APPROVED' }, auth);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toContain('no x-forwarded-user header');
    expect((await decide(batchId, 1, { decision: 'APPROVED' }, as('ratna'))).status).toBe(409); // SEL-0001: MATCH
    expect((await decide(batchId, 20, { decision: 'APPROVED' }, as('ratna'))).status).toBe(409); // EMP-0304: FAILED
    expect((await decide(batchId, 11, { decision: 'PAY' }, as('ratna'))).status).toBe(422);
    const recorded = await decide(batchId, 11, { decision: 'approve', note: 'same person, middle name' }, as('ratna'));
    expect(recorded.status).toBe(201);
    const { row } = (await recorded.json()) as { row: DeskRow };
    expect(row).toMatchObject({
      reference: 'DRV-0106',
      result: 'CLOSE_MATCH',
      decision: { decision: 'APPROVED', decidedBy: 'ratna', note: 'same person, middle name' },
    });
    expect(row.decision!.decidedAtShown).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d WIB$/);
    expect((await review(batchId, '&decided=decided')).rows.map((each) => each.reference)).toEqual(['DRV-0106']);
    expect((await review(batchId, '&decided=undecided')).rows.map((each) => each.reference)).toEqual(['AGT-0201', 'AGT-0205']);
    const batch = await getJson<{ review: unknown }>(`${serve!.url}/api/batches/${batchId}`, auth);
    expect(batch.review).toEqual({ needsReview: 2, approved: 1, rejected: 0 });
    const listed = await getJson<{ batches: Array<{ batchId: string; review: unknown }> }>(`${serve!.url}/api/batches`, auth);
    expect(listed.batches.find((each) => each.batchId === batchId)?.review).toEqual({ needsReview: 2, approved: 1, rejected: 0 });
  });

  it('asks which column is which when the header is not recognised, and checks the file with the answer', async () => {
    const file = 'kode,norek,penerima\n014,0012345678,Budi Santoso\n';
    const unknown = await upload('odd-headers.csv', file);
    expect(unknown.status).toBe(422);
    const answer = (await unknown.json()) as { error: string; columns: Array<{ index: number; name: string }> };
    expect(answer.error).toContain('choose which column holds each');
    expect(answer.error).not.toContain('--bank-column');
    expect(answer.columns).toEqual([
      { index: 0, name: 'kode' },
      { index: 1, name: 'norek' },
      { index: 2, name: 'penerima' },
    ]);
    const mapped = await upload('odd-headers.csv', file, { bankColumn: '0', accountColumn: '1', nameColumn: '2' });
    expect(mapped.status, await mapped.clone().text()).toBe(202);
    const mappedId = ((await mapped.json()) as { batchId: string }).batchId;
    await waitFor(
      async () =>
        (await getJson<{ state: string; counts: Record<string, number> }>(`${serve!.url}/api/batches/${mappedId}`, auth)).counts.MATCH ===
        1,
      60_000,
      'the mapped batch to be checked',
    );
  });

  it('asks which column holds the names when one looks like them but is not known, and takes "none" for an answer', async () => {
    const file = 'bank_code,account_number,Nama Lengkap\n014,0012345678,Siti Aminah\n';
    const asked = await upload('nama-lengkap.csv', file);
    expect(asked.status).toBe(422);
    const answer = (await asked.json()) as { error: string; columns: Array<{ index: number; name: string }> };
    expect(answer.error).toContain('"Nama Lengkap" looks like one: choose which column holds each');
    expect(answer.columns.map((column) => column.name)).toEqual(['bank_code', 'account_number', 'Nama Lengkap']);
    // "(none: only check the account)": the accounts alone are checked, not refused again.
    const waived = await upload('nama-lengkap.csv', file, { bankColumn: '0', accountColumn: '1', nameColumn: '' });
    expect(waived.status, await waived.clone().text()).toBe(202);
    const waivedId = ((await waived.json()) as { batchId: string }).batchId;
    await waitFor(
      async () => (await getJson<{ counts: Record<string, number> }>(`${serve!.url}/api/batches/${waivedId}`, auth)).counts.VERIFIED === 1,
      60_000,
      'the batch checked without names',
    );
  });

  it('starts without the provider settings: everything shown, decisions taken, uploads refused', async () => {
    readOnly = await startServe([], env({ H2H_BASE_URL: undefined, H2H_USERNAME: undefined, H2H_PASSWORD: undefined }));
    const batches = await getJson<{ batches: Array<{ batchId: string; review: unknown }> }>(`${readOnly.url}/api/batches`, auth);
    expect(batches.batches.map((batch) => batch.batchId)).toContain(batchId);
    const page = await fetch(`${readOnly.url}/`, { headers: auth });
    expect(await page.text()).toContain('This console is read-only');
    const refused = await upload('payouts.csv', await readFile(EXAMPLE), {}, readOnly);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toContain('uploads need the provider (H2H_BASE_URL is not set');
    expect((await decide(batchId, 12, { decision: 'REJECTED', note: 'another person' }, as('budi'), readOnly)).status).toBe(201);
    expect(
      (await review(batchId, '&decided=decided', readOnly)).rows.map((row) => [
        row.reference,
        row.decision?.decision,
        row.decision?.decidedBy,
      ]),
    ).toEqual([
      ['DRV-0106', 'APPROVED', 'ratna'],
      ['AGT-0201', 'REJECTED', 'budi'],
    ]);
    expect((await getJson<{ review: unknown }>(`${readOnly.url}/api/batches/${batchId}`, auth)).review).toEqual({
      needsReview: 1,
      approved: 1,
      rejected: 1,
    });
  });

  it("changes a decision only for a person who saw it, and decides only on the bank's latest answer (an outside attack)", async () => {
    // AGT-0205 (row 16): NO_MATCH, undecided. Ratna decides it; a page loaded before (no decision seen) does not change it back.
    const first = await decide(batchId, 16, { decision: 'REJECTED', note: 'wrong account, see ticket 0060009876543' }, as('ratna'));
    expect(first.status).toBe(201);
    const { row } = (await first.json()) as { row: DeskRow };
    // A note is free text: masked as the rest of the page.
    expect(row.decision?.note).toBe('wrong account, see ticket *********6543');
    const blind = await decide(batchId, 16, { decision: 'APPROVED' }, as('budi'));
    expect(blind.status).toBe(409);
    expect(((await blind.json()) as { error: string }).error).toMatch(
      /the decision on this row changed since the page showed it \(now REJECTED by ratna, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d WIB\): load the row again/,
    );
    expect((await decide(batchId, 16, { decision: 'APPROVED', seen: 'yesterday' }, as('budi'))).status).toBe(422);
    // A row number as written: 0x10 is no row 16.
    const hex = await fetch(`${serve!.url}/api/batches/${batchId}/rows/0x10/decision`, {
      method: 'POST',
      headers: { ...as('budi'), 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'APPROVED', seen: row.decision!.decidedAt }),
    });
    expect(hex.status).toBe(409);
    const seen = await decide(batchId, 16, { decision: 'APPROVED', seen: row.decision!.decidedAt }, as('budi'));
    expect(seen.status).toBe(201);
    // The same value by someone who saw none: not a way to put one's name (and note) on budi's decision.
    expect((await decide(batchId, 16, { decision: 'APPROVED', note: 'mine now', seen: null }, as('ratna'))).status).toBe(409);
    expect(((await seen.json()) as { row: DeskRow }).row.decision).toMatchObject({ decision: 'APPROVED', decidedBy: 'budi' });

    // The bank renames the holder, and a newer batch asks the account: this batch's row is no ground for a decision any more.
    sandbox.upsertAccounts([{ bankCode: '147', accountNumber: '3010012345', holderName: 'BUDI SANTOSO WIJAYA', status: 'SUCCESS' }]);
    const newer = await upload(
      'agt-0205.csv',
      'beneficiary_id,bank_code,account_number,beneficiary_name\nAGT-0205,147,3010012345,Budi Santoso\n',
    );
    expect(newer.status).toBe(202);
    const newerId = ((await newer.json()) as { batchId: string }).batchId;
    await waitFor(
      async () => (await getJson<{ state: string }>(`${serve!.url}/api/batches/${newerId}`, auth)).state === 'reported',
      60_000,
      'the newer batch',
    );
    const stale = await decide(batchId, 16, { decision: 'REJECTED', seen: null }, as('ratna'));
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: string }).error).toContain(
      'the bank\'s holder name for this account is now "BUDI SANTOSO WIJAYA"',
    );
    // Nothing was recorded: the decision on this batch's (older) facts is budi's still.
    expect((await review(batchId, '&decided=decided')).rows.find((each) => each.reference === 'AGT-0205')?.decision).toMatchObject({
      decision: 'APPROVED',
      decidedBy: 'budi',
    });
  });
});
