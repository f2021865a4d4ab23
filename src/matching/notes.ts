// The verdict under construction and the wording of the `reason` column.
//
// Notes are short and name the words as the names spell them, so that ops can find them in the row:
// first the reasons the verdict is not MATCH, then what was ignored or read generously on the way.

import type { NameWord } from './parse-name.js';
import type { NameMatchPolicy } from './policy.js';

export type NameVerdict = 'MATCH' | 'CLOSE_MATCH' | 'NO_MATCH';

const RANK: Record<NameVerdict, number> = { NO_MATCH: 0, CLOSE_MATCH: 1, MATCH: 2 };

export function verdictRank(verdict: NameVerdict): number {
  return RANK[verdict];
}

export const quote = (text: string): string => `'${text}'`;
export const quoteWords = (words: readonly NameWord[]): string => words.map((word) => quote(word.letters)).join(', ');
export const plural = (count: number, word: string): string => (count === 1 ? word : `${word}s`);

export class Outcome {
  verdict: NameVerdict = 'MATCH';
  readonly reasons: string[] = [];
  readonly details: string[] = [];

  constructor(private readonly policy: NameMatchPolicy) {}

  /** Lowers the verdict to at most `verdict`. A reason that would not lower an already lower verdict is left
   *  out: "word 'FAUZI' does not match 'RIZKY'" says it all, "holder has extra word 'FAUZI'" adds nothing. */
  limit(verdict: NameVerdict, reason: string): void {
    if (RANK[verdict] > RANK[this.verdict]) return;
    this.verdict = verdict;
    if (!this.reasons.includes(reason)) this.reasons.push(reason);
  }

  /** Something ops should know that did not lower the verdict. */
  note(detail: string): void {
    if (!this.details.includes(detail)) this.details.push(detail);
  }

  /** A generous reading (a bank cut, a middle initial or name): MATCH under the standard policy, a person's call under strict. */
  acceptUnlessStrict(detail: string): void {
    if (this.policy === 'strict') this.limit('CLOSE_MATCH', `${detail}; strict policy: a person confirms`);
    else this.note(detail);
  }

  notes(): string[] {
    return [...this.reasons, ...this.details];
  }
}

const IGNORED_KINDS = [
  ['title', 'title'],
  ['rank', 'rank'],
  ['degree', 'degree'],
] as const;

/** "titles 'H.', 'Dr.' ignored", "degree 'S.Pd.' ignored": what was set aside, once each. */
export function noteIgnoredWords(words: readonly NameWord[], outcome: Outcome): void {
  for (const [kind, name] of IGNORED_KINDS) {
    const seen = new Set<string>();
    const written: string[] = [];
    for (const word of words) {
      if (word.kind !== kind || seen.has(word.letters.replace(/ /g, ''))) continue;
      seen.add(word.letters.replace(/ /g, ''));
      written.push(quote(word.display));
    }
    if (written.length > 0) outcome.note(`${plural(written.length, name)} ${written.join(', ')} ignored`);
  }
}
