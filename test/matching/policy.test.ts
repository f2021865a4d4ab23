import { describe, expect, it } from 'vitest';
import { compareNames, NAME_MATCH_POLICIES, type NameVerdict } from '../../src/matching/compare-names.js';
import { verdictRank } from '../../src/matching/notes.js';
import { devPairs } from './dev-set.js';
import { evaluationPairs } from './evaluation-set.js';

// NAME_MATCH_POLICY: strict leaves the generous readings of the standard policy to a person, and changes
// nothing else.
const under = (policy: 'standard' | 'strict', expected: string, holder: string) => compareNames(expected, holder, policy);

describe('NAME_MATCH_POLICY=strict', () => {
  it.each([
    ['a bank cut whose shown words identify the person', 'Siti Nurhaliza Kartikasari Putri Handayani', 'SITI NURHALIZA KARTIKASARI PUT'],
    ['a bank cut inside the last word (issue 5)', 'Muhammad Rizky Pratama Saputra', 'MUHAMMAD RIZKY PRATAMA SAPUT'],
    ['a middle initial', 'Rizky A Pratama', 'RIZKY ADI PRATAMA'],
    ['a middle name on one side only', 'Agung Wibisono', 'AGUNG TRI WIBISONO'],
    ['a slip in a long word', 'Maria Simanjutak', 'MARIA SIMANJUNTAK'],
    ["a father's name on one side only", 'Rusdi bin Ahmad Dahlan', 'RUSDI'],
  ])('leaves %s to a person, saying so', (_, expected, holder) => {
    expect(under('standard', expected, holder).verdict).toBe('MATCH');
    const strict = under('strict', expected, holder);
    expect(strict.verdict).toBe('CLOSE_MATCH');
    expect(strict.notes[0]).toMatch(/; strict policy: a person confirms$/);
    expect(strict.score).toBeLessThanOrEqual(89);
  });

  it.each([
    ['Budi Santoso', 'BUDI SANTOSO'],
    ['Dr. H. Ahmad Fauzi, S.E.', 'AHMAD FAUZI'],
    ['Djoko Susilo', 'JOKO SUSILO'],
    ['Muhammad Rizky', 'M RIZKY'],
    ['Nur Aini', 'NURAINI'],
    ['Siregar Rudi Hartono', 'RUDI HARTONO SIREGAR'],
    ['I Made Sudarsana', 'MADE SUDARSANA'],
    ['Ahmad bin Abdullah', 'AHMAD ABDULLAH'],
    ['PT. Sinar Jaya Abadi', 'SINAR JAYA ABADI PT'],
    ['PT ABC qq Budi Santoso', 'PT ABC QQ BUDI SANTOSO'],
  ])('still takes the same words as MATCH: %s / %s', (expected, holder) => {
    expect(under('strict', expected, holder)).toEqual(under('standard', expected, holder));
    expect(under('strict', expected, holder).verdict).toBe('MATCH');
  });

  it('only ever turns a MATCH into a CLOSE_MATCH, on every labelled pair and the dev set', () => {
    for (const pair of [...evaluationPairs, ...devPairs]) {
      const standard = under('standard', pair.expected, pair.holder);
      const strict = under('strict', pair.expected, pair.holder);
      if (strict.verdict === standard.verdict) continue;
      expect([standard.verdict, strict.verdict], `${pair.expected} / ${pair.holder}`).toEqual(['MATCH', 'CLOSE_MATCH']);
    }
  });

  it('is not the default: compareNames without a policy reads as standard', () => {
    expect(compareNames('Agung Wibisono', 'AGUNG TRI WIBISONO')).toEqual(under('standard', 'Agung Wibisono', 'AGUNG TRI WIBISONO'));
  });
});

describe('the safety properties hold under both policies', () => {
  const atMost = (limit: NameVerdict, got: NameVerdict) => verdictRank(got) <= verdictRank(limit);

  it.each(NAME_MATCH_POLICIES)('%s: a QQ account against one party is at most CLOSE_MATCH', (policy) => {
    for (const [expected, holder] of [
      ['Budi Santoso', 'PT ABC QQ BUDI SANTOSO'],
      ['PT ABC', 'PT ABC Q.Q. BUDI SANTOSO'],
      ['PT ABC qq Budi Santoso', 'BUDI SANTOSO'],
      ['Siti Nurhaliza Kartikasari Putri', 'PT ABC QQ SITI NURHALIZA KARTIKASARI PUT'],
    ]) {
      expect(atMost('CLOSE_MATCH', under(policy, expected!, holder!).verdict), `${expected} / ${holder}`).toBe(true);
    }
  });

  it.each(NAME_MATCH_POLICIES)('%s: a holder name that is one word of the expected name is CLOSE_MATCH', (policy) => {
    for (const [expected, holder] of [
      ['Dewi Anggraini', 'DEWI'],
      ['Muhammad Iqbal', 'MUHAMMAD'],
      ['Agus Salim', 'SALIM'],
      ['Rizky Pratama', 'RIZKY'],
    ]) {
      expect(under(policy, expected!, holder!).verdict, `${expected} / ${holder}`).toBe('CLOSE_MATCH');
    }
  });

  // Issue 26: two real names one letter apart are two people by the dev set's labelling rules (issue 13 had them as
  // CLOSE_MATCH); joining forms stay for a person to look at.
  it.each(NAME_MATCH_POLICIES)('%s: two real names one letter apart are NO_MATCH, joining forms CLOSE_MATCH', (policy) => {
    for (const [expected, holder] of [
      ['Yogi Putra', 'YOGI PUTRI'],
      ['Rina Marlina', 'RINI MARLINA'],
      ['Yoga Pratama', 'YOGI PRATAMA'],
    ]) {
      expect(under(policy, expected!, holder!).verdict, `${expected} / ${holder}`).toBe('NO_MATCH');
    }
    for (const [expected, holder] of [
      ['Nur Hidayat', 'NURUL HIDAYAT'],
      ['Nurul Aini', 'NUR AINI'],
    ]) {
      expect(under(policy, expected!, holder!).verdict, `${expected} / ${holder}`).toBe('CLOSE_MATCH');
    }
  });
});
