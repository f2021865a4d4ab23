import { headerKey, mapColumns, referenceColumn, type ColumnMapping, type ColumnOverrides } from '../csv/columns.js';
import { accountKey, validateRow, type BankCodeMap } from '../csv/validation.js';
import { UsageError } from '../errors.js';
import { maskDigitRuns } from '../logging/logger.js';
import { compareNames, type NameMatching } from '../matching/compare-names.js';
import { restoreCell } from '../report/neutralise.js';
import { RESULT_COLUMNS } from '../report/row-result.js';
import {
  DECIDABLE_RESULTS,
  expectedNameKey,
  judgeRow,
  parseDecisionValue,
  type Decision,
  type DecisionFacts,
  type DecisionValue,
} from './decision.js';
import { accountField, type DecisionStore, type DecisionToRecord } from './decision-store.js';

/** The file's rows, streamed, after a first pass proved that the whole file reads (an unreadable file records nothing). */
export interface ReviewFileRows {
  header: string[];
  records: AsyncIterable<{ fields: string[] }>;
}

/** The last definitive answer this tool stored for an account, in any batch of the environment. */
export interface KnownAnswer {
  holderName: string | undefined;
  answeredAt: number;
}

export interface ReviewImportDependencies {
  /** Reads a CSV or an XLSX file, the same reader as `run` (a usage error, exit 2, for a file it cannot read). */
  open(path: string): Promise<ReviewFileRows>;
  decisions: Pick<DecisionStore, 'record' | 'onAccounts'>;
  /** The last answers stored for these accounts (`bank:number`) in this environment. */
  knownAnswers(environment: string, accountKeys: string[]): Promise<Map<string, KnownAnswer>>;
  /** H2H_ENV: the environment whose answers the report shows. */
  environment: string;
  /** BANK_CODE_MAP: the bank code sent for a row is found as `run` found it. */
  bankCodes: BankCodeMap;
  /** NAME_MATCH_POLICY and NAME_RULES_FILE: the row's names are compared again, as `run` compared them. */
  nameMatching: NameMatching;
  showTime(at: number): string;
}

export interface ReviewImportRequest {
  path: string;
  /** The person who decided (`--by`, the reviewer of a watched file). */
  reviewer: string;
  /** For the audit trail: `review <file>`, `watch <folder>/reviews/<file>`. */
  source: string;
  /** The columns `run` was told with --bank-column etc., when the report's input columns need them again. */
  columns?: ColumnOverrides;
}

export interface ReviewedRow {
  /** 1-based data row of the file. */
  row: number;
  /** The row's reference (its first column that is not bank, account or name), digit runs masked. */
  reference: string;
}

export interface ReviewImport {
  recorded: Array<ReviewedRow & { decision: DecisionValue; replaced: Decision | undefined }>;
  unchanged: number;
  refused: Array<ReviewedRow & { reason: string }>;
}

/**
 * Nobody decides more by hand: a file with more decision cells filled is refused whole (split it), so that it
 * is recorded in one step, and what it holds stays small in memory.
 */
export const MAX_DECISIONS_PER_FILE = 10_000;
const MAX_NOTE_CHARACTERS = 500;
const MAX_NAME_CHARACTERS = 100;
/** An optional column a reviewer may add beside `decision`. */
const NOTE_COLUMN = 'decision_note';

/**
 * `review`: records the decisions a person wrote in a reconciliation report's `decision` column (a CSV or
 * an XLSX, as the tool wrote it, edited in a spreadsheet). The report is read by its own columns: the
 * product's columns (the last `result` ... `decided_at` run of the header) and, before them, the input
 * columns found as `run` found them. Every new or changed decision is recorded, each row checked first:
 * - only CLOSE_MATCH and NO_MATCH rows are decided, and a MATCH row REJECTED or showing a decision (refused:
 *   FAILED, ...; an unknown value);
 * - its facts must be what this tool last stored for the account: the account as sent, and the holder name
 *   of the last answer (a report older than a rename of the holder, or an edited cell, is refused);
 * - a row that showed a decision (`decided_at` filled) changes it only if that decision still stands: a
 *   report written before somebody else changed a decision does not change it back.
 * All the file's decisions are recorded in one step, or none: an unreadable file records nothing.
 */
