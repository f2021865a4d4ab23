import { describe, expect, it } from 'vitest';
import { compareNames, type NameVerdict } from '../../src/matching/compare-names.js';

// The readings issue 13 added or changed, under the default (standard) policy; policy.test.ts covers strict.
const verdict = (expected: string, holder: string): NameVerdict => compareNames(expected, holder).verdict;
const notes = (expected: string, holder: string): string => compareNames(expected, holder).notes.join(' | ');

describe('bank truncation: the shown words decide', () => {
  it('is MATCH when the cut falls at a plausible width and two shown words identify the person, hidden words or not', () => {
    expect(compareNames('Siti Nurhaliza Kartikasari Putri Handayani', 'SITI NURHALIZA KARTIKASARI PUT')).toMatchObject({
      verdict: 'MATCH',
      notes: ["holder name looks truncated by the bank (30 characters): 'PUT' read as 'PUTRI', 'HANDAYANI' not shown"],
    });
    expect(compareNames('Yohanes Krisostomus Pattiasina', 'YOHANES KRISOSTOMUS')).toMatchObject({
      verdict: 'MATCH',
      notes: ["holder name looks truncated by the bank (19 characters): 'PATTIASINA' not shown"],
    });
    expect(verdict('Fransiskus Xaverius Nggolo Lodo', 'FRANSISKUS XAVERIUS NGGOL')).toBe('MATCH');
    expect(verdict('Christina Margaretha Simanjuntak', 'KRISTINA MARGARETA SIMAN')).toBe('MATCH'); // spelling variants agree too
  });

  it('is CLOSE_MATCH when a shown word does not agree in full', () => {
    expect(verdict('Christina Margaretha Simanjuntak', 'CHRISTINA MARGARTHA SIMAN')).toBe('CLOSE_MATCH');
  });

  it('is CLOSE_MATCH when what shows in full could be many people', () => {
    expect(verdict('Muhammad Rizky Saputra Pratama Putra', 'MUHAMMAD RIZKY SAPUT')).toBe('CLOSE_MATCH');
    expect(verdict('Ni Luh Putu Ayu Sri Wahyuni', 'NI LUH PUTU AYU SRI WAHYU')).toBe('CLOSE_MATCH');
    expect(notes('Siti Nurhaliza Rahmawati', 'SITI NURHALIZA RAHMA')).toBe("holder name looks truncated by the bank (20 characters): 'RAHMA' may not be 'RAHMAWATI'");
  });

  it('does not read a cut at an implausible width as the bank\'s', () => {
    // 44 characters shown: no field is that wide and still cut.
    expect(verdict('Raden Mas Bagus Hendro Kusumo Wibowo Prawiranegara', 'RADEN MAS BAGUS HENDRO KUSUMO WIBOWO PRAWIRA')).toBe('CLOSE_MATCH');
    // 18 characters: narrower than any bank field.
    expect(verdict('Bonifasius Kristianto Wibisono', 'BONIFASIUS KRISTIA')).toBe('CLOSE_MATCH');
  });

  it('reads the bank\'s last word as the cut of the earliest expected word it starts', () => {
    expect(verdict('Ika Cindy Khadijah Siti Zahara', 'IKA CINDY KHADIJAH S')).toBe('MATCH');
  });
});

describe('a middle name on one side only', () => {
  it('is MATCH between two names that are not everyday ones', () => {
    expect(compareNames('Agung Wibisono', 'AGUNG TRI WIBISONO')).toMatchObject({ verdict: 'MATCH', notes: ["middle name 'TRI' only in holder name"] });
    expect(compareNames('Herlambang Dwi Wicaksana', 'HERLAMBANG WICAKSANA')).toMatchObject({ verdict: 'MATCH', notes: ["middle name 'DWI' only in expected name"] });
  });

  it('is CLOSE_MATCH next to an everyday name, and for a first or last word', () => {
    expect(verdict('Dewi Anggraini', 'DEWI SRI ANGGRAINI')).toBe('CLOSE_MATCH');
    expect(verdict('Siti Lestari', 'SITI NUR LESTARI')).toBe('CLOSE_MATCH');
    expect(verdict('Agung Wibisono', 'AGUNG WIBISONO PRATOMO')).toBe('CLOSE_MATCH');
    expect(verdict('Agung Wibisono', 'BAGAS AGUNG WIBISONO')).toBe('CLOSE_MATCH');
  });

  it('is CLOSE_MATCH when the word is the father\'s name', () => {
    expect(verdict('Siti Aisyah binti Hasan', 'SITI AISYAH')).toBe('CLOSE_MATCH');
  });
});

