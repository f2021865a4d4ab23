import { describe, expect, it } from 'vitest';
import { compareNames, type NameVerdict } from '../../src/matching/compare-names.js';
import { evaluationPairs } from './evaluation-set.js';

const verdict = (expected: string, holder: string): NameVerdict => compareNames(expected, holder).verdict;
const notes = (expected: string, holder: string): string => compareNames(expected, holder).notes.join(' | ');

describe('compareNames: contract', () => {
  it('returns an integer score inside the band of its verdict', () => {
    const samples: Array<[string, string]> = [
      ['Budi Santoso', 'BUDI SANTOSO'],
      ['Rizky A Pratama', 'RIZKY ADI PRATAMA'],
      ['Budi Santoso', 'BUDI'],
      ['Budi Santoso', 'BUDI SANTOSO WIJAYA'],
      ['Budi Santoso', 'AGUS SANTOSO'],
      ['Budi Santoso', 'SITI AMINAH'],
      ['', 'SITI AMINAH'],
    ];
    for (const [expected, holder] of samples) {
      const { verdict: v, score } = compareNames(expected, holder);
      expect(Number.isInteger(score)).toBe(true);
      const [low, high] = v === 'MATCH' ? [90, 100] : v === 'CLOSE_MATCH' ? [50, 89] : [0, 49];
      expect(score, `${expected} / ${holder}`).toBeGreaterThanOrEqual(low);
      expect(score, `${expected} / ${holder}`).toBeLessThanOrEqual(high);
    }
  });

  it('gives 100 and no notes for the same words', () => {
    expect(compareNames('Budi Santoso', 'BUDI SANTOSO')).toEqual({ verdict: 'MATCH', score: 100, notes: [] });
  });

  it('never matches blank names', () => {
    for (const [expected, holder] of [
      ['', 'BUDI'],
      ['   ', 'BUDI'],
      ['...', 'BUDI'],
      ['Budi', ''],
      ['', ''],
      ['H.', 'H'],
      ['Ibu', 'IBU'],
    ]) {
      expect(verdict(expected!, holder!)).toBe('NO_MATCH');
    }
    expect(notes('', 'BUDI')).toBe('expected name is empty');
    expect(notes('Budi', ' ')).toBe('holder name is empty');
  });

  it('matches every name of the evaluation set with itself as a bank would write it', () => {
    const names = new Set(evaluationPairs.flatMap((pair) => [pair.expected, pair.holder]));
    for (const name of names) {
      expect(compareNames(name, name.toUpperCase()), name).toMatchObject({ verdict: 'MATCH', score: 100 });
    }
  });

  it('is a pure function: same input, same output', () => {
    expect(compareNames('Muhammad Rizky', 'M RIZKY')).toEqual(compareNames('Muhammad Rizky', 'M RIZKY'));
  });
});

describe('compareNames: case, whitespace, punctuation, diacritics', () => {
  it.each([
    ['budi santoso', 'BUDI SANTOSO'],
    ['  Budi   Santoso ', 'BUDI SANTOSO'],
    ["Ma'ruf Amin", 'MARUF AMIN'],
    ['Nu’man Hakim', 'NUMAN HAKIM'],
    ['Siti Nur-Halimah', 'SITI NUR HALIMAH'],
    ['Rudi Hartono,', 'RUDI HARTONO'],
    ['André Wijaya', 'ANDRE WIJAYA'],
    ['Yohanes Pattiasina.', 'YOHANES PATTIASINA'],
  ])('%s = %s', (expected, holder) => {
    expect(compareNames(expected, holder)).toMatchObject({ verdict: 'MATCH', score: 100 });
  });
});

