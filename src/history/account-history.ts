import type { RedisClient } from '../redis/connection.js';
import type { InquiryOutcome } from '../provider/outcome.js';
import { runCommand } from '../redis/commands/define.js';
import { HISTORY_RECORD, HISTORY_SET_RESULT } from '../redis/commands/history.js';
import type { RedisKeys } from '../redis/keys.js';
import type { ResultValue } from '../report/row-result.js';

/** A definitive provider answer: FAILED is no answer and never becomes history. */
export type DefinitiveOutcome = InquiryOutcome & { verdict: 'VERIFIED' | 'ACCOUNT_INVALID' };

export const isDefinitive = (outcome: InquiryOutcome): outcome is DefinitiveOutcome => outcome.verdict !== 'FAILED';

/** The last definitive answer the provider gave for one account at one endpoint. */
export interface HistoryEntry {
  outcome: DefinitiveOutcome;
  /** The batch that asked. */
  batchId: string;
  /** When the answer was stored (ms). */
  answeredAt: number;
  /** The verdict of the account's first row in that batch's report, once the report was written. */
  result?: ResultValue | undefined;
}

/** What the history held for an account before a batch's answer; `reused` when that answer was taken from it. */
export interface PreviousAnswer {
  entry: HistoryEntry | null;
  reused: boolean;
}

/**
 * The account history across batches: per provider endpoint (the inquiry queue name: environment + base
 * address, so sandbox and production, or two addresses, never meet) and account, the last definitive
 * answer. Each entry lives `keepMs` after its answer (ACCOUNT_HISTORY_DAYS); every new answer starts the
 * time again. What the history said before a batch's answer is stored with the batch's outcome
 * (BatchStore.saveOutcome), which keeps the `change` column the same whenever the report is written again.
 */
export class AccountHistory {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    /** An entry's life after its answer (ACCOUNT_HISTORY_DAYS). */
    private readonly keepMs: number,
  ) {}

  /** The entries of these accounts (one key each: read side by side, never as one multi-key command). */
  async getMany(endpoint: string, accountKeys: readonly string[]): Promise<Map<string, HistoryEntry>> {
    const found = new Map<string, HistoryEntry>();
    const values = await Promise.all(accountKeys.map((accountKey) => this.redis.hgetall(this.keys.accountHistory(endpoint, accountKey))));
    values.forEach((fields, index) => {
      const entry = decodeEntry(fields);
      if (entry !== undefined) found.set(accountKeys[index]!, entry);
    });
    return found;
  }

  /** Records an answer, unless the history holds a later one. */
  async record(endpoint: string, accountKey: string, entry: HistoryEntry): Promise<void> {
    await runCommand(this.redis, HISTORY_RECORD, [this.keys.accountHistory(endpoint, accountKey)], [entry.answeredAt, this.keepMs, ...encodeEntry(entry)]);
  }

  /** The row verdicts a batch reported, for the next batch's RESULT_CHANGED (only where the entry is still that batch's answer). */
  async recordResults(endpoint: string, batchId: string, results: ReadonlyMap<string, ResultValue>): Promise<void> {
    await Promise.all(
      [...results].map(([accountKey, result]) => runCommand(this.redis, HISTORY_SET_RESULT, [this.keys.accountHistory(endpoint, accountKey)], [batchId, result])),
    );
  }
}

/** Field/value pairs of the history hash; empty values are left out. */
function encodeEntry(entry: HistoryEntry): string[] {
  const { outcome } = entry;
  const fields: Array<[string, string | number | undefined]> = [
    ['verdict', outcome.verdict],
    ['reason', outcome.reason],
    ['holder', outcome.holderName],
    ['bank', outcome.bankName],
    ['fee', outcome.fee],
    ['status', outcome.inquiryStatus],
    ['id', outcome.inquiryId],
    ['checkedAt', outcome.checkedAt],
    ['at', entry.answeredAt],
    ['batch', entry.batchId],
    ['result', entry.result],
  ];
  return fields.flatMap(([name, value]) => (value === undefined || value === '' ? [] : [name, String(value)]));
}

function decodeEntry(fields: Record<string, string>): HistoryEntry | undefined {
  const { verdict, batch, at } = fields;
  if ((verdict !== 'VERIFIED' && verdict !== 'ACCOUNT_INVALID') || batch === undefined || at === undefined) return undefined;
  return {
    outcome: {
      verdict,
      reason: fields.reason ?? '',
      holderName: fields.holder,
      bankName: fields.bank,
      fee: fields.fee,
      inquiryStatus: fields.status,
      inquiryId: fields.id,
      checkedAt: fields.checkedAt,
    },
    batchId: batch,
    answeredAt: Number(at),
    result: fields.result as ResultValue | undefined,
  };
}
