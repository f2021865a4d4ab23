import { readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import type { Redis } from 'ioredis';
import type { SandboxServer } from '../../src/sandbox/index.js';
import { redisKeys } from '../../src/redis/keys.js';
import { scanKeys } from '../../src/redis/scan.js';
import { readReport } from '../support/report.js';

/**
 * The beneficiaries of the morning review, on the emulator: one the matcher finds close (a person decides),
 * one that is somebody else's account, one that matches. Names from the emulator's own fixture: no real
 * person's account.
 */
export const ACCOUNTS = {
  close: { bankCode: '008', accountNumber: '0060009876543', holderName: 'RATNA SARI DEWI', status: 'SUCCESS' },
  other: { bankCode: '008', accountNumber: '1410022233344', holderName: 'MUHAMMAD IQBAL', status: 'SUCCESS' },
  same: { bankCode: '014', accountNumber: '0012345678', holderName: 'BUDI SANTOSO', status: 'SUCCESS' },
};

export const HEADER = 'beneficiary_id,bank_code,account_number,beneficiary_name,amount';
/** The nightly export: the same every day (each night a new batch: nothing in it ends FAILED). */
export const EXPORT = `${[HEADER, 'B-1,014,0012345678,Budi Santoso,100000', 'B-2,008,0060009876543,Ratna Sari,250000', 'B-3,008,1410022233344,Muhammad Fauzi,500000'].join('\n')}\n`;

export const byId = (rows: Record<string, string>[]): Map<string, Record<string, string>> =>
  new Map(rows.map((row) => [row.beneficiary_id!, row]));

/** A report row by row id. */
export async function reportRows(path: string): Promise<Map<string, Record<string, string>>> {
  return byId(await readReport(path));
}

/**
 * A reviewed copy of a CSV report, as a person leaves it after writing in the `decision` column (and, when
 * given, `decision_note`): every other cell as the report had it.
 */
export async function reviewedCopy(
  reportPath: string,
  outPath: string,
  decisions: Record<string, string>,
  notes: Record<string, string> = {},
): Promise<void> {
  const rows = await readReport(reportPath);
  const withNotes = Object.keys(notes).length > 0;
  const edited = rows.map((row) => ({
    ...row,
    decision: decisions[row.beneficiary_id!] ?? row.decision!,
    ...(withNotes && { decision_note: notes[row.beneficiary_id!] ?? '' }),
  }));
  await writeFile(outPath, `\uFEFF${stringify(edited, { header: true, record_delimiter: 'windows' })}`);
}

/** The audit trail as stored: every entry's fields, in order. */
export async function trailOf(redis: Redis, prefix: string): Promise<Array<Record<string, string>>> {
  const entries = await redis.xrange(redisKeys(prefix).decisionsTrail(), '-', '+');
  return entries.map(([id, values]) => {
    const fields: Record<string, string> = { id };
    for (let index = 0; index < values.length; index += 2) fields[values[index]!] = values[index + 1]!;
    return fields;
  });
}

/** Every key under the prefix, to check that none names an account number or a holder. */
export async function keysOf(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of scanKeys(redis, `${prefix}:*`, 1000)) found.push(...keys);
  return found;
}

export async function summaryOf(reportPath: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(reportPath.replace(/\.(csv|xlsx)$/, '.summary.json'), 'utf8')) as Record<string, unknown>;
}

/** Renames a holder at the bank: the emulator's control endpoint. */
export async function renameHolder(
  sandbox: SandboxServer,
  account: { bankCode: string; accountNumber: string },
  holderName: string,
): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      accounts: [{ bank_code: account.bankCode, account_number: account.accountNumber, account_holder: holderName }],
    }),
  });
  if (response.status !== 200) throw new Error(`the emulator refused the rename: ${response.status} ${await response.text()}`);
}
