import { describe, expect, it } from 'vitest';
import { tokenSeal } from '../../src/provider/token-seal.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzYW5kYm94In0.c2lnbmF0dXJl';
const IDENTITY = 'production:0123456789abcdef|https://h2h.example|client-1';

/** Flips one bit of the n-th base64url part of a sealed value. */
function flip(sealed: string, part: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[0] = bytes[0]! ^ 1;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('the access token at rest', () => {
  it('opens what it sealed, and the sealed value does not contain the token', () => {
    const seal = tokenSeal('h2h-password', IDENTITY);
    const sealed = seal.seal(TOKEN);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(TOKEN);
    expect(sealed).not.toContain(TOKEN.split('.')[1]);
    expect(seal.open(sealed)).toBe(TOKEN);
    // A fresh IV each time: two seals of one token differ.
    expect(seal.seal(TOKEN)).not.toBe(sealed);
  });

  it('refuses an altered IV, ciphertext or tag, a shortened tag and anything not sealed', () => {
    const seal = tokenSeal('h2h-password', IDENTITY);
    const sealed = seal.seal(TOKEN);
    for (const part of [1, 2, 3]) expect(seal.open(flip(sealed, part))).toBeUndefined();
    const [version, iv, ciphertext, tag] = sealed.split('.');
    const shortTag = Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url');
    expect(seal.open([version, iv, ciphertext, shortTag].join('.'))).toBeUndefined();
    expect(seal.open(`v2.${iv}.${ciphertext}.${tag}`)).toBeUndefined();
    expect(seal.open(TOKEN)).toBeUndefined();
    expect(seal.open('')).toBeUndefined();
  });

  it('needs the same password and provider account: a changed password reads as no token', () => {
    const sealed = tokenSeal('h2h-password', IDENTITY).seal(TOKEN);
    expect(tokenSeal('rotated-password', IDENTITY).open(sealed)).toBeUndefined();
    expect(tokenSeal('h2h-password', 'sandbox:0123456789abcdef|http://127.0.0.1:8080|sandbox').open(sealed)).toBeUndefined();
  });

  it('names a token by a keyed id that is stable, and differs from the token and between keys', () => {
    const seal = tokenSeal('h2h-password', IDENTITY);
    expect(seal.id(TOKEN)).toBe(tokenSeal('h2h-password', IDENTITY).id(TOKEN));
    expect(seal.id(TOKEN)).not.toContain(TOKEN.split('.')[2]);
    expect(seal.id(`${TOKEN}x`)).not.toBe(seal.id(TOKEN));
    expect(tokenSeal('other', IDENTITY).id(TOKEN)).not.toBe(seal.id(TOKEN));
  });
});
