import { describe, expect, it } from 'vitest';
import { compareNames } from '../../src/matching/compare-names.js';
import { BUILT_IN_KNOWLEDGE } from '../../src/matching/knowledge.js';

// Pairs written to break the matcher, as an outsider would, from the labelling rules
// (test/matching/dev-set/README.upstream.md): none of them may be MATCH. Bank cuts are emulated as the rules
// describe them (the bank form, upper case, its first w characters, a trailing blank dropped) at every width from
// 18 to 40, not only the widths the dev set uses.

const LONG_NAMES = [
  'Raden Bagus Wicaksono Prawiranegara Hadikusumo',
  'Ni Luh Putu Ayu Sekarwangi Pradnyaswari',
  'Fransiskus Asisi Gregorius Tumbelaka Wenas',
  'Muhammad Hafidz Ramadhani Lubis Siregar',
  'Theresia Anggraeni Kartikasari Setyaningrum',
  'PT Cahaya Gemilang Nusantara Persada Mandiri',
  'Koperasi Simpan Pinjam Harapan Makmur Bersama',
  'Yosephine Maharani Ratnaningsih Pangaribuan',
  'Andi Baso Tenriajeng Mappasessu Daeng Matutu',
  'Kristoforus Bonaventura Lamabelawa Hurint',
  'Rosalinda br. Simanjuntak Hutabarat Sianturi',
  'Nurul Aulia Rahmadhani Fitrianingsih Nasution',
];
const WIDTHS = Array.from({ length: 23 }, (_, index) => 18 + index);

const bankForm = (name: string) => name.toUpperCase().replace(/\./g, '');
const cut = (bank: string, width: number) => bank.slice(0, width).trimEnd();

/** A letter for the one at `at` that no spelling rule reads as it, nor doubles with a neighbour. */
function otherLetter(word: string, at: number): string {
  const before = word[at - 1];
  const after = word[at + 1];
  const fits = (letter: string) =>
    letter !== word[at] &&
    letter !== before &&
    letter !== after &&
    !(after === 'H' && 'BR'.includes(letter)) &&
    !(letter === 'L' && before === 'D');
  return ['L', 'M', 'R', 'B'].find(fits)!;
}

/**
 * Letters that open a two-letter spelling (DJ, TJ, TS, SJ, SY, NJ, NY, CH, KH, PH, DH); not O, whose a/o and oe/u
 * are spellings, nor G (DA cut and changed to DG is the bank's abbreviation of Daeng).
 */
const SPELLING_OPENERS = ['D', 'T', 'S', 'N', 'C', 'K', 'P'];
/** For a letter, the letters opening its old spellings: U as OE, J as DJ, C as TJ, Y as NJ/SJ, K and H as CH. */
const OLD_SPELLING_OF: Record<string, string> = { U: 'O', J: 'D', C: 'T', Y: 'NS', K: 'C', H: 'CKGPDST' };

interface Attack {
  expected: string;
  holder: string;
  why: string;
}

/** The last word the bank shows, one letter changed before the cut, at every width: it disagrees before the cut. */
function disagreeingCuts(): Attack[] {
  const attacks: Attack[] = [];
  for (const expected of LONG_NAMES) {
    const bank = bankForm(expected);
    for (const width of WIDTHS.filter((w) => w < bank.length)) {
      const holder = cut(bank, width);
      const start = holder.lastIndexOf(' ') + 1;
      const shown = holder.slice(start);
      for (let at = 1; at < shown.length; at += 1) {
        const changed = shown.slice(0, at) + otherLetter(shown, at) + shown.slice(at + 1);
        attacks.push({ expected, holder: holder.slice(0, start) + changed, why: `cut at ${width}, letter ${at + 1} of ${shown} changed` });
      }
      // The last letter shown changed into one that opens a two-letter spelling (LUMBANT for LUMBANG...), unless
      // that spelling is an old way of writing the letter it replaces (SO for SU: SOE...).
      const last = shown[shown.length - 1]!;
      for (const opener of SPELLING_OPENERS.filter((letter) => letter !== last && !OLD_SPELLING_OF[last]?.includes(letter))) {
        attacks.push({
          expected,
          holder: holder.slice(0, -1) + opener,
          why: `cut at ${width}, last letter of ${shown} changed to ${opener}`,
        });
      }
    }
  }
  return attacks;
}

