import { describe, expect, it } from 'vitest';
import { classifyWords } from '../../src/matching/prefixes.js';

const classify = (name: string) =>
  classifyWords(name.split(' ').map((letters) => ({ letters, dotted: false }))).map(
    (word) => `${word.letters}${word.prefix ? `:${word.prefix}` : ''}${word.role === 'father' ? '@father' : ''}`,
  );

describe('prefix words and bin/binti', () => {
  it('marks Balinese particles, birth-order and caste words at the start', () => {
    expect(classify('I MADE SUDARSANA')).toEqual(['I:particle', 'MADE:birth-order', 'SUDARSANA']);
    expect(classify('NI LUH PUTU AYU LESTARI')).toEqual(['NI:particle', 'LUH:birth-order', 'PUTU:birth-order', 'AYU:noble', 'LESTARI']);
    expect(classify('I GUSTI NGURAH RAI PUTRA')).toEqual(['I:particle', 'GUSTI:noble', 'NGURAH:noble', 'RAI', 'PUTRA']);
  });

  it('expands the abbreviations banks use', () => {
    expect(classify('I MD SUDARSANA')).toEqual(['I:particle', 'MADE:birth-order', 'SUDARSANA']);
    expect(classify('IB MADE OKA')).toEqual(['IDA:noble', 'BAGUS:noble', 'MADE:birth-order', 'OKA']);
    expect(classify('AA GEDE OKA')).toEqual(['ANAK:noble', 'AGUNG:noble', 'GEDE:birth-order', 'OKA']);
    expect(classify('R SOETOMO')).toEqual(['RADEN:noble', 'SOETOMO']);
    expect(classify('RR AYU WULANDARI')).toEqual(['RADEN:noble', 'RORO:noble', 'AYU:noble', 'WULANDARI']);
  });

  it('does not take given names for titles outside the opening run', () => {
    expect(classify('AYU LESTARI')).toEqual(['AYU', 'LESTARI']);
    expect(classify('AGUNG NUGROHO')).toEqual(['AGUNG', 'NUGROHO']);
    expect(classify('BUDI MADE')).toEqual(['BUDI', 'MADE']);
  });

  it('never makes the last word a prefix: "Putu Ayu" is compared on "Ayu"', () => {
    expect(classify('MADE')).toEqual(['MADE']);
    expect(classify('PUTU AYU')).toEqual(['PUTU:birth-order', 'AYU']);
  });

  it('marks Arabic articles and the Batak boru as particles', () => {
    expect(classify('AHMAD AL MUBAROK')).toEqual(['AHMAD', 'AL:particle', 'MUBAROK']);
    expect(classify('KRISTINA BR GINTING')).toEqual(['KRISTINA', 'BR:particle', 'GINTING']);
  });

  it('drops bin/binti and marks the father name', () => {
    expect(classify('AHMAD BIN ABDULLAH')).toEqual(['AHMAD', 'ABDULLAH@father']);
    expect(classify('SITI AISYAH BINTI HASAN')).toEqual(['SITI', 'AISYAH', 'HASAN@father']);
    expect(classify('ROHANI BT SAID')).toEqual(['ROHANI', 'SAID@father']);
    expect(classify('BIN LADEN')).toEqual(['BIN', 'LADEN']);
  });
});