describe('compareNames: titles and degrees', () => {
  it.each([
    ['H. Ahmad Fauzi', 'AHMAD FAUZI'],
    ['Siti Aminah', 'HJ SITI AMINAH'],
    ['Dr. Budi Gunawan', 'DR BUDI GUNAWAN'],
    ['dr. Ratna Sari Dewi', 'RATNA SARI DEWI'],
    ['Prof. Dr. Ir. Sutanto Wibowo, M.Sc.', 'SUTANTO WIBOWO'],
    ['Andi Saputra S.Kom', 'ANDI SAPUTRA S KOM'],
    ['Ahmad Zaini, S.Pd.I', 'AHMAD ZAINI S PD I'],
    ['Dr. Bambang Irawan, S.H., M.H.', 'BAMBANG IRAWAN SH MH'],
    ['Siti Rohmah, A.Md.Keb', 'SITI ROHMAH AMD KEB'],
    ['Bpk. Slamet Riyadi', 'SLAMET RIYADI'],
    ['Ny. Maria Ulfa', 'MARIA ULFA'],
  ])('%s = %s', (expected, holder) => {
    expect(compareNames(expected, holder)).toMatchObject({ verdict: 'MATCH', score: 100 });
  });

  it('says what it ignored', () => {
    expect(notes('H. Ahmad Fauzi', 'AHMAD FAUZI')).toBe("title 'H.' ignored");
    expect(notes('Drs. H. Asep, S.Kom., M.M.', 'ASEP')).toBe("titles 'Drs.', 'H.' ignored | degrees 'S.Kom.', 'M.M.' ignored");
  });

  it('a shared title is no shared name', () => {
    expect(verdict('Dr. Budi Gunawan', 'DR AGUS HARTANTO')).toBe('NO_MATCH');
    expect(verdict('Hj. Siti Aminah', 'HJ SITI MAEMUNAH')).toBe('NO_MATCH');
  });
});

describe('compareNames: bank-side truncation', () => {
  it('accepts a cut inside the last word when most of it shows and the rest is strong', () => {
    const result = compareNames('Muhammad Rizky Pratama Saputra', 'MUHAMMAD RIZKY PRATAMA SAPUT');
    expect(result.verdict).toBe('MATCH');
    expect(result.notes.join(' ')).toContain('holder name looks truncated by the bank (28 characters)');
  });

  it('works with titles kept by the bank and dropped from the input, and the other way round', () => {
    expect(verdict('Hj. Ratna Kusumawardhani Wibowo', 'HJ RATNA KUSUMAWARDHANI WIBOW')).toBe('MATCH');
    expect(verdict('Ratna Kusumawardhani Wibowo, S.E.', 'RATNA KUSUMAWARDHANI WIBOW')).toBe('MATCH');
  });

  it('is CLOSE_MATCH when too little of the cut word shows', () => {
    // RAHMA... could be Rahmawati or Rahmadani.
    expect(verdict('Siti Nurhaliza Rahmawati', 'SITI NURHALIZA RAHMA')).toBe('CLOSE_MATCH');
    expect(verdict('Muhammad Rizky Pratama Saputra', 'MUHAMMAD RIZKY PRATAMA S')).toBe('CLOSE_MATCH');
  });

  it('is CLOSE_MATCH when a whole word is not shown and the shown words could be many people', () => {
    expect(compareNames('Muhammad Rizky Pratama Saputra', 'MUHAMMAD RIZKY PRATAMA')).toMatchObject({
      verdict: 'CLOSE_MATCH',
      notes: ["holder name may be truncated by the bank (22 characters): 'SAPUTRA' not shown"],
    });
  });

  it('does not read a short holder name as truncated', () => {
    expect(verdict('Budi Santoso', 'BUDI SANT')).toBe('NO_MATCH');
  });

  it('is NO_MATCH when the visible part disagrees', () => {
    expect(verdict('Bambang Sugiarto Wicaksono', 'BAMBANG SUGIARTO WIB')).toBe('NO_MATCH');
    expect(verdict('Muhammad Rizky Pratama Saputra', 'MUHAMMAD RIZKY PRATAMA PUTRA')).toBe('NO_MATCH');
  });

  it('does not take a cut expected name for bank truncation', () => {
    expect(verdict('Muhammad Rizky Pratama Sap', 'MUHAMMAD RIZKY PRATAMA SAPUTRA')).not.toBe('MATCH');
  });
});