/** A shown word run on past the typed word (WICAKSONO as WICAKSONOWATI...), then cut, at every width. */
function extendedWords(): Attack[] {
  const attacks: Attack[] = [];
  for (const expected of LONG_NAMES) {
    const words = bankForm(expected).split(' ');
    for (let at = 1; at < words.length - 1; at += 1) {
      if (words[at]!.length < 4) continue;
      // Not a doubled letter (ASISII): that is a spelling of the same word.
      for (const ending of ['TO', 'WATI', 'NINGSIH', 'I'].filter((letters) => !words[at]!.endsWith(letters[0]!))) {
        const bank = [...words.slice(0, at), words[at] + ending, ...words.slice(at + 1)].join(' ');
        const shownUpTo = words.slice(0, at + 1).join(' ').length;
        for (const width of WIDTHS.filter((w) => w > shownUpTo && w < bank.length)) {
          attacks.push({ expected, holder: cut(bank, width), why: `${words[at]} run on as ${words[at]}${ending}, cut at ${width}` });
        }
      }
    }
  }
  return attacks;
}

/** The name without its last words, at a length no bank field gives: a word missing, not a cut. */
function missingLastWords(): Attack[] {
  const attacks: Attack[] = [];
  for (const expected of LONG_NAMES) {
    const words = bankForm(expected).split(' ');
    for (let keep = 2; keep < words.length; keep += 1) {
      const holder = words.slice(0, keep).join(' ');
      if (!BUILT_IN_KNOWLEDGE.wordCutLengths.has(holder.length))
        attacks.push({ expected, holder, why: `last ${words.length - keep} word(s) missing at ${holder.length} characters` });
    }
  }
  return attacks;
}

/**
 * Somebody else, or a relative, in a long bank form, cut at every width that still shows what differs: the
 * expected name, the other person's bank form, and the start of it that shows the difference.
 */
