import { describe, expect, it } from 'vitest';
import { boundedEditDistance } from '../../src/matching/edit-distance.js';

describe('bounded edit distance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one', () => {
    expect(boundedEditDistance('SETIAWAN', 'SETIWAN', 2)).toBe(1);
    expect(boundedEditDistance('SAPUTRA', 'SAPITRA', 2)).toBe(1);
    expect(boundedEditDistance('HARAHAP', 'HARAHPA', 2)).toBe(1);
    expect(boundedEditDistance('BUDI', 'BUDI', 2)).toBe(0);
    expect(boundedEditDistance('KADIR', 'KARIM', 2)).toBe(2);
  });

  it('stops at the limit', () => {
    expect(boundedEditDistance('SANTOSO', 'WIJAYA', 1)).toBe(2);
    expect(boundedEditDistance('A', 'ABCDEFG', 2)).toBe(3);
  });
});
