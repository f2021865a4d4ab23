import { writeFile } from 'node:fs/promises';
import type { SandboxAccount } from './types.js';

const FIRST = ['BUDI', 'SITI', 'AGUS', 'DEWI', 'EKO', 'RINA', 'JOKO', 'SRI', 'ANDI', 'FITRI', 'HENDRA', 'LINA'];
const LAST = ['SANTOSO', 'LESTARI', 'SETIAWAN', 'WIBOWO', 'SAPUTRA', 'RAHAYU', 'GUNAWAN', 'KURNIAWAN', 'HIDAYAT', 'PRATAMA'];
const BANKS = ['014', '009', '002', '008'];

/** `count` distinct accounts the emulator knows, with deterministic names. */
export function syntheticAccounts(count: number): SandboxAccount[] {
  return Array.from({ length: count }, (_, index) => ({
    bankCode: BANKS[index % BANKS.length]!,
    accountNumber: String(100_000_000 + index).padStart(12, '0'),
    holderName: `${FIRST[index % FIRST.length]} ${LAST[Math.floor(index / FIRST.length) % LAST.length]}`,
    status: 'SUCCESS',
  }));
}

/** A beneficiary file for those accounts: one row each, expected name as typed by a person. */
export async function writeBeneficiaryFile(path: string, accounts: SandboxAccount[]): Promise<void> {
  const lines = ['beneficiary_id,bank_code,account_number,beneficiary_name'];
  for (const [index, account] of accounts.entries()) {
    lines.push(`B${index},${account.bankCode},${account.accountNumber},${account.holderName.toLowerCase()}`);
  }
  await writeFile(path, `${lines.join('\n')}\n`);
}