const RELATIVES: Array<[string, string, string]> = [
  ['I Wayan Sudarma Putra Wijaya', 'I KETUT SUDARMA PUTRA WIJAYA', 'I KETUT'],
  ['Fajar Budi Kuncoro Wibowo Santoso', 'FAJAR ADI KUNCORO WIBOWO SANTOSO', 'FAJAR ADI'],
  ['Bambang Sutrisno Wibowo Hadikusumo', 'NY BAMBANG SUTRISNO WIBOWO HADIKUSUMO', 'NY BAMBANG'],
  ['Rusdi bin Jamal Hasan Basri', 'RUSDI BIN JAMIL HASAN BASRI', 'RUSDI BIN JAMIL'],
  ['Budi Santoso Wijaya Kusuma', 'BUDI SANTOSO DAN SITI AMINAH', 'BUDI SANTOSO DAN'],
  ['Budi Santoso Wijaya Kusuma', 'SITI AMINAH QQ BUDI SANTOSO WIJAYA', 'SITI AMINAH QQ'],
  ['Daniel Hutapea Simatupang Siregar', 'DANIELA HUTAPEA SIMATUPANG SIREGAR', 'DANIELA'],
  ['Wahyudi Pratama Kusuma Wardhana', 'WAHYUNI PRATAMA KUSUMA WARDHANA', 'WAHYUNI'],
  ['Eka Prasetya Wibowo Nugroho', 'DWI PRASETYA WIBOWO NUGROHO', 'DWI'],
  ['Hotman Manurung Sitompul Pardede', 'HOTMAN MUNTHE SITOMPUL PARDEDE', 'HOTMAN MUNTHE'],
  ['Ida Bagus Made Sudira Wirawan', 'IDA AYU MADE SUDIARI WIRAWAN', 'IDA AYU MADE SUDIARI'],
  ['Rusdi bin Ahmad Dahlan Hasibuan', 'AHMAD DAHLAN HASIBUAN BIN RUSDI', 'AHMAD DAHLAN'],
  ['PT Sinar Jaya Abadi Sentosa Makmur', 'CV SINAR JAYA ABADI SENTOSA MAKMUR', 'CV SINAR'],
  ['Toko Emas Sinar Jaya Abadi Sentosa', 'TK BESI SINAR JAYA ABADI SENTOSA', 'TK BESI'],
  ['Yogi Hartawan Saputra Wibisono Jaya', 'YOGI HARTAWANTO SAPUTRA WIBISONO JAYA', 'YOGI HARTAWANT'],
  ['Anisa Fitri Rahmawati Lubis Siregar', 'ANISA FITRI RAHMADHANI LUBIS SIREGAR', 'ANISA FITRI RAHMAD'],
  ['Agus Salim Hakim Fauzan Pratama', 'AGUS SALIM FAUZAN HAKIM PRATAMA', 'AGUS SALIM FAUZAN'],
  ['Tjia Hok Liong Hendrawan Salim', 'TJIA HOK LAM HENDRAWAN SALIM', 'TJIA HOK LAM'],
  ['Cahya Nugraha Pratama Wijaya Kusuma', 'CAHYO NUGRAHA PRATAMA WIJAYA KUSUMA', 'CAHYO'],
  ['Benny Santoso Wijaya Kusuma Negara', 'BENEDIKTUS SANTOSO WIJAYA KUSUMA NEGARA', 'BENEDIKTUS'],
  ['Laras Ayu Kinasih Putri Handayani', 'LARAS KINASIH PUTRI HANDAYANI', 'LARAS KINASIH'],
  ['Arkan Hendrawan Susilo Wibowo Jati', 'HENDRAWAN SUSILO WIBOWO JATI', 'HENDRAWAN'],
];

function relativesCut(): Attack[] {
  return RELATIVES.flatMap(([expected, bank, differs]) =>
    WIDTHS.filter((width) => width < bank.length && cut(bank, width).length >= differs.length).map((width) => ({
      expected,
      holder: cut(bank, width),
      why: `${differs}, cut at ${width}`,
    })),
  );
}

const unsafe = (attacks: Attack[]) =>
  attacks
    .map((attack) => ({ ...attack, result: compareNames(attack.expected, attack.holder) }))
    .filter(({ result }) => result.verdict === 'MATCH')
    .map(({ expected, holder, why, result }) => `${expected} / ${holder} (${why}): ${result.notes.join('; ')}`);

