import type { ColumnOverrides } from '../csv/columns.js';
import { LoginUnavailableError } from '../errors.js';
import { writeReport, type BatchSummary } from '../report/writer.js';
import type { InspectedFile, ProducedBatch } from '../queue/producer.js';
import type { Services } from './services.js';
import { settleBatch, type WaitOptions } from './wait-for-batch.js';

export interface CheckFileOptions {
  reportPath: string;
  columns: ColumnOverrides;
  wait: WaitOptions;
  /** Told once the batch exists, before the wait. */
  onBatch?: (batchId: string, resumed: boolean) => void;
}

export interface CheckedFile {
  batchId: string;
  resumed: boolean;
  summary: BatchSummary;
  /** Set when the provider stayed unavailable past the budget: the remaining rows are FAILED. */
  gaveUp: string | undefined;
}

const LOGIN_ATTEMPTS = 3;

/**
 * Logs in before anything is queued: a wrong password is one login call and an exit, not one FAILED
 * row per account. A login that fails for a passing reason is tried a few times with backoff.
 */
export async function ensureLogin(services: Services): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await services.session.token();
      return;
    } catch (error) {
      if (!(error instanceof LoginUnavailableError) || attempt >= LOGIN_ATTEMPTS) throw error;
      services.logger.warn(`${error.message}; trying again`);
      await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)));
    }
  }
}

/**
 * The first half of checking a file: inspected (usage errors surface here), logged in, queued as a
 * batch, or continuing the unfinished batch of the same content.
 */
export async function startBatch(
  services: Services,
  inputPath: string,
  columns: ColumnOverrides,
): Promise<ProducedBatch & { inspected: InspectedFile }> {
  const producer = services.producer(columns);
  const inspected = await producer.inspect(inputPath);
  await ensureLogin(services);
  return { ...(await producer.produce(inputPath, inspected)), inspected };
}

/** One file through the whole pipeline: checked, logged in, queued, answered, reported. */
export async function checkFile(services: Services, inputPath: string, options: CheckFileOptions): Promise<CheckedFile> {
  const { batchId, resumed } = await startBatch(services, inputPath, options.columns);
  options.onBatch?.(batchId, resumed);
  return { batchId, resumed, ...(await finishBatch(services, batchId, options.reportPath, options.wait)) };
}

/**
 * Waits for a batch and writes its report. A provider down past the outage budget ends the wait: the
 * unanswered rows become FAILED with the reason, so the report is still complete and says why.
 */
export async function finishBatch(
  services: Services,
  batchId: string,
  reportPath: string,
  wait: WaitOptions,
): Promise<{ summary: BatchSummary; gaveUp: string | undefined }> {
  const gaveUp = await settleBatch(services, batchId, wait);
  return { summary: await writeReport(services.store, batchId, reportPath), gaveUp };
}
