import { openAccount } from './job-seal.js';
import type { InquiryJobData } from './inquiry-queue.js';

/** Batch keys a process keeps for opening its jobs' accounts: a few batches are worked at a time. */
const SEAL_KEYS_KEPT = 256;

/** Opens the account numbers queued inquiry jobs carry sealed (see job-seal.ts), reading each batch's key once per process. */
export class JobAccounts {
  private readonly sealKeys = new Map<string, string>();

  constructor(
    /** The batch's key (BatchStore.jobSeal); undefined when the batch is gone. */
    private readonly sealKeyOf: (batchId: string) => Promise<string | undefined>,
    private readonly kept = SEAL_KEYS_KEPT,
  ) {}

  /**
   * The job's account keys (one, or its group's: see InquiryGroup); undefined when its batch, and with it
   * the key, is gone, or a value was altered (the job is then dropped, and the audit of lost jobs queues
   * its unanswered accounts again).
   */
  async open(data: InquiryJobData): Promise<string[] | undefined> {
    // A job queued before jobs were sealed carries its account in clear.
    const legacy = (data as { accountKey?: unknown }).accountKey;
    if (typeof legacy === 'string') return [legacy];
    let key = this.sealKeys.get(data.batchId);
    if (key === undefined) {
      key = await this.sealKeyOf(data.batchId);
      if (key === undefined) return undefined;
      if (this.sealKeys.size >= this.kept) this.sealKeys.delete(this.sealKeys.keys().next().value!);
      this.sealKeys.set(data.batchId, key);
    }
    const sealed = 'sealedAccounts' in data ? data.sealedAccounts : [data.sealedAccount];
    const accountKeys: string[] = [];
    for (const value of sealed) {
      const accountKey = openAccount(key, data.batchId, value);
      if (accountKey === undefined) return undefined;
      accountKeys.push(accountKey);
    }
    return accountKeys;
  }
}
