import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The access token at rest in Redis is sealed (AES-256-GCM), so that reading Redis (a dump, a replica, a
 * leaked backup, a `MONITOR`) does not give a bearer token that calls the provider. The key is derived (HKDF)
 * from the provider password every worker already has, so there is no new secret to distribute; whoever holds
 * that password can log in anyway. Changing the password changes the key: the stored token then reads as
 * absent and the next caller logs in again.
 */
export interface TokenSeal {
  /** `v1.<iv>.<ciphertext>.<tag>`, base64url. */
  seal(token: string): string;
  /** The token, or undefined when the value was sealed with another key or altered. */
  open(sealed: string): string | undefined;
  /** A keyed digest naming the token without revealing it (compare-and-delete after a 401). */
  id(token: string): string;
}

const VERSION = 'v1';
const SALT = 'beneficiary-check token at rest v1';

/** `identity` (environment, address, user) binds the key, and every sealed value, to one provider account. */
export function tokenSeal(password: string, identity: string): TokenSeal {
  const material = Buffer.from(hkdfSync('sha256', password, SALT, identity, 64));
  const encryptionKey = material.subarray(0, 32);
  const idKey = material.subarray(32);
  const aad = Buffer.from(identity);
  return {
    seal: (token) => sealText(VERSION, encryptionKey, aad, token),
    open: (sealed) => openText(VERSION, encryptionKey, aad, sealed),
    id(token) {
      return createHmac('sha256', idKey).update(token).digest('base64url');
    },
  };
}

/** `<version>.<iv>.<ciphertext>.<tag>`, base64url: `text` sealed with AES-256-GCM under `key`, bound to `aad`. */
export function sealText(version: string, key: Buffer, aad: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [version, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The text `sealText` sealed, or undefined when it was sealed with another key or `aad`, in another version, or altered. */
export function openText(version: string, key: Buffer, aad: Buffer, sealed: string): string | undefined {
  const [written, iv, ciphertext, tag] = sealed.split('.');
  if (written !== version || iv === undefined || ciphertext === undefined || tag === undefined) return undefined;
  try {
    // The full 16-byte tag only: a shortened tag would be easier to forge.
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 }).setAAD(aad);
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // The tag does not match: another key or aad, or an altered value.
    return undefined;
  }
}