describe('compareNames: Muhammad, Abdul, initials', () => {
  it.each([
    ['Muhammad Rizky', 'M RIZKY'],
    ['Muhammad Fauzi', 'MUHAMAD FAUZI'],
    ['Mohammad Hatta', 'MOH HATTA'],
    ['Mochamad Ridwan', 'MOCH RIDWAN'],
    ['Muhammad Iqbal', 'MUH IQBAL'],
    ['Mohd Faisal', 'MUHAMMAD FAISAL'],
    ['Much. Arifin', 'MUCHAMMAD ARIFIN'],
    ['Mhd. Rasyid', 'MUHAMMAD RASYID'],
    ['Mukhammad Zaenal', 'MUHAMMAD ZAENAL'],
    ['Abdul Rahman', 'ABD RAHMAN'],
    ['Abd. Kadir', 'ABDUL KADIR'],
    ['Abdurrahman Wahid', 'ABDUL RAHMAN WAHID'],
  ])('%s = %s', (expected, holder) => {
    expect(verdict(expected, holder)).toBe('MATCH');
  });

  it('notes how Muhammad was read', () => {
    expect(notes('Muhammad Rizky', 'M RIZKY')).toBe("'M' read as 'MUHAMMAD'");
  });

  it('takes a middle initial as the word when two distinguishing words match in full', () => {
    expect(compareNames('Rizky A Pratama', 'RIZKY ADI PRATAMA')).toMatchObject({ verdict: 'MATCH', notes: ["initial 'A' taken as 'ADI'"] });
    expect(verdict('Yohanes B. Pattiasina', 'YOHANES BENEDIKTUS PATTIASINA')).toBe('MATCH');
  });

  it('leaves other initials to a person', () => {
    expect(verdict('Budi S.', 'BUDI SANTOSO')).toBe('CLOSE_MATCH'); // last word
    expect(verdict('B. Santoso', 'BUDI SANTOSO')).toBe('CLOSE_MATCH'); // first word
    expect(verdict('Dewi K. Sari', 'DEWI KARTIKA SARI')).toBe('CLOSE_MATCH'); // rest is only common words
    expect(verdict('M. Fadli', 'MARDIANTO FADLI')).toBe('CLOSE_MATCH'); // M is not Muhammad here
    expect(verdict('Rizky A B Pratama', 'RIZKY ADI BAYU PRATAMA')).toBe('CLOSE_MATCH'); // two initials
    expect(notes('Budi S.', 'BUDI SANTOSO')).toBe("initial 'S' may or may not stand for 'SANTOSO'");
  });

  it('a different word behind the initial is a different person', () => {
    expect(verdict('Rizky A Pratama', 'RIZKY BAYU PRATAMA')).toBe('NO_MATCH');
  });

  it('Ahmad is not Muhammad, Abdul is not Abdullah', () => {
    expect(verdict('Ahmad Fauzi', 'MUHAMMAD FAUZI')).toBe('NO_MATCH');
    expect(verdict('Abdullah Syafii', 'ABDUL SYAFII')).toBe('NO_MATCH');
  });
});

