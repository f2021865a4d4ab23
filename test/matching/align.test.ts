import { describe, expect, it } from 'vitest';
import { alignWords, keepsWordOrder, rotationOf } from '../../src/matching/align.js';
import { BUILT_IN_KNOWLEDGE } from '../../src/matching/knowledge.js';
import { tokenize } from '../../src/matching/normalise.js';
import { readName, type NameWord } from '../../src/matching/parse-name.js';
import { isSlip, linkWords } from '../../src/matching/word-match.js';

const knowledge = BUILT_IN_KNOWLEDGE;
const names = (name: string): NameWord[] => readName(tokenize(name), knowledge, 0)[0]!.words.filter((word) => word.kind === 'name');
// A word read inside a name (alone, "A" or "T" would be read as a title).
const word = (letters: string) => names(`Budi ${letters}`)[1]!;
const links = (expected: string, holder: string, mayBeCut = false) => {
  const e = names(expected);
  const h = names(holder);
  return alignWords(e, h, mayBeCut, knowledge).map(
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
    ['UCUP', 'YUSUF', 'nickname'],
    ['ANTON', 'ANTONIUS', 'nickname'],
    ['SUKMA', 'SUKMAWATI', 'short-form'],
    ['NARDI', 'SUNARDI', 'short-form'],
    ['BUDI', 'AGUS', null],
    ['HARTONO', 'WIJAYA', null],
  ])('%s / %s: %s', (a, b, kind) => {
    expect(linkWords(word(a), word(b), knowledge)).toBe(kind);
  });

  it('reads a dotted stub as an initial, an undotted one as a word', () => {
    expect(linkWords(word('Kus.'), word('KUSUMA'), knowledge)).toBe('initial');
    expect(linkWords(word('KUS'), word('KUSUMA'), knowledge)).toBe('short-form');
  });

  it('reads an abbreviation that is also an initial as its word only when the other name writes the word', () => {
    expect(linkWords(word('Y.'), word('YOHANES'), knowledge)).toBe('abbreviation');
    expect(linkWords(word('Y.'), word('YUSUF'), knowledge)).toBe('initial');
  });
});

describe('one slip of the typist', () => {
  it.each([
    ['SUSANOT', 'SUSANTO', true], // two letters swapped, the name now ends in a consonant
    ['SIMAMROA', 'SIMAMORA', true], // a vowel moved away: letters no longer alternate
    ['WIBSONO', 'WIBISONO', true], // a vowel dropped between two consonants
    ['KARTASAMITA', 'KARTASASMITA', true], // a letter dropped in a word of ten letters or more
    ['INDARWATI', 'INDRAWATI', false], // swapped, but still a plausible name
    ['SETIWAN', 'SETIAWAN', false], // a vowel dropped beside a vowel: Marlina / Marliana are two names
    ['SUTANTO', 'SUSANTO', false], // a consonant for a consonant
    ['YULIANTO', 'YULIANTI', false], // the ending
    ['WAHYUDI', 'WAHYUNI', false], // a listed given name is not a slip
  ])('%s for %s: %s', (typed, bank, slip) => {
    expect(isSlip(word(typed), word(bank), knowledge)).toBe(slip);
  });
});

describe('alignment', () => {
  it('pairs words in any order, exact pairs first', () => {
    expect(links('Santoso Budi', 'BUDI SANTOSO')).toEqual(['BUDI=BUDI:exact', 'SANTOSO=SANTOSO:exact']);
    expect(links('Budi A Budiman', 'BUDIMAN BUDI')).toEqual(['BUDIMAN=BUDIMAN:exact', 'BUDI=BUDI:exact']);
  });

  it('joins split words both ways, and runs of up to five', () => {
    expect(links('Nur Aini', 'NURAINI')).toEqual(['NUR+AINI=NURAINI:joined']);
    expect(links('Nuraini', 'NUR AINI')).toEqual(['NURAINI=NUR+AINI:joined']);
    expect(links('Sri Rahayu Ningsih', 'SRI RAHAYUNINGSIH')).toEqual(['SRI=SRI:exact', 'RAHAYU+NINGSIH=RAHAYUNINGSIH:joined']);
    expect(links('Eka Budi Santosa', 'EKABUDISANTOSA')).toEqual(['EKA+BUDI+SANTOSA=EKABUDISANTOSA:joined']);
  });

  it("reads the holder's last word as cut, also when several words were run together before the cut", () => {
    expect(links('Muhammad Rizky Saputra', 'MUHAMMAD RIZKY SAPUT', true)).toContain('SAPUTRA=SAPUT:cut');
    expect(links('Muhammad Rizky Saputra', 'MUHAMMAD RIZKY SAPUT', false)).not.toContain('SAPUTRA=SAPUT:cut');
    expect(links('Fitriyani Nurul Hasanah Pohan', 'FITRIYANINURULHASA', true)).toEqual(['FITRIYANI+NURUL+HASANAH=FITRIYANINURULHASA:cut']);
  });

  it('tells written order, rotation and reshuffle apart', () => {
    const order = (expected: string, holder: string) => {
      const result = alignWords(names(expected), names(holder), false, knowledge);
      return [keepsWordOrder(result), rotationOf(result) !== null];
    };
    expect(order('Tan Siok Hwa', 'TAN SIOK HWA')).toEqual([true, false]);
    expect(order('Tan Siok Hwa', 'SIOK HWA TAN')).toEqual([false, true]);
    expect(order('Tan Siok Hwa', 'TAN HWA SIOK')).toEqual([false, false]);
  });
});
