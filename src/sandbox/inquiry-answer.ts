import { accountKey } from './accounts.js';
import type { SandboxState } from './state.js';

export interface BusinessAnswer {
  body: Record<string, unknown>;
  /** Stats key of the account asked about, or null when the request did not name one. */
  accountKey: string | null;
}

const reject = (message: string, data: unknown = null): Record<string, unknown> => ({ error: true, message, data });

/** The HTTP 200 part of the inquiry: success or a business rejection. */
export function answerInquiry(state: SandboxState, fields: Record<string, unknown> | null): BusinessAnswer {
  const bankCode = fields?.bank_code;
  const accountNumber = fields?.account_number;
  // A number is refused too: a client that sends one has already lost the leading zeros.
  if (typeof bankCode !== 'string' || typeof accountNumber !== 'string' || !bankCode || !accountNumber) {
    return { body: reject('The bank code and account number are required.'), accountKey: null };
  }
  const key = accountKey(bankCode, accountNumber);
  const bank = state.banks.get(bankCode);
  if (!bank) return { body: reject('Bank not supported'), accountKey: key };

  const account = state.accounts.get(key);
  const behaviour = account?.behaviour ?? 'normal';
  if (!account || behaviour === 'not_found') {
    const partial = {
      id: state.nextRecordId++,
      bank_code: bankCode,
      account_number: accountNumber,
      account_holder: null,
      status: 'FAILED',
      updated_at: timestampMicros(),
    };
    return { body: reject('Account not found', partial), accountKey: key };
  }
  if (behaviour === 'closed') return { body: reject('Account closed'), accountKey: key };

  return {
    accountKey: key,
    body: {
      error: false,
      message: 'Inquiry success',
      data: {
        id: state.nextRecordId++,
        bank_code: bankCode,
        account_number: behaviour === 'echo_mismatch' ? alterLastDigit(accountNumber) : accountNumber,
        account_holder: account.holderName,
        status: account.status,
        updated_at: timestampMicros(),
        name: bank.name,
        fee: bank.fee,
      },
    },
  };
}

function alterLastDigit(accountNumber: string): string {
  const last = accountNumber.at(-1) ?? '';
  if (!/\d/.test(last)) return `${accountNumber}0`;
  return `${accountNumber.slice(0, -1)}${(Number(last) + 1) % 10}`;
}

/** ISO 8601 UTC with microseconds, the provider's format (Date alone only gives milliseconds). */
export function timestampMicros(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  return `${iso.slice(0, -1)}${String(micros % 1000).padStart(3, '0')}Z`;
}
