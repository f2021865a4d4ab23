import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The change classification and the workbook cell text are pure core: values in, values out. They may
// import types and other pure modules only, and touch no I/O, clock or randomness (formatting a given time is fine).
const modules = [
  { file: 'src/history/change.ts', imports: ['../matching/normalise.js', '../report/row-result.js', './account-history.js'] },
  { file: 'src/xlsx/display.ts', imports: [] },
].map((module) => ({ ...module, text: readFileSync(fileURLToPath(new URL(`../../${module.file}`, import.meta.url)), 'utf8') }));

describe('pure modules of history and workbooks', () => {
  it.each(modules)('$file imports only what it may (types from the history store)', ({ text, imports }) => {
    const specifiers = [...text.matchAll(/^import (type )?.*\bfrom\s+'([^']+)'/gm)].map((match) => ({
      typeOnly: match[1] !== undefined,
      from: match[2]!,
    }));
    expect(specifiers.map((specifier) => specifier.from).sort()).toEqual([...imports].sort());
    for (const specifier of specifiers) if (specifier.from === './account-history.js') expect(specifier.typeOnly).toBe(true);
    expect(text).not.toMatch(/\brequire\(|\bimport\(/);
  });

  it.each(modules)('$file does no I/O and reads no clock or randomness', ({ text }) => {
    expect(text).not.toMatch(/\b(console|process|Date\.now|Math\.random|performance|setTimeout|fetch)\b|new Date\(\)/);
  });
});
