import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import { cutLastValue } from '../csv/reader.js';
import { readInputColumns, refuseSecondHeaderRow, type ColumnOverrides, type InputColumns } from '../csv/columns.js';
import { accountKey, validateRow, type BankCodeMap } from '../csv/validation.js';
import { BatchNotFoundError, InputFileError, MissingColumnsError } from '../errors.js';
import {
  addInquiryJobs,
  inquiryGroups,
  keepingAccounts,
  UNPACED_JOBS_PER_ADD,
  type InquiryGroup,
  type InquiryJobData,
} from '../queue/inquiry-queue.js';
import { ROWS_PER_BLOCK, type BatchStore, type StoredRow } from './batch-store.js';
import { DEFAULT_BACKLOG, type Backlog } from './backlog.js';
import { refuseMergedCellsRead } from '../xlsx/merged-cells.js';
import { listedSheets, shownSheetName } from '../xlsx/sheet-names.js';
import { inspectInputFile, readInputRecords, type InputFileInfo } from './input-file.js';

/** Takes the accounts about to be asked and returns those still to ask (answer reuse stores the others' answers). */
export type ReuseAnswers = (batchId: string, accountKeys: string[]) => Promise<string[]>;

const askEveryAccount: ReuseAnswers = async (_batchId, accountKeys) => accountKeys;

/** Rows are stored and queued in slices of one stored block: bounded memory, one Redis round trip per slice. */
export const SLICE_ROWS = ROWS_PER_BLOCK;

/** A file after its first pass, with the columns a batch reads and repeats (see readInputColumns). */
export interface InspectedFile extends InputColumns {
  file: InputFileInfo;
}

/**
 * First pass: the file parses to the end, its columns are found (usage errors surface here, before anything
 * is queued), and a file that may have been cut inside a value the check reads is refused (see cutLastValue).
 */
export async function inspectFile(path: string, columns: ColumnOverrides): Promise<InspectedFile> {
  const file = await inspectInputFile(resolve(path));
  const inputColumns = readColumnsOf(file, columns);
  const { mapping, positions } = inputColumns;
  const read = [mapping.bankCode, mapping.accountNumber, ...(mapping.expectedName === undefined ? [] : [mapping.expectedName])].map(
    (index) => positions[index]!,
  );
  refuseSecondHeaderRow(file.firstRow, read);
  if (file.workbook !== undefined) refuseMergedCellsRead(file.path, file.workbook, read, file.header);
  const cut = cutLastValue(file, read);
  if (cut !== undefined) throw cut;
  return { file, ...inputColumns };
}

/**
 * The columns of the file; a workbook whose sheet read lacks them says which sheets were not read: the list
 * is often on another tab (a cover or an instructions sheet first), and "required column(s) missing" alone
 * sends a person looking at the right sheet for what is wrong with it.
 */
function readColumnsOf(file: InputFileInfo, columns: ColumnOverrides): InputColumns {
  try {
    return readInputColumns(file.header, columns);
  } catch (error) {
    const others = file.workbook?.otherSheets ?? [];
    if (error instanceof MissingColumnsError && others.length > 0)
      error.addContext(
        `Only the first sheet shown, ${shownSheetName(file.workbook!.sheet)}, is read; the workbook's other sheets are not: ${listedSheets(others)}. If the list is on one of them, move it to the first tab or save that sheet alone.`,
      );
    throw error;
  }
}

/**
 * The producer: streams the rows of a file into its batch in file order and queues a job per distinct
 * account that has no answer yet, or per group of them (see accountsPerJob). Only the holder of the content lease calls `produce`; the generation
 * fence in the store makes a producer that lost its lease unable to write anything more.
 */
export class Producer {
  constructor(
    private readonly store: BatchStore,
    private readonly queue: Queue<InquiryJobData>,
    private readonly attempts: number,
    /** `--reuse-answers`: the one place where an account may get an earlier batch's answer instead of a call. */
    private readonly reuse: ReuseAnswers = askEveryAccount,
    /** BANK_CODE_MAP: bank names an export carries, sent as the provider's codes. */
    private readonly bankCodes: BankCodeMap = new Map(),
    /** Jobs per addBulk (jobsPerAdd of the configured rate). */
    private readonly perAdd = UNPACED_JOBS_PER_ADD,
    private readonly backlog: Backlog = DEFAULT_BACKLOG,
  ) {}

