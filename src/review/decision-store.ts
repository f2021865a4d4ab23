import { accountKey } from '../csv/validation.js';
import { maskAccountNumber, maskDigitRuns } from '../logging/logger.js';
import type { RedisClient } from '../redis/connection.js';
import { runCommand } from '../redis/commands/define.js';
import { DECISIONS_RECORD, DECISIONS_SWEEP, DECISIONS_VOID } from '../redis/commands/decisions.js';
import { decisionAccountField, type RedisKeys } from '../redis/keys.js';
import { expectedNameKey, judgeRow, type Decision, type DecisionFacts, type DecisionState, type DecisionValue } from './decision.js';

/** A decision to record, with where it was made (for the audit trail). */
export interface DecisionToRecord {
  facts: DecisionFacts;
  decision: DecisionValue;
  decidedBy: string;
  /** Undefined when none was given (a review file without a `decision_note` column): an unchanged decision keeps its note. */
  note?: string | undefined;
  /**
   * The time of the decision the writer saw on its row (a report's `decided_at`, the console's `seen`), or
   * undefined when it saw none. Nothing is recorded (`stale`) when that decision no longer stands, or when the
   * writer saw none and another decision now stands on the same facts: a report or a page older than
   * somebody else's decision must not change it.
   */
  seenAt?: number | undefined;
  /** Where it was made: `console`, `review <file>`, `watch <folder>/reviews/<file>`. */
  source: string;
  batchId?: string | undefined;
  /** 1-based data row of the batch or file. */
  row?: number | undefined;
}

export type RecordOutcome =
  | { status: 'recorded'; decidedAt: number; earlier: Decision | undefined }
  | { status: 'unchanged'; earlier: Decision }
  | { status: 'stale'; earlier: Decision | undefined };

/** One entry of the audit trail: a decision recorded or changed, with the facts (the account masked). */
export interface TrailEntry {
  /** The stream id: the order decisions were made in. */
  id: string;
  recordedAt: number;
  fields: Record<string, string>;
}

/** A standing decision as stored (see src/redis/commands/decisions.ts). */
interface StoredDecision {
  e: string;
  x: string;
  h: string;
  b: string;
  a: string;
  v: string;
  d: DecisionValue;
  by: string;
  at: number;
  n?: string;
}

/** Account fields read per HMGET at most. */
const FIELDS_PER_READ = 1_000;
const TRAIL_PAGE = 500;

/**
 * Where decisions live: in Redis, beside the working state but not part of it (see keys.decisionsStanding
 * and keys.decisionsTrail). They never expire with batches; `prune` and `delete` never touch them. With
 * DECISION_RETENTION (default: for ever) a decision stands that long after it was made, and audit
 * entries are kept that long.
 */