export async function importReviewFile(deps: ReviewImportDependencies, request: ReviewImportRequest): Promise<ReviewImport> {
  const reviewer = request.reviewer.trim();
  if (reviewer === '') throw new UsageError('a decision needs the name of the person who made it: --by NAME');
  if (reviewer.length > MAX_NAME_CHARACTERS) throw new UsageError(`the reviewer's name is longer than ${MAX_NAME_CHARACTERS} characters`);
  // As the console's proxy header: a line break in a name would forge a line of the audit trail's exports.
  if (/\p{Cc}/u.test(reviewer)) throw new UsageError("the reviewer's name holds a line break or another control character");
  const file = await deps.open(request.path);
  const layout = reportLayout(file.header, request.path, request.columns ?? {});
  const result: ReviewImport = { recorded: [], unchanged: 0, refused: [] };
  const candidates: Candidate[] = [];
  let rowNumber = 0;
  let written = 0;
  for await (const { fields } of file.records) {
    rowNumber += 1;
    const value = (fields[layout.decision] ?? '').trim();
    // Only for a row that is reported: most rows of a report have no decision cell filled.
    const whereOf = (): ReviewedRow => ({
      row: rowNumber,
      reference: maskDigitRuns(layout.reference === undefined ? '' : (fields[layout.reference] ?? '').trim()),
    });
    if (value === '') {
      // A decision the report showed, its cell emptied: nothing withdraws a decision, and a person who meant to
      // must hear so (an APPROVED still pays), not read "0 recorded" as done.
      // Either cell left filled shows the row had one; all three emptied cannot be told from a row the report left undecided.
      const decidedBy = (fields[layout.decidedBy] ?? '').trim();
      if (decidedBy !== '' || (fields[layout.decidedAt] ?? '').trim() !== '')
        result.refused.push({
          ...whereOf(),
          reason: `the decision cell is empty, but the report showed a decision${decidedBy === '' ? '' : ` by ${JSON.stringify(decidedBy.slice(0, MAX_NAME_CHARACTERS))}`}: an emptied cell withdraws nothing (it still stands); write REJECTED to stop a payment, or leave the cell as the report wrote it`,
        });
      continue;
    }
    written += 1;
    if (written > MAX_DECISIONS_PER_FILE) {
      throw new UsageError(
        `${request.path} holds more than ${MAX_DECISIONS_PER_FILE.toLocaleString('en')} decisions: split it (nothing was recorded)`,
      );
    }
    const where = whereOf();
    const read = readDecision(fields, layout, value, deps);
    if (typeof read === 'string') {
      result.refused.push({ ...where, reason: read });
      continue;
    }
    candidates.push({ where, toRecord: { ...read, decidedBy: reviewer, source: request.source, row: rowNumber } });
  }
  const accepted = await checkAgainstStore(candidates, deps, result);
  const outcomes = await deps.decisions.record(accepted.map(({ toRecord }) => toRecord));
  outcomes.forEach((outcome, index) => {
    const { where, toRecord } = accepted[index]!;
    if (outcome.status === 'recorded') result.recorded.push({ ...where, decision: toRecord.decision, replaced: outcome.earlier });
    else if (outcome.status === 'unchanged') result.unchanged += 1;
    else result.refused.push({ ...where, reason: staleReason(outcome.earlier, deps.showTime) });
  });
  result.refused.sort((a, b) => a.row - b.row);
  return result;
}

/** Where the report keeps what `review` reads. */
interface ReportLayout {
  mapping: ColumnMapping;
  /** Number of input columns (the product's columns start there). */
  inputColumns: number;
  result: number;
  nameScore: number;
  holderName: number;
  accountChecked: number;
  decision: number;
  decidedBy: number;
  decidedAt: number;
  note: number | undefined;
  reference: number | undefined;
}

function reportLayout(header: readonly string[], path: string, overrides: ColumnOverrides): ReportLayout {
  const allKeys = header.map(headerKey);
  // A reviewer's note column may be put anywhere after the input's, beside `decision` too, where people put it:
  // the product's columns are found without it, and its place is mapped back.
  const noteKey = headerKey(NOTE_COLUMN);
  const columns = allKeys.flatMap((key, index) => (key === noteKey ? [] : [index]));
  const keys = columns.map((index) => allKeys[index]!);
  const product = RESULT_COLUMNS.map(headerKey);
  // The product's columns are the last run of them: an input column may itself be called `result`.
  let start = -1;
  for (let index = keys.length - product.length; index >= 0 && start < 0; index -= 1) {
    if (product.every((key, offset) => keys[index + offset] === key)) start = index;
  }
  if (start < 0) {
    throw new UsageError(
      `${path} is not a reconciliation report with a decision column: its header needs the report's own columns (${RESULT_COLUMNS.join(', ')}), as beneficiary-check wrote them, side by side in that order (a column of your own goes after them, or before them among the input's); review the latest report`,
    );
  }
  const inputColumns = columns[start]!;
  const at = (name: string) => columns[start + RESULT_COLUMNS.indexOf(name as (typeof RESULT_COLUMNS)[number])]!;
  const mapping = mapColumns(header.slice(0, inputColumns), overrides);
  const note = allKeys.indexOf(noteKey, inputColumns);
  return {
    mapping,
    inputColumns,
    result: at('result'),
    nameScore: at('name_score'),
    holderName: at('account_holder'),
    accountChecked: at('account_number_checked'),
    decision: at('decision'),
    decidedBy: at('decided_by'),
    decidedAt: at('decided_at'),
    note: note < 0 ? undefined : note,
    reference: referenceColumn(header.slice(0, inputColumns), mapping),
  };
}

