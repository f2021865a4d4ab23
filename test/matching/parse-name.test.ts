import { describe, expect, it } from 'vitest';
import { readAccountName } from '../../src/matching/account.js';
import { BUILT_IN_KNOWLEDGE } from '../../src/matching/knowledge.js';
import { tokenize } from '../../src/matching/normalise.js';
import { readName } from '../../src/matching/parse-name.js';

// Reading a name into typed words: what each word is comes from the knowledge files, where it may stand from the
// parser. The plain reading is the first; a word with two readings gives the name a second one.
const knowledge = BUILT_IN_KNOWLEDGE;
const readings = (name: string) =>
  readName(tokenize(name), knowledge, 0).map((reading) => reading.words.map((word) => `${word.kind}:${word.letters}`).join(' '));
const plain = (name: string) => readings(name)[0];

describe('typed words', () => {
  it.each([
    ['Dr. H. Ahmad Fauzi, S.E., M.M.', 'title:DR title:H name:AHMAD name:FAUZI degree:SE degree:MM'],
    ['Hj. Cucu Rohayati, S.Pd.SD', 'title:HJ name:CUCU name:ROHAYATI degree:SPDSD'],
    ['dr. Anindita Sari, Sp.PD-KGEH', 'title:DR name:ANINDITA name:SARI degree:SPPDKGEH'],
    ['Letkol Czi Suryo Hadi', 'rank:LETKOL rank:CZI name:SURYO name:HADI'],
    ['Brigjen TNI (Purn.) Harun Tarigan', 'rank:BRIGJEN TNI rank:PURN name:HARUN name:TARIGAN'],
    ['Kapten Laut (P) Rizal Hakim', 'rank:KAPTEN rank:LAUT rank:P name:RIZAL name:HAKIM'],
    ['I Gusti Ayu Made Sekar', 'nobility:I GUSTI AYU birth-order:MADE name:SEKAR'],
    ['NI WYN SUKERTI', 'particle:NI birth-order:WYN name:SUKERTI'],
    ['IGP ARTA WIJAYA', 'nobility:I GUSTI birth-order:PUTU name:ARTA name:WIJAYA'],
    ['WAODE NURMALA', 'nobility:WAODE name:NURMALA'],
    ['Zulhendri Datuk Bandaro Kayo', 'name:ZULHENDRI nobility:DATUK name:BANDARO name:KAYO'],
    ['Tiominar boru Siahaan', 'name:TIOMINAR marga-marker:BORU name:SIAHAAN'],
    ['Rusdi bin H. Ahmad Dahlan', 'name:RUSDI patronymic:BIN title:H name:AHMAD name:DAHLAN'],
    ['Yayasan Al-Muhajirin Bekasi', 'legal-form:YAYASAN name:AL name:MUHAJIRIN name:BEKASI'],
    ['Harun Ar Rasyid', 'name:HARUN article:AR name:RASYID'],
    ['PT Bank Perkreditan Rakyat Arta Mulia', 'legal-form:PT legal-form:BANK PERKREDITAN RAKYAT name:ARTA name:MULIA'],
    ['Mitra Karya Bahari, PT', 'name:MITRA name:KARYA name:BAHARI legal-form:PT'],
    ['PT Garuda Indonesia (Persero) Tbk', 'legal-form:PT name:GARUDA name:INDONESIA legal-form:PERSERO legal-form:TBK'],
    ['KAP Hendrawan & Rekan', 'legal-form:KAP name:HENDRAWAN conjunction:& name:REKAN'],
  ])('%s', (name, words) => {
    expect(plain(name)).toBe(words);
  });

  it('reads a name abbreviation as its word, and several-word abbreviations as written out', () => {
    const words = (name: string) =>
      readName(tokenize(name), knowledge, 0)[0]!
        .words.filter((word) => word.kind === 'name')
        .map((word) => word.reads);
    expect(words('M. Rizky')).toEqual(['MUHAMMAD', 'RIZKY']);
    expect(words('Abd. Ghofur')).toEqual(['ABDUL', 'GHOFUR']);
    expect(words('FX Damar')).toEqual(['FRANSISKUS', 'XAVERIUS', 'DAMAR']);
    expect(words('F. X. Damar')).toEqual(['FRANSISKUS', 'XAVERIUS', 'DAMAR']);
  });

  it('gives a word with two readings a second reading of the name', () => {
    expect(readings('PT Ayu Lestari')).toEqual(['legal-form:PT name:AYU name:LESTARI', 'birth-order:PT name:AYU name:LESTARI']);
    expect(readings('T. Zulfikar Amin')).toEqual(['nobility:T name:ZULFIKAR name:AMIN', 'name:T name:ZULFIKAR name:AMIN']);
    expect(readings('H. Wiratmaja')).toEqual(['title:H name:WIRATMAJA', 'name:H name:WIRATMAJA']);
    expect(readings('Hasbullah B Yahya')).toEqual(['name:HASBULLAH patronymic:B name:YAHYA', 'name:HASBULLAH name:B name:YAHYA']);
    expect(readings('Afrizal ST Mangkuto')).toEqual(['name:AFRIZAL nobility:ST name:MANGKUTO', 'name:AFRIZAL name:ST name:MANGKUTO']);
    expect(readings('Hamdani Lubis MA')).toEqual(['name:HAMDANI name:LUBIS degree:MA', 'name:HAMDANI name:LUBIS name:MA']);
  });

  it('marks the readings that lean on the other name', () => {
    const [, putu] = readName(tokenize('PT Ayu Lestari'), knowledge, 0);
    expect(putu!.words[0]).toMatchObject({ kind: 'birth-order', needsOtherSide: 'Putu (first-born)' });
    const [teuku] = readName(tokenize('T. Zulfikar Amin'), knowledge, 0);
    expect(teuku!.words[0]).toMatchObject({ kind: 'nobility', needsOtherSide: 'Teuku (Acehnese nobleman)' });
  });

  it('knows whose title it is, and the wife-of titles', () => {
    const words = readName(tokenize('Ny. Ni Luh Sekar binti Wayan'), knowledge, 0)[0]!.words;
    expect(words.map((word) => [word.letters, word.gender, word.wifeOf])).toEqual([
      ['NY', 'female', true],
      ['NI LUH', 'female', false],
      ['SEKAR', null, false],
      ['BINTI', 'female', false],
      ['WAYAN', null, false],
    ]);
  });
});

