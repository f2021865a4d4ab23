import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The matcher runs inside every worker for every row: it must stay a pure module without I/O, clocks,
// randomness or third-party dependencies.
const folder = fileURLToPath(new URL('../../src/matching/', import.meta.url));
const sources = readdirSync(folder)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(folder + file, 'utf8') }));

describe('src/matching stays pure', () => {
  it('has modules to check', () => {
    expect(sources.length).toBeGreaterThan(5);
  });

  it.each(sources)('$file imports only sibling modules and its knowledge files', ({ text }) => {
    const specifiers = [...text.matchAll(/\bfrom\s+'([^']+)'/g)].map((match) => match[1]!);
    for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/([a-z-]+\.js|knowledge\/[a-z-]+\.json)$/);
    expect(text).not.toMatch(/\brequire\(|\bimport\(/);
  });

  it.each(sources)('$file does no I/O and reads no clock or randomness', ({ text }) => {
    expect(text).not.toMatch(/\b(console|process|Date|Math\.random|performance|setTimeout|fetch)\b/);
  });
});