type ReadDecision = Pick<DecisionToRecord, 'facts' | 'decision' | 'note' | 'seenAt'>;
type Candidate = { where: ReviewedRow; toRecord: DecisionToRecord };

/** The decision a row asks for, or why it is refused (from the row alone). */
function readDecision(
  fields: readonly string[],
  layout: ReportLayout,
  written: string,
  deps: ReviewImportDependencies,
): ReadDecision | string {
  const decision = parseDecisionValue(written);
  if (decision === undefined)
    return `unknown decision ${JSON.stringify(written.slice(0, 40))}: write APPROVED or REJECTED (or leave the cell empty)`;
  const result = (fields[layout.result] ?? '').trim();
  // A MATCH row showing a decision (a REJECTED one made under a stricter reading: matchRowFacts) is the person's
  // to keep or change, like any decided row; and a no may be said to any MATCH row (it stands: matchRowFacts).
  const onMatch = result === 'MATCH' && ((fields[layout.decidedAt] ?? '').trim() !== '' || decision === 'REJECTED');
  if (!DECIDABLE_RESULTS.has(result as never) && !onMatch) {
    return `a decision on a ${result === '' ? 'row without a result' : `${result} row`}: only CLOSE_MATCH and NO_MATCH rows are decided${
      result === 'FAILED' || result === 'INPUT_INVALID'
        ? ' (nothing was verified)'
        : result === 'MATCH'
          ? ' (a MATCH row may be REJECTED: do not pay)'
          : ''
    }`;
  }
  const validation = validateRow(fields.slice(0, layout.inputColumns), layout.mapping, deps.bankCodes);
  // As the bank and the payer wrote them: a CSV report put an apostrophe before a formula-like name (restoreCell).
  const expectedName = layout.mapping.expectedName === undefined ? '' : restoreCell(fields[layout.mapping.expectedName] ?? '').trim();
  const holderName = restoreCell(fields[layout.holderName] ?? '');
  if (
    !validation.valid ||
    validation.account.accountNumber !== (fields[layout.accountChecked] ?? '').trim() ||
    expectedName === '' ||
    holderName.trim() === ''
  ) {
    return "the row's bank code, account number, expected name or holder name is not as the report wrote it: decide on the report as written";
  }
  // The names compared again: a decision is recorded for the expected name the report compared, never for one
  // typed in since (a name edited, a row added, a VERIFIED row given a name and a result), which no run compared
  // with the holder's and a later run would show APPROVED.
  const compared = compareNames(expectedName, holderName, deps.nameMatching.policy, deps.nameMatching.knowledge);
  const scoreCell = (fields[layout.nameScore] ?? '').trim();
  // As a spreadsheet may have saved the number: `85`, `85.0`, `85,0`.
  if (compared.verdict !== result || Number(scoreCell.replace(',', '.')) !== compared.score || scoreCell === '') {
    const which = compared.verdict === result ? 'the name_score cell' : 'the expected name';
    return `the expected name and the holder name give ${compared.verdict} (name_score ${compared.score}), not this row's ${result} (name_score ${JSON.stringify(scoreCell.slice(0, 10))}): ${which} was edited since the report was written, or this process compares names under another NAME_MATCH_POLICY or NAME_RULES_FILE than the run that wrote it. Decide on the report as written, with the settings it was written with`;
  }
  const decidedAt = (fields[layout.decidedAt] ?? '').trim();
  const seenAt = decidedAt === '' ? undefined : Date.parse(decidedAt);
  if (seenAt !== undefined && Number.isNaN(seenAt))
    return `decided_at ${JSON.stringify(decidedAt.slice(0, 40))} is not as the report wrote it: leave decided_by and decided_at as they are`;
  const note = layout.note === undefined ? undefined : (fields[layout.note] ?? '').trim().slice(0, MAX_NOTE_CHARACTERS);
  const facts: DecisionFacts = { environment: deps.environment, ...validation.account, expectedName, holderName };
  return { facts, decision, note, seenAt };
}

