import { randomBytes } from 'node:crypto';
import { openText, sealText } from '../provider/token-seal.js';

/**
 * The account number a queued inquiry job carries is sealed (AES-256-GCM) with its batch's own key, kept in
 * the batch record (BatchStore.jobSeal). BullMQ's job hashes have no expiry, and a job can outlive its
 * batch (expired after BATCH_RETENTION, lost by a Redis restart without persistence, deleted): once the
 * batch's key is gone with it, what the job holds is no account number any more. Nothing personal is thus
 * written to Redis without an expiry. The batch id is bound to each sealed value: a job's account cannot be
 * read under another batch.
 */
export const JOB_SEAL_BYTES = 32;

const VERSION = 's1';

export const newJobSealKey = (): string => randomBytes(JOB_SEAL_BYTES).toString('base64url');

/** `s1.<iv>.<ciphertext>.<tag>`, base64url (see sealText). */
export const sealAccount = (key: string, batchId: string, accountKey: string): string =>
  sealText(VERSION, Buffer.from(key, 'base64url'), Buffer.from(batchId), accountKey);

/** The account key, or undefined when the value was sealed with another key, for another batch, or altered. */
export const openAccount = (key: string, batchId: string, sealed: string): string | undefined =>
  openText(VERSION, Buffer.from(key, 'base64url'), Buffer.from(batchId), sealed);