describe('adversarial pairs: never MATCH', () => {
  it('a cut word that disagrees before the cut, at every width from 18 to 40', () => {
    const attacks = disagreeingCuts();
    expect(attacks.length).toBeGreaterThan(1000);
    expect(unsafe(attacks)).toEqual([]);
  });

  it('a word run on past the typed word, then cut, at every width from 18 to 40', () => {
    const attacks = extendedWords();
    expect(attacks.length).toBeGreaterThan(200);
    expect(unsafe(attacks)).toEqual([]);
  });

  it('somebody else or a relative (sibling, wife, father, joint or qq holder, another firm), cut at every width that shows the difference', () => {
    const attacks = relativesCut();
    expect(attacks.length).toBeGreaterThan(250);
    expect(unsafe(attacks)).toEqual([]);
  });

  it('the last words missing at a length no bank field gives', () => {
    const attacks = missingLastWords();
    expect(attacks.length).toBeGreaterThan(20);
    expect(unsafe(attacks)).toEqual([]);
  });

  it.each([
    // one letter apart, or extended into another name
    ['Nur Aisyah Fitriani Lubis', 'NUR AISYAH FITRIANIN', 'different'],
    ['Rosmawati br. Lumbangaol', 'ROSMAWATI BR LUMBANT', 'different'],
    ['Sarah Wulandari Kusumaningrum', 'SARAH WULANDARI KUSUMAH', 'different'],
    ['Dewi Anggraeni Kusumawardhani', 'DEWI ANGGRAINI KUSUMAWAT', 'different'],
    ['Muhammad Rizal Fahmi Hidayat', 'MUHAMMAD RIZAL FAHRI', 'different'],
    ['Muhammad Rizal Fahmi Hidayat', 'MUHAMMAD RIZAL FAHMIH', 'different'],
    ['Ahmad Fauzi Nasution Harahap', 'AHMAD FAUZAN NASUTI', 'different'],
    ['Kartika Sari Dewi Lestari', 'KARTIKA SARI DEWIANA', 'different'],
    ['Yulia Rahmawati Syahputri Siregar', 'YULIA RAHMAWATI SYAHPUTRA', 'different'],
    ['Andi Pratama Wijaya Kusuma Negara', 'ANDI PRATAMA WIJAYANTO KUSUMA', 'different'],
    ['Yogi Hartawan Saputro Wibisono', 'YOGI HARTAWANTO SAPUTRO', 'different'],
    ['Wahyudi Santoso', 'WAHYUNI SANTOSO', 'different'],
    ['Rudi Hermawan', 'RUSDI HERMAWAN', 'different'],
    ['Fahmi Ramadhan', 'FAHRI RAMADHAN', 'different'],
    ['Sukarjo Wiryono', 'SUKARJI WIRYONO', 'different'],
    // a spelling that only adds letters after the typed word, where the bank may have cut another name
    ['Agnes Kristina Dewi', 'AGNES KRISTINA DEWIY', 'different'],
    ['Muhammad Arif Hasan', 'MUHAMMAD ARIF HASANN', 'different'], // Hasannudin, cut at 20
    // a short form is no standard abbreviation
    ['Fransiskus Tukan', 'FRANS TUKAN', 'review'],
    // a number names which school, unit or block: never an initial of another number
    ['SMP Negeri 1 Kupang', 'SMP NEGERI 11 KUPANG', 'different'],
    ['Koperasi Karyawan Unit 1 Cilegon', 'KOPKAR UNIT 12 CILEGON', 'different'],
    ['UD Jaya 7 Ternate', 'UD JAYA 77 TERNATE', 'different'],
    // a letter on file that may be a title or an initial, beside one name word in full
    ['H. Abdullah', 'HAJI ABDULLAH', 'review'],
    ['R. Hartono', 'RADEN HARTONO', 'review'],
    ['A. Tenriola', 'ANDI TENRIOLA', 'review'],
    ['T. Rizal', 'TEUKU RIZAL', 'review'],
    // a word missing at the end, at a length that is no bank field
    ['PT Sarana Multi Teknik Utama', 'PT SARANA MULTI TEKNIK', 'review'],
    ['CV Bintang Timur Jaya Abadi', 'CV BINTANG TIMUR JAYA', 'review'],
    ['Hendrawan Prasetyo Nugroho', 'HENDRAWAN PRASETYO', 'review'],
    ['Yayasan Pendidikan Harapan Bangsa Mulia', 'YAYASAN PENDIDIKAN HARAPAN BANGSA', 'review'],
    // wife of, father and son, siblings
    ['Ny. Bambang Sutrisno', 'BAMBANG SUTRISNO', 'different'],
    ['Bambang Sutrisno', 'NY BAMBANG SUTRISNO', 'different'],
    ['Rusdi bin Ahmad Dahlan', 'AHMAD DAHLAN', 'different'],
    ['Hakim Fauzan', 'FAUZAN HAKIM', 'review'],
    ['I Wayan Sudarma', 'I KETUT SUDARMA', 'different'],
    ['Eka Prasetya Wibowo', 'DWI PRASETYA WIBOWO', 'different'],
    ['Daniel Simatupang', 'DANIELA SIMATUPANG', 'different'],
    ['Tjia Hok Liong', 'TJIA HOK LAM', 'different'],
    ['Ida Bagus Made Suarjana', 'IDA AYU MADE SUARJANI', 'different'],
    ['Fajar Budi Kuncoro', 'FAJAR ADI KUNCORO', 'different'],
    ['Hadi Susanto', 'HARI SUSANTO', 'different'],
  ] as const)('%s / %s (%s)', (expected, holder, _label) => {
    const result = compareNames(expected, holder);
    expect(result.verdict, result.notes.join('; ')).not.toBe('MATCH');
  });
});