/**
 * The checks that need what is stored: the same beneficiary decided twice in the file with different values
 * (both refused); a decision that already stands as written (unchanged: a report re-imported, a row left as
 * the report filled it); facts that are not the last answer stored for the account.
 */
async function checkAgainstStore(candidates: Candidate[], deps: ReviewImportDependencies, result: ReviewImport): Promise<Candidate[]> {
  const subjectOf = ({ facts }: DecisionToRecord) => `${accountField(facts)}|${expectedNameKey(facts.expectedName)}|${facts.holderName}`;
  const standing = await deps.decisions.onAccounts(candidates.map(({ toRecord }) => toRecord.facts));
  const bySubject = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const subject = subjectOf(candidate.toRecord);
    bySubject.set(subject, [...(bySubject.get(subject) ?? []), candidate]);
  }
  const known = await deps.knownAnswers(deps.environment, [...new Set(candidates.map(({ toRecord }) => accountKey(toRecord.facts)))]);
  const accepted: Candidate[] = [];
  for (const same of bySubject.values()) {
    const values = new Set(same.map(({ toRecord }) => toRecord.decision));
    if (values.size > 1) {
      const rows = same.map(({ where }) => where.row).join(', ');
      for (const { where } of same)
        result.refused.push({
          ...where,
          reason: `the same beneficiary is decided differently in rows ${rows} of this file: decide it once`,
        });
      continue;
    }
    const [first, ...repeated] = same;
    result.unchanged += repeated.length;
    const { facts, decision, note } = first!.toRecord;
    const state = judgeRow(facts, standing.get(accountField(facts)) ?? [], deps.showTime);
    if (state.kind === 'stands' && state.decision.decision === decision && (note === undefined || note === state.decision.note)) {
      result.unchanged += 1;
      continue;
    }
    const answer = known.get(accountKey(facts));
    if (answer === undefined) {
      result.refused.push({
        ...first!.where,
        reason: `no answer for this account is stored for the ${deps.environment} environment (H2H_ENV) any more: decide on a current report (if a spreadsheet dropped the account number's leading zeros or turned it into a number, review the XLSX report, or open the CSV with the column as text)`,
      });
    } else if (answer.holderName === undefined) {
      result.refused.push({
        ...first!.where,
        reason: `the bank answered this account invalid since (checked ${deps.showTime(answer.answeredAt)}): there is no holder to decide on; see the latest report`,
      });
    } else if (answer.holderName !== facts.holderName) {
      result.refused.push({
        ...first!.where,
        reason: `the bank's holder name for this account is now ${JSON.stringify(answer.holderName)} (checked ${deps.showTime(answer.answeredAt)}), not ${JSON.stringify(facts.holderName)} as in this file (renamed at the bank, or the account_holder cell was edited): decide on the latest report`,
      });
    } else {
      accepted.push(first!);
    }
  }
  return accepted;
}

function staleReason(standing: Decision | undefined, showTime: (at: number) => string): string {
  // The same words when decided_by or decided_at were typed in or reformatted: the row then shows a decision that is not the one standing.
  const cells = 'if nothing changed, leave decided_by and decided_at as the report wrote them';
  return standing === undefined
    ? `the decision this row shows no longer stands: decide on the latest report (${cells})`
    : `the decision changed after this report was written (now ${standing.decision} by ${standing.decidedBy}, ${showTime(standing.decidedAt)}): decide on the latest report (${cells})`;
}

/** What a review import did, for people: the counts, then a line per row recorded or refused. */
export function describeReviewImport(path: string, reviewer: string, result: ReviewImport, showTime: (at: number) => string): string {
  const lines = [
    `review of ${path} by ${reviewer}: ${result.recorded.length} recorded, ${result.unchanged} unchanged, ${result.refused.length} refused`,
  ];
  const where = (row: ReviewedRow) => `  row ${row.row}${row.reference === '' ? '' : ` (${row.reference})`}`;
  for (const row of result.recorded) {
    const replaced =
      row.replaced === undefined ? '' : ` (was ${row.replaced.decision} by ${row.replaced.decidedBy}, ${showTime(row.replaced.decidedAt)})`;
    lines.push(`${where(row)}: ${row.decision} recorded${replaced}`);
  }
  for (const row of result.refused) lines.push(`${where(row)}: refused: ${row.reason}`);
  return `${lines.join('\n')}\n`;
}