describe('compareNames: spelling', () => {
  it.each([
    ['Sukarno', 'SOEKARNO'],
    ['Djoko Susilo', 'JOKO SUSILO'],
    ['Tjahjo Kumolo', 'CAHYO KUMOLO'],
    ['Sjamsul Arifin', 'SYAMSUL ARIFIN'],
    ['I Njoman Suwita', 'I NYOMAN SUWITA'],
    ['Chairul Tanjung', 'KHAIRUL TANJUNG'],
    ['Jusuf Kalla', 'YUSUF KALLA'],
    ['Rizky Ramadhan', 'RIZKI RAMADAN'],
    ['Dedi Kurniawan', 'DEDY KURNIAWAN'],
    ['Hasan Basri', 'HASSAN BASRI'],
    ['Stephanie Wijaya', 'STEFANI WIJAYA'],
    ['Novi Andriani', 'NOFI ANDRIANI'],
    ['Faizal Rahman', 'FAISAL RAHMAN'],
    ['Tjandra Wijaya', 'CANDRA WIJAYA'],
    ['Chandra Wijaya', 'CANDRA WIJAYA'],
  ])('%s = %s', (expected, holder) => {
    expect(verdict(expected, holder)).toBe('MATCH');
  });

  it('notes spelling variants', () => {
    expect(notes('Sukarno', 'SOEKARNO')).toBe("spelling variant 'SOEKARNO' = 'SUKARNO'");
  });

  it('a one-letter typo in a long word is CLOSE_MATCH, and so is one letter off in a short word', () => {
    expect(compareNames('Agus Setiwan', 'AGUS SETIAWAN')).toMatchObject({
      verdict: 'CLOSE_MATCH',
      notes: ["one-letter difference: 'SETIAWAN' vs 'SETIWAN'"],
    });
    expect(verdict('Parlindungan Harahpa', 'PARLINDUNGAN HARAHAP')).toBe('CLOSE_MATCH');
    expect(verdict('Yoga Pratama', 'YOGI PRATAMA')).toBe('CLOSE_MATCH');
    expect(verdict('Budi Santoso', 'BODI SANTOSO')).toBe('CLOSE_MATCH');
  });
});

describe('compareNames: word order, split words, bin/binti', () => {
  it.each([
    ['Santoso Budi', 'BUDI SANTOSO'],
    ['Siregar Rudi Hartono', 'RUDI HARTONO SIREGAR'],
    ['Hutapea, Maria', 'MARIA HUTAPEA'],
    ['Tan Siok Hwa', 'SIOK HWA TAN'],
    ['Nur Aini', 'NURAINI'],
    ['Nuraini', 'NUR AINI'],
    ['Sri Rahayu Ningsih', 'SRI RAHAYUNINGSIH'],
    ['Abdul Latif', 'ABDULLATIF'],
    ['Ahmad bin Abdullah', 'AHMAD ABDULLAH'],
    ['Rohani binti Said', 'ROHANI BT SAID'],
  ])('%s = %s', (expected, holder) => {
    expect(verdict(expected, holder)).toBe('MATCH');
  });

  it('notes the order and the joining', () => {
    expect(notes('Santoso Budi', 'BUDI SANTOSO')).toBe('word order differs');
    expect(notes('Nur Aini', 'NURAINI')).toBe("'NUR AINI' written as 'NURAINI'");
  });

  it('a reshuffled given name is not a surname moved', () => {
    expect(verdict('Tan Siok Hwa', 'TAN HWA SIOK')).toBe('CLOSE_MATCH');
  });

  it("sharing only the father's name, or swapping father and son, is NO_MATCH", () => {
    expect(compareNames('Ahmad bin Abdullah', 'ABDULLAH')).toMatchObject({
      verdict: 'NO_MATCH',
      notes: ["only the father's name 'ABDULLAH' matches"],
    });
    expect(verdict('Abdullah', 'AHMAD BIN ABDULLAH')).toBe('NO_MATCH');
    expect(verdict('Ahmad bin Abdullah', 'ABDULLAH BIN AHMAD')).toBe('NO_MATCH');
    expect(verdict('Hasan bin Ali', 'HUSEIN BIN ALI')).toBe('NO_MATCH');
  });

  it("a missing father's name is CLOSE_MATCH", () => {
    expect(compareNames('Siti Aisyah binti Hasan', 'SITI AISYAH')).toMatchObject({
      verdict: 'CLOSE_MATCH',
      notes: ["father's name 'HASAN' missing from holder name"],
    });
  });
});

