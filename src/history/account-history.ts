import type { RedisClient } from '../redis/connection.js';
import type { InquiryOutcome } from '../provider/outcome.js';
import { runCommand } from '../redis/commands/define.js';
import { HISTORY_RECORD, HISTORY_SET_RESULTS } from '../redis/commands/history.js';
import type { RedisKeys } from '../redis/keys.js';
import type { ResultValue } from '../report/row-result.js';
import { decodeHistoryEntry, encodeHistoryEntry, resultCode } from './entry-codec.js';

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

/** Where and how an account's entry is written: its bucket and field, the encoded entry, and the history's life. */
export interface HistoryWrite {
  key: string;
  field: string;
  entry: string;
  answeredAt: number;
  keepMs: number;
}

/** What the history held for an account before a batch's answer; `reused` when that answer was taken from it. */
export interface PreviousAnswer {
  entry: HistoryEntry | null;
  reused: boolean;
}

/**
 * The account history across batches: per provider endpoint (the inquiry queue name: environment + base
 * address, so sandbox and production, or two addresses, never meet) and account, the last definitive
 * answer. Each entry lives `keepMs` after its answer (ACCOUNT_HISTORY_RETENTION); every new answer starts the
 * time again. What the history said before a batch's answer is stored with the batch's outcome
 * (BatchStore.writeAnswer), which keeps the `change` column the same whenever the report is written again.
 */
export class AccountHistory {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    /** An entry's life after its answer (ACCOUNT_HISTORY_RETENTION). */
    private readonly keepMs: number,
    private readonly now: () => number,
  ) {}

  /** The entries of these accounts, none older than the history's life (one bucket each: read side by side, never as one multi-key command). */
  async getMany(endpoint: string, accountKeys: readonly string[]): Promise<Map<string, HistoryEntry>> {
    const found = new Map<string, HistoryEntry>();
    const oldest = this.now() - this.keepMs;
    const values = await Promise.all(
      accountKeys.map((accountKey) => {
        const { key, field } = this.keys.accountHistory(endpoint, accountKey);
        return this.redis.hget(key, field);
      }),
    );
    values.forEach((value, index) => {
      const entry = value === null ? undefined : decodeHistoryEntry(value);
      // A bucket written since keeps an entry past its life until the next write sweeps it: it is not used.
      if (entry !== undefined && entry.answeredAt >= oldest) found.set(accountKeys[index]!, entry);
    });
    return found;
  }

  /** Records an answer, unless the history holds a later one. */
  async record(endpoint: string, accountKey: string, entry: HistoryEntry): Promise<void> {
    const write = this.writeOf(endpoint, accountKey, entry);
    await runCommand(this.redis, HISTORY_RECORD, [write.key], [write.field, write.answeredAt, write.keepMs, write.entry]);
  }

  /** What recording `entry` writes, for a script that records it with the batch's outcome (BatchStore.writeAnswerWithHistory). */
  writeOf(endpoint: string, accountKey: string, entry: HistoryEntry): HistoryWrite {
    return {
      ...this.keys.accountHistory(endpoint, accountKey),
      entry: encodeHistoryEntry(entry),
      answeredAt: entry.answeredAt,
      keepMs: this.keepMs,
    };
  }

  /** The row verdicts a batch reported, for the next batch's RESULT_CHANGED (only where the entry is still that batch's answer). */
  async recordResults(endpoint: string, batchId: string, results: ReadonlyMap<string, ResultValue>): Promise<void> {
    const writes = [...results].map(([accountKey, result]) => ({ ...this.keys.accountHistory(endpoint, accountKey), result }));
    const run = (slice: typeof writes) =>
      runCommand(
        this.redis,
        HISTORY_SET_RESULTS,
        slice.map(({ key }) => key),
        [batchId, ...slice.flatMap(({ field, result }) => [field, result, resultCode(result)])],
      );
    // A cluster refuses a script over keys of several slots: one call per account there.
    if (this.redis.isCluster) await Promise.all(writes.map((write) => run([write])));
    else if (writes.length > 0) await run(writes);
  }
}
