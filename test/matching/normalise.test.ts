import { describe, expect, it } from 'vitest';
import { displayOf, foldDiacritics, plainNormalised, tokenize, visibleLength } from '../../src/matching/normalise.js';

const letters = (name: string) => tokenize(name).map((token) => token.letters);

describe('normalisation', () => {
  it('removes diacritics and apostrophes, keeps case', () => {
    expect(foldDiacritics("André Zoë Ma’ruf Nu'man")).toBe('Andre Zoe Maruf Numan');
  });

  it('uppercases and splits on whitespace, commas, hyphens and other punctuation', () => {
    expect(letters('  siti   nur-halimah, ')).toEqual(['SITI', 'NUR', 'HALIMAH']);
    expect(letters('Hutapea,Maria')).toEqual(['HUTAPEA', 'MARIA']);
    expect(letters('Budi\tSantoso\n')).toEqual(['BUDI', 'SANTOSO']);
  });

  it('splits at dots but remembers them and the chunk they came from', () => {
    const tokens = tokenize('M.Rizky S.Pd.I');
    expect(tokens.map((token) => [token.letters, token.dotted, token.chunk])).toEqual([
      ['M', true, 0],
      ['RIZKY', false, 0],
      ['S', true, 1],
      ['PD', true, 1],
      ['I', false, 1],
    ]);
    expect(displayOf(tokens.slice(2))).toBe('S.Pd.I');
    expect(displayOf(tokenize('S. Kom.'))).toBe('S. Kom.');
  });

  it('remembers brackets and a comma after a word', () => {
    const tokens = tokenize('Situmorang, Jonathan (Jo)');
    expect(tokens.map((token) => [token.letters, token.commaAfter, token.bracket])).toEqual([
      ['SITUMORANG', true, 0],
      ['JONATHAN', false, 0],
      ['JO', false, 1],
    ]);
  });

  it('keeps "/", "&" and "@" as tokens of their own', () => {
    expect(letters('Heru/Suryani')).toEqual(['HERU', '/', 'SURYANI']);
    expect(letters('Pulp & Paper')).toEqual(['PULP', '&', 'PAPER']);
    expect(letters('Budi @ Ucok')).toEqual(['BUDI', '@', 'UCOK']);
  });

  it('gives nothing for blank or punctuation-only names', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' .,- ')).toEqual([]);
    expect(plainNormalised(' ... ')).toBe('');
  });

  it('plain normalised form and visible length', () => {
    expect(plainNormalised("  Ma'ruf  Amin, S.H. ")).toBe('MARUF AMIN S H');
    expect(visibleLength('  MUHAMMAD   RIZKY ')).toBe(14);
  });
});