describe('account names', () => {
  const parties = (name: string) => {
    const account = readAccountName(tokenize(name), knowledge);
    const show = (party: ReturnType<typeof tokenize>[]) => party.map((alternative) => alternative.map((token) => token.letters).join(' '));
    if (account.kind === 'single') return { single: show(account.party) };
    if (account.kind === 'qq') return { owner: show(account.owner), beneficiary: show(account.beneficiary) };
    return { joint: account.parties.map(show) };
  };

  it('splits qq accounts, joint accounts and aliases', () => {
    expect(parties('PT SINAR KAPUAS QQ DARMAWAN SAPUTRA')).toEqual({ owner: ['PT SINAR KAPUAS'], beneficiary: ['DARMAWAN SAPUTRA'] });
    expect(parties('RONALD TUMBELAKA & GRACE LUMENTA')).toEqual({ joint: [['RONALD TUMBELAKA'], ['GRACE LUMENTA']] });
    expect(parties('BAYU FIRMANSYAH DAN/ATAU NINA')).toEqual({ joint: [['BAYU FIRMANSYAH'], ['NINA']] });
    expect(parties('HERU PRANOTO/SURYANI PUTRI')).toEqual({ joint: [['HERU PRANOTO'], ['SURYANI PUTRI']] });
    // cut after the separator: the other holder hidden, no empty party
    expect(parties('BAYU FIRMANSYAH DAN/ATAU')).toEqual({ joint: [['BAYU FIRMANSYAH']] });
    expect(parties('Hendrawan Salim (Liem Hen Djie)')).toEqual({ single: ['HENDRAWAN SALIM', 'LIEM HEN DJIE'] });
    expect(parties('Gunawan Wibisono alias Go Tjie Hwat')).toEqual({ single: ['GUNAWAN WIBISONO', 'GO TJIE HWAT'] });
    expect(parties('Budi @ Ucok')).toEqual({ single: ['BUDI', 'UCOK'] });
  });

  it('keeps "&" and "dan" inside a company name, and qualifiers in brackets', () => {
    expect(parties('KAP Hendrawan & Rekan')).toEqual({ single: ['KAP HENDRAWAN & REKAN'] });
    expect(parties('PT Pos Logistik Nusantara (Persero)')).toEqual({ single: ['PT POS LOGISTIK NUSANTARA PERSERO'] });
    expect(parties('Brigjen TNI (Purn.) Harun')).toEqual({ single: ['BRIGJEN TNI PURN HARUN'] });
  });
});