describe('compareNames: Balinese and Javanese prefixes', () => {
  it.each([
    ['I Made Sudarsana', 'MADE SUDARSANA'],
    ['Made Sudarsana', 'I MADE SUDARSANA'],
    ['I Gusti Ngurah Rai Putra', 'GUSTI NGURAH RAI PUTRA'],
    ['I Made Sudarsana Putra', 'SUDARSANA PUTRA'],
    ['IB Made Oka', 'IDA BAGUS MADE OKA'],
    ['Anak Agung Gede Oka', 'AA GEDE OKA'],
    ['I Wayan Sukerta', 'I WYN SUKERTA'],
    ['R. Soetomo', 'RADEN SUTOMO'],
    ['Raden Roro Ayu Wulandari', 'RR AYU WULANDARI'],
    ['Raden Ajeng Kartini', 'KARTINI'],
    ['Teuku Muhammad Daud', 'T MUHAMMAD DAUD'],
  ])('%s = %s', (expected, holder) => {
    expect(verdict(expected, holder)).toBe('MATCH');
  });

  it('different birth-order names or particles are different people', () => {
    expect(compareNames('I Made Sudarsana', 'I WAYAN SUDARSANA')).toMatchObject({
      verdict: 'NO_MATCH',
      notes: ["word 'WAYAN' does not match 'MADE'"],
    });
    expect(verdict('Ni Made Sari Dewi', 'I MADE SARI DEWI')).toBe('NO_MATCH');
  });

  it('a dropped birth-order name with a single other word is CLOSE_MATCH', () => {
    expect(verdict('I Made Sudarsana', 'SUDARSANA')).toBe('CLOSE_MATCH');
  });
});

describe('compareNames: companies and QQ accounts', () => {
  it.each([
    ['PT Sinar Jaya Abadi', 'PT SINAR JAYA ABADI'],
    ['PT. Sinar Jaya Abadi', 'SINAR JAYA ABADI PT'],
    ['Maju Bersama, CV', 'CV. MAJU BERSAMA'],
    ['UD Sumber Rejeki', 'U.D. SUMBER REJEKI'],
    ['PT Telkom Indonesia Tbk', 'PT TELKOM INDONESIA'],
    ['PT Bank Rakyat Indonesia (Persero) Tbk', 'PT BANK RAKYAT INDONESIA PERSERO TBK'],
    ['Koperasi Simpan Pinjam Sejahtera', 'KSP SEJAHTERA'],
    ['Yayasan Al Ikhlas', 'YAYASAN ALIKHLAS'],
    ['PT Indah Kiat Pulp and Paper', 'PT INDAH KIAT PULP & PAPER'],
  ])('%s = %s', (expected, holder) => {
    expect(verdict(expected, holder)).toBe('MATCH');
  });

  it('another or a missing legal form is CLOSE_MATCH', () => {
    expect(notes('CV Maju Bersama', 'PT MAJU BERSAMA')).toBe("legal form differs: expected 'CV', holder 'PT'");
    expect(notes('PT Sinar Jaya Abadi', 'SINAR JAYA ABADI')).toBe("legal form 'PT' missing from holder name");
    expect(notes('Budi Santoso', 'CV BUDI SANTOSO')).toBe("legal form 'CV' only in holder name");
    expect(verdict('CV Maju Bersama', 'PT MAJU BERSAMA')).toBe('CLOSE_MATCH');
  });

  it('another business name is NO_MATCH even with shared generic words', () => {
    expect(verdict('PT Sinar Jaya Abadi', 'PT SURYA JAYA ABADI')).toBe('NO_MATCH');
    expect(verdict('PT Maju', 'PT MAJU JAYA')).toBe('NO_MATCH');
    expect(verdict('PT Maju Jaya', 'PT MAJU JAYA ABADI')).toBe('CLOSE_MATCH');
  });

  it('a QQ account is at most CLOSE_MATCH against either party, and says which one matched', () => {
    const forPerson = compareNames('Budi Santoso', 'PT ABC QQ BUDI SANTOSO');
    expect(forPerson.verdict).toBe('CLOSE_MATCH');
    expect(forPerson.notes[0]).toBe(
      "QQ account held by 'PT ABC' on behalf of 'BUDI SANTOSO': expected name matches only 'BUDI SANTOSO', not the owner 'PT ABC'",
    );
    const forOwner = compareNames('PT ABC', 'PT ABC Q.Q. BUDI SANTOSO');
    expect(forOwner.verdict).toBe('CLOSE_MATCH');
    expect(forOwner.notes[0]).toContain("expected name matches the owner 'PT ABC'");
  });

  it('QQ against QQ compares both parties', () => {
    expect(verdict('PT ABC qq Budi Santoso', 'PT ABC QQ BUDI SANTOSO')).toBe('MATCH');
    expect(verdict('PT ABC qq Budi Santoso', 'PT ABC QQ AGUS SALIM')).toBe('NO_MATCH');
  });

  it('a QQ account of somebody else is NO_MATCH', () => {
    expect(verdict('Agus Santoso', 'PT ABC QQ BUDI SANTOSO')).toBe('NO_MATCH');
    expect(verdict('Agus Santoso', 'PT ABC')).toBe('NO_MATCH');
  });

  it('an expected QQ name against a plain holder is at most CLOSE_MATCH', () => {
    expect(verdict('PT ABC qq Budi Santoso', 'PT ABC')).toBe('CLOSE_MATCH');
    expect(verdict('PT ABC qq Budi Santoso', 'BUDI SANTOSO')).toBe('CLOSE_MATCH');
  });
});

