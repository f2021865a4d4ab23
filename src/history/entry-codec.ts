import { OUTCOME_VALUE_COUNT, outcomeFromValues, outcomeValues } from '../provider/outcome.js';
import { RESULT_VALUES, type ResultValue } from '../report/row-result.js';
import type { DefinitiveOutcome, HistoryEntry } from './account-history.js';

// A history entry is one hash field per account, up to a million of them: every byte counts, and an entry
// that stays short keeps its bucket a listpack (see hash-max-listpack-value in src/redis/private-server.ts).
//
//   <verdict><result>|<answeredAt base 36>|<batch>|<reason>|<holder>|<bank>|<fee>|<status>|<inquiry id>|<checked at>
//
// The verdict and the reported result are one letter each (the result absent until the report is written),
// so the scripts in src/redis/commands/history.ts read the time, the batch and the result without decoding
// the rest. The outcome's values follow in outcome.ts's order, `%` and `|` escaped as `%25` and `%7C` so
// that any provider text fits. A time in the provider's form (checked at: ISO 8601 UTC with microseconds,
// 27 characters) is stored as `%t` and its microseconds since 1970 in base 36 (12 characters; no escaped
// value holds `%t`). An absent value and an empty one are both stored as nothing: every reader takes
// `?? ''`. Batch ids hold no `|` (newBatchId).
//
// Entries written before this encoding, `<answeredAt>|<batch>|<result>|<outcome values JSON>`, start with a
// digit where these start with a letter: both still read (here and in the scripts) until they age out.

const VERDICT_CODES: Record<DefinitiveOutcome['verdict'], string> = { VERIFIED: 'V', ACCOUNT_INVALID: 'I' };
const RESULT_CODES: Record<ResultValue, string> = {
  MATCH: 'M',
  CLOSE_MATCH: 'C',
  NO_MATCH: 'N',
  VERIFIED: 'V',
  ACCOUNT_INVALID: 'A',
  INPUT_INVALID: 'I',
  FAILED: 'F',
};

const verdictOfCode = new Map(Object.entries(VERDICT_CODES).map(([verdict, code]) => [code, verdict as DefinitiveOutcome['verdict']]));
const resultOfCode = new Map(RESULT_VALUES.map((result) => [RESULT_CODES[result], result]));

/** The one letter a reported result is stored as (HISTORY_SET_RESULTS writes it into an entry). */
export const resultCode = (result: ResultValue): string => RESULT_CODES[result];

const PROVIDER_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{6})Z$/;
const PACKED_TIME = /^%t([0-9a-z]+)$/;

function packValue(value: string): string {
  const [, seconds, micros] = PROVIDER_TIME.exec(value) ?? [];
  if (seconds !== undefined && micros !== undefined) {
    const ms = Date.parse(`${seconds}Z`);
    const packed = (ms / 1000) * 1_000_000 + Number(micros);
    // Only a time that reads back as written (not a 30 February, a 24:00, a year before 1970 or after 2255).
    if (ms >= 0 && Number.isSafeInteger(packed) && new Date(ms).toISOString().startsWith(seconds)) return `%t${packed.toString(36)}`;
  }
  return value.replace(/[%|]/g, (character) => (character === '%' ? '%25' : '%7C'));
}

function unpackValue(value: string): string {
  const [, time] = PACKED_TIME.exec(value) ?? [];
  if (time === undefined) return value.replace(/%(25|7C)/g, (_, code: string) => (code === '25' ? '%' : '|'));
  const micros = parseInt(time, 36);
  return `${new Date(Math.floor(micros / 1_000_000) * 1000).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

export function encodeHistoryEntry(entry: HistoryEntry): string {
  const [, ...values] = outcomeValues(entry.outcome);
  const head = `${VERDICT_CODES[entry.outcome.verdict]}${entry.result === undefined ? '' : RESULT_CODES[entry.result]}`;
  return [head, entry.answeredAt.toString(36), entry.batchId, ...values.map((value) => packValue(value ?? ''))].join('|');
}

/** An entry in either encoding; undefined when it is neither (never written by this tool). */
export function decodeHistoryEntry(encoded: string): HistoryEntry | undefined {
  return /^\d/.test(encoded) ? decodeJsonEntry(encoded) : decodeCompactEntry(encoded);
}

function decodeCompactEntry(encoded: string): HistoryEntry | undefined {
  const [head = '', at = '', batchId = '', ...values] = encoded.split('|');
  const verdict = verdictOfCode.get(head.slice(0, 1));
  const result = resultOfCode.get(head.slice(1));
  if (
    verdict === undefined ||
    (head.length > 1 && result === undefined) ||
    !/^[0-9a-z]+$/.test(at) ||
    values.length !== OUTCOME_VALUE_COUNT - 1
  )
    return undefined;
  const outcome = outcomeFromValues([verdict, ...values.map((value) => (value === '' ? null : unpackValue(value)))]);
  return { outcome: { ...outcome, verdict, reason: outcome.reason ?? '' }, batchId, answeredAt: parseInt(at, 36), result };
}

function decodeJsonEntry(encoded: string): HistoryEntry | undefined {
  const [, at, batchId, result, values] = /^(\d+)\|([^|]*)\|([^|]*)\|(.*)$/s.exec(encoded) ?? [];
  if (at === undefined || batchId === undefined || values === undefined) return undefined;
  const outcome = outcomeFromValues(JSON.parse(values) as unknown[]);
  if (outcome.verdict !== 'VERIFIED' && outcome.verdict !== 'ACCOUNT_INVALID') return undefined;
  return {
    outcome: { ...outcome, verdict: outcome.verdict, reason: outcome.reason ?? '' },
    batchId,
    answeredAt: Number(at),
    result: result === '' ? undefined : (result as ResultValue),
  };
}