describe('bank cuts that stay MATCH', () => {
  it.each([
    ['Nur Aisyah Fitriani Lubis', 'NURAISYAHFITRIANILUB'], // spaces removed, then cut
    ['Rosmawati br. Lumbangaol', 'ROSMAWATI BR LUMBANG'],
    ['Soedjatmiko Wirjoatmodjo', 'SUJATMIKO WIRYOATMOJ'], // the bank's new spelling, cut
    ['Bambang Soesilo Joedodiharjo', 'BAMBANG SUSILO YUDOD'],
    ['Hendrawati Prasetyo Nugroho Wibisono', 'HENDRAWATI PRASETYO'], // just after a word, at 20 less the blank
    ['Gregorius Yudhistira Adiwangsa Putra', 'GREGORIUS YUDHISTIRA ADIWANGSA'], // a word ending on the 30th character
    ['Habib Muhsin Al-Attas bin Ali', 'HABIB MUHSIN AL ATTAS BI'], // cut inside "bin": the father's name on one side only
    ['Nurhaliza Syahrani binti H. Abdullah', 'NURHALIZA SYAHRANI BIN'], // inside "binti", not a man's "bin"
    ['Ramlah Sitorus Pane binti Marahalim', 'RAMLAH SITORUS PANE BI'],
    ['Fitriani Nur Hasanah Pohan', 'FITRIANI NUR HASANA'], // a cut inside "Hasanah" that reads as its spelling
    ['Mochamad Fadhilah Al-Banjari', 'MUHAMMAD FADHILAH AL'], // a name cannot end with its article: cut
  ])('%s / %s', (expected, holder) => {
    const result = compareNames(expected, holder);
    expect(result.verdict, result.notes.join('; ')).toBe('MATCH');
  });
});

