// Placeholder until the real matcher lands (issue 5): normalised equality or NO_MATCH.
export type NameVerdict = 'MATCH' | 'CLOSE_MATCH' | 'NO_MATCH';

export interface NameComparison {
  verdict: NameVerdict;
  /** 0-100 similarity of the two names. */
  score: number;
  /** Short notes for the `reason` column: what was ignored, which word did not match. */
  notes: string[];
}

const normalise = (name: string): string =>
  name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim();

export function compareNames(expectedName: string, holderName: string): NameComparison {
  const equal = normalise(expectedName) === normalise(holderName);
  return equal ? { verdict: 'MATCH', score: 100, notes: [] } : { verdict: 'NO_MATCH', score: 0, notes: ['names differ'] };
}
