import { describe, expect, it } from 'vitest';
import { displayOf, foldDiacritics, plainNormalised, splitIntoPieces, visibleLength } from '../../src/matching/normalise.js';

const letters = (name: string) => splitIntoPieces(name).map((piece) => piece.letters);

describe('normalisation', () => {
  it('removes diacritics and apostrophes, keeps case', () => {
    expect(foldDiacritics('André Zoë Ma’ruf Nu\'man')).toBe('Andre Zoe Maruf Numan');
  });

  it('uppercases and splits on whitespace, commas, hyphens and other punctuation', () => {
    expect(letters('  siti   nur-halimah, ')).toEqual(['SITI', 'NUR', 'HALIMAH']);
    expect(letters('Hutapea,Maria')).toEqual(['HUTAPEA', 'MARIA']);
    expect(letters('Budi\tSantoso\n')).toEqual(['BUDI', 'SANTOSO']);
    expect(letters('PT (Persero) Tbk')).toEqual(['PT', 'PERSERO', 'TBK']);
  });

  it('splits at dots but remembers them and the chunk they came from', () => {
    const pieces = splitIntoPieces('M.Rizky S.Pd.I');
    expect(pieces.map((p) => [p.letters, p.dotted, p.chunk])).toEqual([
      ['M', true, 0],
      ['RIZKY', false, 0],
      ['S', true, 1],
      ['PD', true, 1],
      ['I', false, 1],
    ]);
    expect(displayOf(pieces.slice(2))).toBe('S.Pd.I');
    expect(displayOf(splitIntoPieces('S. Kom.'))).toBe('S. Kom.');
  });

  it('reads "&" as the word DAN', () => {
    expect(letters('Pulp & Paper')).toEqual(['PULP', 'DAN', 'PAPER']);
  });

  it('gives nothing for blank or punctuation-only names', () => {
    expect(splitIntoPieces('')).toEqual([]);
    expect(splitIntoPieces(' .,- ')).toEqual([]);
    expect(plainNormalised(' ... ')).toBe('');
  });

  it('plain normalised form and visible length', () => {
    expect(plainNormalised("  Ma'ruf  Amin, S.H. ")).toBe('MARUF AMIN S H');
    expect(visibleLength('  MUHAMMAD   RIZKY ')).toBe(14);
  });
});