  /**
   * (Re)produces the batch from `inspected` (the caller's copy of the content; any path with the same
   * content will do). Rows of an earlier, unfinished production are dropped; outcomes already stored are
   * kept, so only accounts without an answer are queued. `signal` aborts between slices (a lost lease).
   */
  async produce(batchId: string, inspected: InspectedFile, signal?: AbortSignal, backlog = this.backlog): Promise<void> {
    const { file, mapping, positions } = inspected;
    const generation = await this.store.startGeneration(batchId);
    const { round, accountsPerJob: perJob } = await this.store.get(batchId);
    const hash = createHash('sha256');
    let slice: StoredRow[] = [];
    let invalidCount = 0;
    const sealKey = await this.sealKey(batchId);
    // Accounts first seen whose group is not whole yet: a group is queued once, with all its accounts
    // (a second add of its job is a no-op), so its last accounts wait for the next slice or the file's end.
    let waiting: string[] = [];
    let waitingFrom = 0;
    const flush = async (last: boolean) => {
      await this.waitForRoom(backlog, signal, perJob);
      const firstSeen = await this.store.appendRows(batchId, generation, slice);
      if (waiting.length === 0) waitingFrom = firstSeen.firstOrdinal;
      waiting.push(...firstSeen.accountKeys);
      const whole = last ? waiting.length : Math.max(0, Math.floor((waitingFrom + waiting.length) / perJob) * perJob - waitingFrom);
      const ready = waiting.slice(0, whole);
      const outcomes = await this.store.getOutcomes(batchId, ready);
      const unanswered = keepingAccounts(inquiryGroups(ready, waitingFrom, perJob), (key) => !outcomes.has(key));
      await this.queueInquiries(batchId, round, unanswered, sealKey);
      waiting = waiting.slice(whole);
      waitingFrom += whole;
      slice = [];
    };
    for await (const record of readInputRecords(file, (chunk) => hash.update(chunk))) {
      // The columns of an earlier report the file carried are left out (see readInputColumns).
      const fields = positions.map((position) => record.fields[position] ?? '');
      const extra = record.fields.slice(file.header.length).filter((value) => value.trim() !== '');
      const validation = validateRow(fields, mapping, this.bankCodes);
      const invalidReason =
        extra.length > 0
          ? `line ${record.line} has ${extra.length} value(s) beyond the header's ${file.header.length} columns: ${extra.map((v) => JSON.stringify(v)).join(', ')}`
          : validation.valid
            ? null
            : validation.reason;
      if (invalidReason !== null) invalidCount += 1;
      slice.push({ fields, accountKey: invalidReason === null && validation.valid ? accountKey(validation.account) : null, invalidReason });
      if (slice.length >= SLICE_ROWS) await flush(false);
    }
    await flush(true);
    // The batch stands for one content: a file changed between the two passes must not become its rows.
    if (hash.digest('hex') !== file.contentHash) {
      throw new InputFileError(`${file.path} changed while it was being read; write the file completely, then run it again`);
    }
    await this.store.markProduced(batchId, generation, invalidCount);
  }

  /**
   * Queues a job for every account without an outcome; jobs still queued are left as they are. Returns how
   * many. `signal` stops it while it waits for room in the queue (a stop, the wait's rules while queueing).
   */
  async requeueUnanswered(batchId: string, backlog = this.backlog, signal?: AbortSignal): Promise<number> {
    const { round, accountsPerJob: perJob } = await this.store.get(batchId);
    const sealKey = await this.sealKey(batchId);
    let queued = 0;
    for await (const missing of this.store.unansweredInquiries(batchId)) {
      await this.waitForRoom(backlog, signal, perJob);
      queued += await this.queueInquiries(batchId, round, missing, sealKey);
    }
    return queued;
  }

  /** Queues the jobs of these inquiries for the accounts answer reuse leaves to ask; returns how many accounts that is. */
  private async queueInquiries(batchId: string, round: number, inquiries: InquiryGroup[], sealKey: string): Promise<number> {
    const toAsk = new Set(
      await this.reuse(
        batchId,
        inquiries.flatMap((inquiry) => inquiry.accountKeys),
      ),
    );
    await addInquiryJobs(
      this.queue,
      batchId,
      round,
      keepingAccounts(inquiries, (key) => toAsk.has(key)),
      this.attempts,
      sealKey,
      this.perAdd,
    );
    return toAsk.size;
  }

  /** The batch's key for its jobs' account numbers (see job-seal.ts). */
  private async sealKey(batchId: string): Promise<string> {
    const key = await this.store.jobSeal(batchId);
    if (key === undefined) throw new BatchNotFoundError(batchId);
    return key;
  }

  /**
   * Backpressure (see Backlog), in calls: the queue's jobs ask `perJob` accounts each (the batch's
   * accountsPerJob). `signal` ends the wait (a lost lease, a stop) with its reason.
   */
  private async waitForRoom(backlog: Backlog, signal: AbortSignal | undefined, perJob: number): Promise<void> {
    signal?.throwIfAborted();
    const jobs = Math.ceil(backlog.limit / perJob);
    for (;;) {
      const counts = await this.queue.getJobCounts('waiting', 'delayed', 'prioritized');
      if ((counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0) <= jobs) return;
      await delay(backlog.pollMs, undefined, signal === undefined ? {} : { signal }).catch((error: unknown) => {
        signal?.throwIfAborted();
        throw error;
      });
    }
  }
}