describe('a holder name that is one word of the expected name', () => {
  it.each([
    ['Dewi Anggraini', 'DEWI'],
    ['Muhammad Iqbal', 'MUHAMMAD'],
    ['Siti binti Hasan', 'SITI'],
    ['Bonaventura Sipayung', 'SIPAYUNG'],
    ['Agus Prasetyo Wibowo', 'PRASETYO'],
  ])('%s / %s is CLOSE_MATCH', (expected, holder) => {
    expect(verdict(expected, holder)).toBe('CLOSE_MATCH');
  });

  it('says so', () => {
    expect(notes('Siti binti Hasan', 'SITI')).toBe("holder name is only 'SITI', one word of the expected name");
  });

  it("is NO_MATCH when that word is the father's name", () => {
    expect(verdict('Ahmad bin Abdullah', 'ABDULLAH')).toBe('NO_MATCH');
  });
});

describe('Arabic names with and without the article', () => {
  it.each([
    ['Nur Hidayat', 'NURUL HIDAYAT'],
    ['Nurul Aini', 'NUR AINI'],
    ['Syamsul Bahri', 'SYAMSU BAHRI'],
    ['Nurun Nisa Harahap', 'NUR NISA HARAHAP'],
    ['Miftah Umam', 'MIFTAHUL UMAM'],
  ])('%s / %s is CLOSE_MATCH', (expected, holder) => {
    expect(verdict(expected, holder)).toBe('CLOSE_MATCH');
  });

  it('says why', () => {
    expect(notes('Nur Hidayat', 'NURUL HIDAYAT')).toBe("'NURUL' vs 'NUR': one Arabic name with and without the article, or two names");
  });

  it('keeps assimilated Abdul as the same word', () => {
    expect(verdict('Abdurrahman Yusuf', 'ABDUL RAHMAN YUSUF')).toBe('MATCH');
  });
});

describe('one letter off', () => {
  it('in a short word is CLOSE_MATCH: a typo, or a brother\'s or sister\'s name', () => {
    expect(compareNames('Yogi Putra', 'YOGI PUTRI')).toMatchObject({
      verdict: 'CLOSE_MATCH',
      notes: ["one letter differs in a short word: 'PUTRI' vs 'PUTRA', which may be another name"],
    });
    expect(verdict('Dina Marlina', 'DINI MARLINA')).toBe('CLOSE_MATCH');
    expect(verdict('Eko Subagyo', 'EKA SUBAGYO')).toBe('CLOSE_MATCH');
    expect(verdict('Arif Simbolon', 'ARI SIMBOLON')).toBe('CLOSE_MATCH');
  });

  it('in two words is another person with a similar name', () => {
    expect(compareNames('Wahyudi Putra', 'WAHYUNI PUTRI')).toMatchObject({
      verdict: 'NO_MATCH',
      notes: ["2 words differ by a letter ('WAHYUNI'/'WAHYUDI', 'PUTRI'/'PUTRA'): a similar name of another person"],
    });
  });

  it('in a word of ten letters or more, away from its ending, is MATCH', () => {
    expect(compareNames('Maria Simanjutak', 'MARIA SIMANJUNTAK')).toMatchObject({
      verdict: 'MATCH',
      notes: ["one-letter slip in a long word: 'SIMANJUNTAK' read as 'SIMANJUTAK'"],
    });
    expect(verdict('Ratna Kusumawadrani', 'RATNA KUSUMAWARDANI')).toBe('MATCH');
  });

  it('stays CLOSE_MATCH in shorter words, at an ending, for one vowel for another, or with nothing else in full', () => {
    expect(verdict('Kurniwan Setiadi', 'KURNIAWAN SETIADI')).toBe('CLOSE_MATCH'); // 9 letters: Marlina / Marliana are two names
    expect(verdict('Prasetyo Wibowo', 'PRASETYO WIBOWA')).toBe('CLOSE_MATCH');
    expect(verdict('Ratna Kusumawardhana', 'RATNA KUSUMAWARDHANI')).toBe('CLOSE_MATCH');
    expect(verdict('Dewi Susilawati', 'DEWI SUSILOWATI')).toBe('CLOSE_MATCH');
    expect(verdict('Simanjutak', 'SIMANJUNTAK')).toBe('CLOSE_MATCH');
  });
});

describe('smaller readings', () => {
  it('takes a degree written with dots on one side as a degree without them on the other', () => {
    expect(verdict('Prof. Dr. Hamdani Lubis, M.A.', 'HAMDANI LUBIS MA')).toBe('MATCH');
    expect(verdict('Hamdani Lubis', 'HAMDANI LUBIS MA')).toBe('CLOSE_MATCH');
    expect(verdict('drg. Ayu Pramudita, Sp.Ort', 'AYU PRAMUDITA')).toBe('MATCH');
  });

  it('reads the Sundanese final P as F', () => {
    expect(verdict('Yusup Hidayat', 'YUSUF HIDAYAT')).toBe('MATCH');
    expect(verdict('Arip Rahman', 'ARIF RAHMAN')).toBe('MATCH');
  });

  it('reads Ida as a title only before Bagus or Ayu', () => {
    expect(verdict('Ida Cahyani', 'SUCI CAHYANI')).toBe('NO_MATCH');
    expect(verdict('Ida Ayu Made Sekarini', 'MADE SEKARINI')).toBe('MATCH');
  });
});
