import { describe, expect, it } from 'vitest';
import { alignWords, isRotatedOrder, keepsWordOrder } from '../../src/matching/align.js';
import { parseAccountName, type ParsedName } from '../../src/matching/parse-name.js';
import { linkWords } from '../../src/matching/word-match.js';

const parse = (name: string): ParsedName => {
  const parsed = parseAccountName(name);
  if (parsed.kind !== 'single') throw new Error('unexpected QQ');
  return parsed.name;
};
const word = (letters: string) => parse(letters).words[0]!;
const links = (expected: string, holder: string, mayBeCut = false) => {
  const e = parse(expected).words;
  const h = parse(holder).words;
  return alignWords(e, h, mayBeCut).map(
    (link) => `${link.expected.map((i) => e[i]!.letters).join('+')}=${link.holder.map((i) => h[i]!.letters).join('+')}:${link.kind}`,
  );
};

describe('word links', () => {
  it.each([
    ['BUDI', 'BUDI', 'exact'],
    ['SOEKARNO', 'SUKARNO', 'variant'],
    ['MOCHAMAD', 'MUHAMMAD', 'variant'],
    ['M', 'MUHAMMAD', 'abbreviation'],
    ['MOH', 'MUHAMMAD', 'abbreviation'],
    ['A', 'ADI', 'initial'],
    ['SETIWAN', 'SETIAWAN', 'typo'],
    ['BUDI', 'BODI', 'near'],
    ['YOGA', 'YOGI', 'near'],
    ['PUTRA', 'PUTRI', 'near'],
    ['NUR', 'NURUL', 'joining'],
    ['SYAMSU', 'SYAMSUL', 'joining'],
    ['BUDI', 'AGUS', null],
    ['RAHMAN', 'RAHIM', null],
  ])('%s / %s: %s', (a, b, kind) => {
    expect(linkWords(word(a), word(b))).toBe(kind);
  });

  it('reads a dotted stub as an initial', () => {
    expect(linkWords(parse('Kus. Hadi').words[0]!, word('KUSUMA'))).toBe('initial');
    expect(linkWords(word('KUS'), word('KUSUMA'))).toBeNull();
  });
});

describe('alignment', () => {
  it('pairs words in any order, exact pairs first', () => {
    expect(links('Santoso Budi', 'BUDI SANTOSO')).toEqual(['BUDI=BUDI:exact', 'SANTOSO=SANTOSO:exact']);
    expect(links('Budi A Budiman', 'BUDIMAN BUDI')).toEqual(['BUDIMAN=BUDIMAN:exact', 'BUDI=BUDI:exact']);
  });

  it('joins split words both ways', () => {
    expect(links('Nur Aini', 'NURAINI')).toEqual(['NUR+AINI=NURAINI:joined']);
    expect(links('Nuraini', 'NUR AINI')).toEqual(['NURAINI=NUR+AINI:joined']);
    expect(links('Sri Rahayu Ningsih', 'SRI RAHAYUNINGSIH')).toEqual(['SRI=SRI:exact', 'RAHAYU+NINGSIH=RAHAYUNINGSIH:joined']);
  });

  it('reads the last holder word as cut only when the bank may have cut', () => {
    expect(links('Muhammad Rizky Saputra', 'MUHAMMAD RIZKY SAPUT', true)).toContain('SAPUTRA=SAPUT:cut');
    expect(links('Muhammad Rizky Saputra', 'MUHAMMAD RIZKY SAPUT', false)).not.toContain('SAPUTRA=SAPUT:cut');
  });

  it('tells written order, rotation and reshuffle apart', () => {
    const order = (expected: string, holder: string) => {
      const result = alignWords(parse(expected).words, parse(holder).words, false);
      return [keepsWordOrder(result), isRotatedOrder(result)];
    };
    expect(order('Tan Siok Hwa', 'TAN SIOK HWA')).toEqual([true, true]);
    expect(order('Tan Siok Hwa', 'SIOK HWA TAN')).toEqual([false, true]);
    expect(order('Tan Siok Hwa', 'TAN HWA SIOK')).toEqual([false, false]);
  });
});
