import { describe, expect, it } from 'vitest';
import { splitIntoPieces } from '../../src/matching/normalise.js';
import { stripTitlesAndDegrees } from '../../src/matching/titles.js';

const strip = (name: string) => {
  const result = stripTitlesAndDegrees(splitIntoPieces(name));
  return { kept: result.pieces.map((p) => p.letters).join(' '), ignored: result.ignored.map((p) => `${p.kind}:${p.display}`) };
};

describe('titles and degrees', () => {
  it.each([
    'H.', 'Hj.', 'KH.', 'Dr.', 'dr.', 'Drs.', 'Dra.', 'Ir.', 'Prof.', 'Ny.', 'Tn.', 'Bpk.', 'Ibu', 'Sdr.', 'Sdri.', 'drg.', 'Bapak', 'Hj', 'DRS',
  ])('drops the title %s before the name', (title) => {
    expect(strip(`${title} Budi Santoso`).kept).toBe('BUDI SANTOSO');
  });

  it.each([
    'S.E.', 'S.H.', 'S.Kom.', 'S.T.', 'S.Pd.', 'S.Pd.I', 'S.Ag.', 'S.Ked.', 'M.M.', 'M.H.', 'M.T.', 'M.Sc.', 'M.Pd.', 'A.Md.',
    'A.Md.Keb', 'S.Sos', 'S.Si', 'S.Farm.', 'S.Kep., Ns.', 'M.Si', 'M.Kes.', 'Sp.PD', 'Sp.OG', 'Lc.', 'Ph.D', 'MBA', 'S.I.Kom', 'SKM',
  ])('drops the degree %s after the name', (degree) => {
    expect(strip(`Budi Santoso, ${degree}`).kept).toBe('BUDI SANTOSO');
  });

  it.each(['SE', 'SH', 'S KOM', 'ST', 'SPD', 'S PD I', 'M PD', 'AMD KEB', 'SKEP NS', 'SE MM', 'SH MH', 'S.SOS'])(
    'drops the degree as a bank writes it: %s',
    (degree) => {
      expect(strip(`BUDI SANTOSO ${degree}`).kept).toBe('BUDI SANTOSO');
    },
  );

  it('reports what it dropped, as written', () => {
    expect(strip('Prof. Dr. Ir. H. Sutanto Wibowo, S.Pd.I, M.Sc.')).toEqual({
      kept: 'SUTANTO WIBOWO',
      ignored: ['title:Prof.', 'title:Dr.', 'title:Ir.', 'title:H.', 'degree:S.Pd.I', 'degree:M.Sc.'],
    });
  });

  it('splits glued titles and abbreviations: "H.M." is Haji Muhammad', () => {
    expect(strip('H.M. Jusuf Hamka').kept).toBe('M JUSUF HAMKA');
    expect(strip('Dr.Ir.Budi').kept).toBe('BUDI');
  });

  it('keeps an H that is an initial inside the name', () => {
    expect(strip('Agus Salim H').kept).toBe('AGUS SALIM H');
    expect(strip('Budi H. Santoso').kept).toBe('BUDI H SANTOSO');
  });

  it('keeps single-letter initials that are no degree', () => {
    expect(strip('Budi S').kept).toBe('BUDI S');
    expect(strip('Rizky A Pratama').kept).toBe('RIZKY A PRATAMA');
  });

  it('does not read degree codes before the name, nor undotted ones that are also given names', () => {
    expect(strip('Kian Seng The').kept).toBe('KIAN SENG THE');
    expect(strip('Lie Mei Ling').kept).toBe('LIE MEI LING');
    expect(strip('Budi Santoso, M.A.').kept).toBe('BUDI SANTOSO');
    expect(strip('Tan Ma').kept).toBe('TAN MA');
  });

  it('may leave nothing: a title alone is no name', () => {
    expect(strip('Ibu').kept).toBe('');
    expect(strip('H.').kept).toBe('');
  });
});
