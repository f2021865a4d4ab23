import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { bankAliasKey, isBankCode, type BankCodeMap } from '../csv/validation.js';
import { ConfigError } from '../errors.js';

/**
 * BANK_CODE_MAP: a CSV of `alias,provider_code` for exports that carry a bank's name where the provider
 * wants its code (`Bank Central Asia,BCA`). Read and validated once, at start: a broken map stops the
 * command before anything is asked, instead of sending a wrong code. A header row `alias,provider_code` is
 * allowed; an alias given twice with different codes is refused.
 */
export function readBankCodeMap(path: string): BankCodeMap {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read BANK_CODE_MAP ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return parseBankCodeMap(text, path);
}

export function parseBankCodeMap(text: string, source = 'BANK_CODE_MAP'): BankCodeMap {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true, delimiter: [',', ';'] }) as string[][];
  } catch (error) {
    throw new ConfigError(`${source} is not a readable CSV file: ${(error as Error).message}`);
  }
  const map = new Map<string, string>();
  rows.forEach((row, index) => {
    const [alias = '', code = ''] = row;
    if (index === 0 && bankAliasKey(alias) === 'alias') return;
    const line = `${source} line ${index + 1}`;
    if (row.length !== 2 || alias === '' || code === '') throw new ConfigError(`${line}: expected two values, alias and provider code`);
    if (!isBankCode(code)) throw new ConfigError(`${line}: ${JSON.stringify(code)} is not a bank code (letters, digits, '_', '-' and '.')`);
    const key = bankAliasKey(alias);
    const earlier = map.get(key);
    if (earlier !== undefined && earlier !== code)
      throw new ConfigError(
        `${line}: alias ${JSON.stringify(alias)} is mapped to both ${JSON.stringify(earlier)} and ${JSON.stringify(code)}`,
      );
    map.set(key, code);
  });
  return map;
}
