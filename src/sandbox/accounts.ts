import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { SandboxAccount, SandboxBehaviour } from './types.js';

const BEHAVIOURS: readonly SandboxBehaviour[] = ['normal', 'not_found', 'echo_mismatch', 'closed'];
const REQUIRED_COLUMNS = ['bank_code', 'account_number', 'account_holder'] as const;

export const accountKey = (bankCode: string, accountNumber: string): string => `${bankCode}:${accountNumber}`;

/**
 * Reads a fixture CSV: bank_code,account_number,account_holder[,status][,behaviour].
 * Every cell stays a string so leading zeros in account numbers survive.
 */
export async function loadSandboxAccounts(file: string): Promise<SandboxAccount[]> {
  const parser = createReadStream(file).pipe(parse({ columns: true, bom: true, trim: true, skip_empty_lines: true, cast: false }));
  const accounts: SandboxAccount[] = [];
  let line = 1;
  for await (const record of parser as AsyncIterable<Record<string, string | undefined>>) {
    line++;
    accounts.push(toAccount(record, `${file}:${line}`));
  }
  return accounts;
}

/** One fixture record (the CSV's columns as keys) as an account; throws naming `where` and the problem. */
export function toAccount(record: Record<string, string | undefined>, where: string): SandboxAccount {
  for (const column of REQUIRED_COLUMNS) {
    if (!record[column]) throw new Error(`${where}: missing ${column}`);
  }
  const behaviour = record.behaviour || 'normal';
  if (!BEHAVIOURS.includes(behaviour as SandboxBehaviour)) throw new Error(`${where}: unknown behaviour "${behaviour}"`);
  return {
    bankCode: record.bank_code as string,
    accountNumber: record.account_number as string,
    holderName: record.account_holder as string,
    status: record.status || 'SUCCESS',
    behaviour: behaviour as SandboxBehaviour,
  };
}

export function indexAccounts(accounts: readonly SandboxAccount[]): Map<string, SandboxAccount> {
  return new Map(accounts.map((a) => [accountKey(a.bankCode, a.accountNumber), a]));
}