export class DecisionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    /** DECISION_RETENTION in ms; 0: for ever. */
    private readonly keepMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The standing decisions on the accounts of these facts, by account field: one HMGET per thousand accounts, never one per row. */
  async onAccounts(facts: readonly DecisionFacts[]): Promise<Map<string, Decision[]>> {
    const fields = [...new Set(facts.map(accountField))];
    const found = new Map<string, Decision[]>();
    const oldest = this.keepMs === 0 ? -Infinity : this.now() - this.keepMs;
    for (let start = 0; start < fields.length; start += FIELDS_PER_READ) {
      const slice = fields.slice(start, start + FIELDS_PER_READ);
      const values = await this.redis.hmget(this.keys.decisionsStanding(), ...slice);
      values.forEach((value, index) => {
        if (value === null) return;
        const live = (JSON.parse(value) as StoredDecision[]).filter((stored) => stored.at >= oldest).map(decisionOf);
        if (live.length > 0) found.set(slice[index]!, live);
      });
    }
    return found;
  }

  /** The state of each row (undefined: a row nobody decides), reading the decisions of all of them at once. */
  async judge(rows: ReadonlyArray<DecisionFacts | undefined>, showTime: (at: number) => string): Promise<Array<DecisionState | undefined>> {
    const decidable = rows.filter((facts): facts is DecisionFacts => facts !== undefined);
    // Where nobody has decided anything, one HLEN instead of a digest and a field per row (a report's MATCH rows are judged too).
    const none = decidable.length === 0 || (await this.redis.hlen(this.keys.decisionsStanding())) === 0;
    const standing = none ? new Map<string, Decision[]>() : await this.onAccounts(decidable);
    return rows.map((facts) => (facts === undefined ? undefined : judgeRow(facts, standing.get(accountField(facts)) ?? [], showTime)));
  }

  /** Records decisions in one script call: each with its audit entry, all of them or none. */
  async record(decisions: readonly DecisionToRecord[]): Promise<RecordOutcome[]> {
    if (decisions.length === 0) return [];
    const args: Array<string | number> = [this.keepMs];
    for (const decision of decisions) {
      const { facts } = decision;
      const field = accountField(facts);
      const entry: Omit<StoredDecision, 'at'> = {
        e: expectedNameKey(facts.expectedName),
        x: facts.expectedName,
        h: facts.holderName,
        b: facts.bankCode,
        a: facts.accountNumber,
        v: facts.environment,
        d: decision.decision,
        by: decision.decidedBy,
        ...(decision.note !== undefined && { n: decision.note }),
      };
      const trail = trailFields(facts, {
        decision: decision.decision,
        decidedBy: decision.decidedBy,
        note: decision.note ?? '',
        source: decision.source,
        batchId: decision.batchId ?? '',
        row: decision.row === undefined ? '' : String(decision.row),
      });
      args.push(field, JSON.stringify(entry), decision.seenAt === undefined ? '' : String(decision.seenAt), trail);
    }
    const replies = await runCommand<Array<[string, string, string]>>(
      this.redis,
      DECISIONS_RECORD,
      [this.keys.decisionsStanding(), this.keys.decisionsTrail()],
      args,
    );
    return replies.map(([status, earlierJson, at]) => {
      const earlier = earlierJson === '' ? undefined : decisionOf(JSON.parse(earlierJson) as StoredDecision);
      if (status === 'recorded') return { status, decidedAt: Number(at), earlier };
      if (status === 'unchanged') return { status, earlier: earlier! };
      return { status: 'stale', earlier };
    });
  }

  /**
   * Ends these decisions (each with a `VOIDED` audit entry saying why): the bank changed the holder name after
   * each was made, and a name that comes back is no longer the one a person saw then. One whose entry changed
   * meanwhile (decided again) is left as it is. Returns how many were ended.
   */
  async end(voided: ReadonlyArray<{ decision: Decision; reason: string }>): Promise<number> {
    if (voided.length === 0) return 0;
    const args: Array<string | number> = [this.keepMs];
    for (const { decision, reason } of voided) {
      const { facts } = decision;
      const trail = trailFields(facts, { decision: '', decidedBy: '', note: reason, source: 'report', batchId: '', row: '' });
      args.push(accountField(facts), expectedNameKey(facts.expectedName), decision.decidedAt, trail);
    }
    return runCommand<number>(this.redis, DECISIONS_VOID, [this.keys.decisionsStanding(), this.keys.decisionsTrail()], args);
  }

  /** The audit trail in the order decisions were made, a page at a time (never all in memory). */
  async *trail(): AsyncGenerator<TrailEntry[]> {
    let from = '-';
    for (;;) {
      const page = await this.redis.xrange(this.keys.decisionsTrail(), from, '+', 'COUNT', TRAIL_PAGE);
      if (page.length === 0) return;
      yield page.map(([id, values]) => {
        const fields: Record<string, string> = {};
        for (let index = 0; index < values.length; index += 2) fields[values[index]!] = values[index + 1]!;
        return { id, recordedAt: Number(id.split('-')[0]), fields };
      });
      if (page.length < TRAIL_PAGE) return;
      from = `(${page[page.length - 1]![0]}`;
    }
  }

  /** Changes whenever a decision is recorded: the id of the last audit entry ('' before any). */
  async version(): Promise<string> {
    const last = await this.redis.xrevrange(this.keys.decisionsTrail(), '+', '-', 'COUNT', 1);
    const id = last[0]?.[0] ?? '';
    // With a retention, decisions also stop standing as time passes: an hour's bucket makes counts follow.
    return this.keepMs === 0 ? id : `${id}/${Math.floor(this.now() / 3600_000)}`;
  }

  /**
   * Decisions are records: a Redis without its append-only file loses those made since its last snapshot
   * when it restarts. Says so (undefined when AOF is on, or when Redis does not tell: a managed service).
   */
  async persistenceWarning(): Promise<string | undefined> {
    const info = await this.redis.info('persistence').catch(() => '');
    if (!/^aof_enabled:0\s*$/m.test(info)) return undefined;
    return 'Redis runs without its append-only file (appendonly no): a restart loses the decisions made since its last snapshot. Decisions are records: turn AOF on (appendonly yes; the compose Redis has it)';
  }

  /** DECISION_RETENTION: removes decisions and audit entries older than it; nothing without the setting. Returns decisions removed. */
  async sweep(): Promise<number> {
    if (this.keepMs === 0) return 0;
    let cursor = '0';
    let dropped = 0;
    do {
      const [next, entries] = await this.redis.hscan(this.keys.decisionsStanding(), cursor, 'COUNT', 500);
      cursor = next;
      const fields = entries.filter((_, index) => index % 2 === 0);
      if (fields.length > 0)
        dropped += await runCommand<number>(
          this.redis,
          DECISIONS_SWEEP,
          [this.keys.decisionsStanding(), this.keys.decisionsTrail()],
          [this.keepMs, ...fields],
        );
    } while (cursor !== '0');
    return dropped;
  }
}

/**
 * An audit entry's own fields as the scripts take them (a JSON array [name, value, ...]): what was done, by whom,
 * where, and the facts, the account masked. A reviewed file's path may hold an account number: the trail, kept for
 * DECISION_RETENTION, holds it masked too.
 */
function trailFields(
  facts: DecisionFacts,
  entry: { decision: string; decidedBy: string; note: string; source: string; batchId: string; row: string },
): string {
  const fields = {
    decision: entry.decision,
    decided_by: entry.decidedBy,
    note: entry.note,
    environment: facts.environment,
    bank_code: facts.bankCode,
    account: maskAccountNumber(facts.accountNumber),
    account_ref: accountField(facts),
    expected_name: facts.expectedName,
    holder_name: facts.holderName,
    source: maskDigitRuns(entry.source),
    batch_id: entry.batchId,
    row: entry.row,
  };
  return JSON.stringify(Object.entries(fields).flat());
}

/** The field of the facts' account in the standing decisions. */
export const accountField = (facts: DecisionFacts): string => decisionAccountField(facts.environment, accountKey(facts));

function decisionOf(stored: StoredDecision): Decision {
  return {
    facts: { environment: stored.v, bankCode: stored.b, accountNumber: stored.a, expectedName: stored.x, holderName: stored.h },
    decision: stored.d,
    decidedBy: stored.by,
    decidedAt: stored.at,
    note: stored.n ?? '',
  };
}
