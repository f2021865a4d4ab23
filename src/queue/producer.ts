import { resolve } from 'node:path';
import type { Queue } from 'bullmq';
import { mapColumns, type ColumnMapping, type ColumnOverrides } from '../csv/columns.js';
import { inspectCsvFile, readCsvRecords, type CsvFileInfo } from '../csv/reader.js';
import { accountKey, validateRow } from '../csv/validation.js';
import type { BatchStore, StoredRow } from './batch-store.js';
import { newBatchId } from './batch-store.js';
import { addInquiryJobs, type InquiryJobData } from './inquiry-queue.js';

/** Rows are stored and queued in slices: bounded memory, one Redis round trip per slice. */
const SLICE_ROWS = 500;
const RESUME_WINDOW_MS = 12 * 3600_000;

export interface ProducerOptions {
  columns: ColumnOverrides;
  attempts: number;
}

export interface InspectedFile {
  file: CsvFileInfo;
  mapping: ColumnMapping;
}

export interface ProducedBatch {
  batchId: string;
  /** true when the same content was an unfinished batch, which is continued instead of started again. */
  resumed: boolean;
}

/**
 * The producer: checks the file parses, finds its columns, then streams the rows into Redis in file
 * order and queues one job per distinct account. A file whose content is an unfinished batch (a run
 * that crashed or gave up) continues that batch: only accounts without an answer, or whose answer was
 * FAILED, are asked again.
 */
export class Producer {
  constructor(
    private readonly store: BatchStore,
    private readonly queue: Queue<InquiryJobData>,
    private readonly options: ProducerOptions,
  ) {}

  /** Validates the file completely (usage errors surface here, before anything is queued). */
  async inspect(path: string): Promise<InspectedFile> {
    const file = await inspectCsvFile(resolve(path));
    return { file, mapping: mapColumns(file.header, this.options.columns) };
  }

  async produce(path: string, inspected?: InspectedFile): Promise<ProducedBatch> {
    const { file, mapping } = inspected ?? (await this.inspect(path));
    const existing = await this.store.findByContentHash(file.contentHash);
    if (existing !== undefined && (await this.isResumable(existing))) {
      await this.resume(existing);
      return { batchId: existing, resumed: true };
    }
    const batchId = newBatchId();
    await this.store.create({
      batchId,
      sourceFile: file.path,
      contentHash: file.contentHash,
      queueName: this.queue.name,
      delimiter: file.delimiter,
      header: file.header,
      mapping,
      rowCount: file.rowCount,
      createdAt: Date.now(),
    });
    await this.storeRows(batchId);
    return { batchId, resumed: false };
  }

  /**
   * An unfinished batch is continued; so is a finished one with FAILED rows from the last few hours
   * (the provider was down: run it again and only those are asked). Anything older is checked anew,
   * because yesterday's answers are no validation for today.
   */
  private async isResumable(batchId: string): Promise<boolean> {
    const [progress, batch] = await Promise.all([this.store.progress(batchId), this.store.get(batchId)]);
    if (!progress.complete) return true;
    return Date.now() - batch.createdAt < RESUME_WINDOW_MS && (await this.store.hasFailedOutcomes(batchId));
  }

  /**
   * Continues a batch: re-asks FAILED accounts and anything unanswered. A batch whose rows were not
   * all stored (the producer died) is produced again from its source file; outcomes already stored are kept.
   */
  async resume(batchId: string): Promise<void> {
    const batch = await this.store.get(batchId);
    await this.store.forgetFailedOutcomes(batchId);
    if (batch.producedAt === undefined) {
      await this.store.resetRows(batchId);
      await this.storeRows(batchId);
      return;
    }
    await this.requeueUnanswered(batchId);
  }

  /** Queues a job for every account without an outcome; jobs still queued are left as they are. */
  async requeueUnanswered(batchId: string): Promise<number> {
    let queued = 0;
    for await (const missing of this.store.unansweredAccounts(batchId)) {
      await addInquiryJobs(this.queue, batchId, missing, this.options.attempts);
      queued += missing.length;
    }
    return queued;
  }

  private async storeRows(batchId: string): Promise<void> {
    const batch = await this.store.get(batchId);
    let slice: StoredRow[] = [];
    let rowCount = 0;
    let accountCount = 0;
    let invalidCount = 0;
    const flush = async () => {
      const firstSeen = await this.store.appendRows(batchId, slice);
      accountCount += firstSeen.length;
      const outcomes = await this.store.getOutcomes(batchId, firstSeen);
      await addInquiryJobs(
        this.queue,
        batchId,
        firstSeen.filter((key) => !outcomes.has(key)),
        this.options.attempts,
      );
      slice = [];
    };
    for await (const record of readCsvRecords(batch.sourceFile, batch.delimiter, () => undefined)) {
      const fields = record.fields.slice(0, batch.header.length);
      const extra = record.fields.slice(batch.header.length).filter((value) => value.trim() !== '');
      const validation = validateRow(fields, batch.mapping);
      const invalidReason =
        extra.length > 0
          ? `line ${record.line} has ${extra.length} value(s) beyond the header's ${batch.header.length} columns: ${extra.map((v) => JSON.stringify(v)).join(', ')}`
          : validation.valid
            ? null
            : validation.reason;
      rowCount += 1;
      if (invalidReason !== null) invalidCount += 1;
      slice.push({ fields, accountKey: invalidReason === null && validation.valid ? accountKey(validation.account) : null, invalidReason });
      if (slice.length >= SLICE_ROWS) await flush();
    }
    await flush();
    // The rows stored are the truth: a file changed between the two passes must not shift the report.
    await this.store.markProduced(batchId, { rowCount, accountCount, invalidCount });
  }
}
