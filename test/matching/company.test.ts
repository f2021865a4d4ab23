import { describe, expect, it } from 'vitest';
import { splitQualitateQua, stripLegalForms } from '../../src/matching/company.js';
import { splitIntoPieces } from '../../src/matching/normalise.js';

const forms = (name: string) => {
  const result = stripLegalForms(splitIntoPieces(name));
  return { name: result.pieces.map((p) => p.letters).join(' '), forms: result.forms };
};

describe('legal forms', () => {
  it.each([
    ['PT Sinar Jaya', 'PT'],
    ['PT. Sinar Jaya', 'PT'],
    ['P.T. Sinar Jaya', 'PT'],
    ['Sinar Jaya, PT', 'PT'],
    ['SINAR JAYA PT.', 'PT'],
    ['Perseroan Terbatas Sinar Jaya', 'PT'],
    ['CV. Sinar Jaya', 'CV'],
    ['Sinar Jaya CV', 'CV'],
    ['U.D. Sinar Jaya', 'UD'],
    ['Koperasi Sinar Jaya', 'KOPERASI'],
    ['Koperasi Simpan Pinjam Sinar Jaya', 'KSP'],
    ['KSP Sinar Jaya', 'KSP'],
    ['Yayasan Sinar Jaya', 'YAYASAN'],
    ['YYS Sinar Jaya', 'YAYASAN'],
  ])('%s has the form %s', (name, form) => {
    expect(forms(name)).toEqual({ name: 'SINAR JAYA', forms: [form] });
  });

  it('drops Tbk and (Persero) as qualifiers', () => {
    expect(forms('PT Bank Rakyat Indonesia (Persero) Tbk')).toEqual({ name: 'BANK RAKYAT INDONESIA', forms: ['PT'] });
    expect(forms('Sumber Alfaria Trijaya Tbk PT')).toEqual({ name: 'SUMBER ALFARIA TRIJAYA', forms: ['PT'] });
  });

  it('leaves people and a lone form word alone', () => {
    expect(forms('Budi Santoso')).toEqual({ name: 'BUDI SANTOSO', forms: [] });
    expect(forms('Koperasi')).toEqual({ name: 'KOPERASI', forms: [] });
  });
});

describe('QQ accounts', () => {
  const split = (name: string) => {
    const qq = splitQualitateQua(splitIntoPieces(name));
    return qq && [qq.owner.map((p) => p.letters).join(' '), qq.beneficiary.map((p) => p.letters).join(' ')];
  };

  it.each(['PT ABC QQ BUDI SANTOSO', 'PT ABC Q.Q. BUDI SANTOSO', 'PT ABC qq. Budi Santoso', 'PT ABC Q Q BUDI SANTOSO'])('splits %s', (name) => {
    expect(split(name)).toEqual(['PT ABC', 'BUDI SANTOSO']);
  });

  it('needs a party on both sides', () => {
    expect(split('QQ BUDI')).toBeNull();
    expect(split('BUDI SANTOSO')).toBeNull();
  });
});
