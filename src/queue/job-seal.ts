import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The account number a queued inquiry job carries is sealed (AES-256-GCM) with its batch's own key, kept in
 * the batch record (BatchStore.jobSeal). BullMQ's job hashes have no expiry, and a job can outlive its
 * batch (expired after BATCH_RETENTION_DAYS, lost by a Redis restart without persistence, deleted): once the
 * batch's key is gone with it, what the job holds is no account number any more. Nothing personal is thus
 * written to Redis without an expiry. The batch id is bound to each sealed value: a job's account cannot be
 * read under another batch.
 */
export const JOB_SEAL_BYTES = 32;

const VERSION = 's1';

export const newJobSealKey = (): string => randomBytes(JOB_SEAL_BYTES).toString('base64url');

/** `s1.<iv>.<ciphertext>.<tag>`, base64url. */
export function sealAccount(key: string, batchId: string, accountKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), iv).setAAD(Buffer.from(batchId));
  const ciphertext = Buffer.concat([cipher.update(accountKey, 'utf8'), cipher.final()]);
  return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The account key, or undefined when the value was sealed with another key, for another batch, or altered. */
export function openAccount(key: string, batchId: string, sealed: string): string | undefined {
  const [version, iv, ciphertext, tag] = sealed.split('.');
  if (version !== VERSION || iv === undefined || ciphertext === undefined || tag === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), Buffer.from(iv, 'base64url'), { authTagLength: 16 }).setAAD(Buffer.from(batchId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