// Same-person pairs of the kinds an outside set still sent to a person, by the labelling rules' "same" list.
describe('same person, read as the labelling rules say', () => {
  it.each([
    // titles, degrees and ranks after the name
    ['Budi Hartono, Kompol', 'BUDI HARTONO'],
    ['Agus Salim, Brigjen TNI (Purn.)', 'AGUS SALIM'],
    ['Agus Salim Letkol Inf', 'AGUS SALIM'],
    ['Hendra Gunawan, Bripka', 'HENDRA GUNAWAN'],
    ['Sutrisno Hadi, Ir.', 'SUTRISNO HADI'],
    ['Ahmad Fauzi, H.', 'AHMAD FAUZI'],
    ['Yohanes Lado Pdt', 'YOHANES LADO'],
    ['Sukirman, Serka', 'SUKIRMAN'],
    ['Budi Hartono', 'BUDI HARTONO KOMPOL'],
    // Ny. with a woman's own title before her own name
    ['Ny. Hj. Rukmini', 'RUKMINI'],
    ['Ny. Dra. Endang Susilowati', 'ENDANG SUSILOWATI'],
    // spelling rules combined in one word: ch for kh, o for a
    ['Khairunnisa', 'CHOIRUNNISA'],
    ['Choirul Anam', 'KHAIRUL ANAM'],
    ['Cholifah', 'KHALIFAH'],
    // initials written together on one side
    ['J. B. Sutrisno', 'JB SUTRISNO'],
    ['A.M. Hendropriyono', 'AM HENDROPRIYONO'],
    // a legal form after the name, after a comma
    ['Harapan Kasih, Yayasan', 'YAYASAN HARAPAN KASIH'],
    ['Cahaya Abadi Makmur, P.T.', 'CAHAYA ABADI MAKMUR'],
    // Ny. after a woman's own name; a Balinese caste title before the birth-order name, dropped
    ['Sri Rahayu, Ny.', 'SRI RAHAYU'],
    ['I Dewa Made Sukadana', 'I MADE SUKADANA'],
    ['I Gusti Ngurah Oka Mahendra', 'NGURAH OKA MAHENDRA'], // a caste title written with fewer of its words
    // one slip in a listed family name
    ['Susi Sitopmul', 'SUSI SITOMPUL'],
    ['Hotma Simanjutnak', 'HOTMA SIMANJUNTAK'],
    ['Tika Sitonpul', 'TIKA SITOMPUL'],
    // two letters swapped in a word of ten letters or more
    ['Bayu Krisnamutri', 'BAYU KRISNAMURTI'],
    ['Sisilia Rantelnagi', 'SISILIA RANTELANGI'],
  ])('%s / %s', (expected, holder) => {
    const result = compareNames(expected, holder);
    expect(result.verdict, result.notes.join('; ')).toBe('MATCH');
  });

  it.each([
    ['J. B. Sutrisno', 'J SUTRISNO'], // "B" after an initial is no bin: an initial missing
    ['Ny. Hj. Bambang Sutrisno', 'BAMBANG SUTRISNO'], // her title, his name
    ['Budi Hartono, Kompol', 'BUDI HARTONO KUSNADI'],
    // two given names one letter apart, or a swap that leaves another name: never read as a slip
    ['Indrawati Lubis', 'INDARWATI LUBIS'],
    ['Desrianti Sembiring', 'DESRIANI SEMBIRING'],
    ['Handayani Putri', 'HANDAYANTI PUTRI'],
    ['Rahmawati Siregar', 'RAHMAWANI SIREGAR'],
    ['Marlina Simanjuntak', 'MARLINDA SIMANJUNTAK'],
    ['Wulandari Putri', 'WULANSARI PUTRI'],
    ['Fitriani Lubis', 'FITRIANA LUBIS'],
    ['Kristianto Hadi', 'KRISTIANTI HADI'],
    ['Suryani Pohan', 'SURYANTI POHAN'],
    ['Susilawati Harahap', 'SUSILOWATI HARAHAP'],
    ['Rudi Simatupang', 'RUDI SIMANJUNTAK'],
    ['Rudi Sitompul', 'RUDI SITOMPUL SINAGA'],
    ['J. B. Sutrisno', 'JOHANES BAPTISTA SUTRISNO'],
    // Ny. after a man's name; Andi (also a given name) before a birth-order word
    ['Bambang Sutrisno, Ny.', 'BAMBANG SUTRISNO'],
    ['Andi Made Sukadana', 'MADE SUKADANA'],
    // a one-word name and a title-like word after it, without a comma: perhaps a name of two words
    ['Abdul Haji', 'ABDUL'],
    ['Budi Kapten', 'BUDI'],
    ['I Dewa Sukadana', 'I SUKADANA'],
    ['Anak Agung Ngurah Oka', 'I GUSTI NGURAH OKA'], // two caste titles
    ['Ida Bagus Oka', 'ANAK AGUNG OKA'],
  ])('not MATCH: %s / %s', (expected, holder) => {
    const result = compareNames(expected, holder);
    expect(result.verdict, result.notes.join('; ')).not.toBe('MATCH');
  });
});