describe('compareNames: different people who share a word are never MATCH', () => {
  it.each([
    ['Muhammad Rizky', 'MUHAMMAD FAUZI', 'NO_MATCH'],
    ['Budi Santoso', 'AGUS SANTOSO', 'NO_MATCH'],
    ['Ahmad bin Abdullah', 'ABDULLAH', 'NO_MATCH'],
    ['Siti Aminah', 'SITI AISYAH', 'NO_MATCH'],
    ['Tan Siok Hwa', 'TAN SIOK LAN', 'NO_MATCH'],
    ['Dwi Cahyono', 'TRI CAHYONO', 'NO_MATCH'],
    ['Muhammad Rizky Pratama', 'MUHAMMAD FAUZI PRATAMA', 'NO_MATCH'],
    ['Muhammad Rizky', 'MUHAMMAD', 'CLOSE_MATCH'],
    ['Ratna Dewi', 'RATNA SARI DEWI', 'CLOSE_MATCH'],
    ['Siti Aminah', 'SITI', 'CLOSE_MATCH'],
    ['Rizky', 'MUHAMMAD RIZKY PRATAMA', 'NO_MATCH'],
    ['Budi Santoso', 'BUDI SANTOSO WIJAYA', 'CLOSE_MATCH'],
    ['Agus Salim', 'SALIM', 'CLOSE_MATCH'],
    ['Yulianto', 'YULIANTI', 'CLOSE_MATCH'],
  ])('%s / %s: %s', (expected, holder, expectedVerdict) => {
    expect(verdict(expected, holder)).toBe(expectedVerdict);
  });

  it('names the word that differs', () => {
    expect(notes('Muhammad Rizky', 'MUHAMMAD FAUZI')).toBe("word 'FAUZI' does not match 'RIZKY'");
    expect(notes('Muhammad Rizky', 'MUHAMMAD FAUZI PRATAMA')).toBe("word 'FAUZI' does not match 'RIZKY'");
    expect(notes('Muhammad Rizky', 'MUHAMMAD')).toBe("holder name is only 'MUHAMMAD', one word of the expected name");
    expect(notes('Muhammad', 'MUHAMMAD IQBAL')).toBe("only the common word 'MUHAMMAD' matches");
    expect(notes('Budi Santoso', 'BUDI SANTOSO WIJAYA')).toBe("holder name has extra word 'WIJAYA'");
    expect(notes('Budi Santoso Wijaya', 'BUDI SANTOSO')).toBe("'WIJAYA' missing from holder name");
    expect(notes('Rizky', 'MUHAMMAD RIZKY PRATAMA')).toBe('only 1 of 3 words match');
  });
});
