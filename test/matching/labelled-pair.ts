// What a labelled pair is, and the helpers the hand-written lists and the generator share.
//
// Labels say what a careful payments-ops person would conclude from the two strings alone:
//   same      - the account belongs to the expected person or company; pay without asking;
//   different - the holder is somebody else; do not pay;
//   review    - the strings cannot settle it (a missing word, a bare initial, a QQ account, another legal
//               form, one letter that may be a typo or another name): a person has to look, so CLOSE_MATCH
//               is the right answer.
// Holder names are written as banks return them: uppercase, titles kept or dropped, and long names cut at the
// bank's field width (`bankCut`), which often lands in the middle of a word.

export type PairLabel = 'same' | 'different' | 'review';

export type PairTopic =
  | 'basic'
  | 'titles'
  | 'truncation'
  | 'muhammad'
  | 'initials'
  | 'old-spelling'
  | 'variants'
  | 'typos'
  | 'word-order'
  | 'split-join'
  | 'bin-binti'
  | 'prefixes'
  | 'company'
  | 'legal-form'
  | 'qq'
  | 'shared-word'
  | 'unrelated'
  | 'partial'
  | 'single-word'
  | 'joining'
  | 'one-letter'
  | 'middle-name'
  | 'gender'
  | 'father-son';

export interface LabelledPair {
  topic: PairTopic;
  expected: string;
  holder: string;
  label: PairLabel;
}

/** What a core-banking system does to a name longer than its field: keeps the first `length` characters. */
export function bankCut(holderName: string, length: number): string {
  return holderName.slice(0, length).trimEnd();
}

/** Collects pairs through `same(topic, expected, holder)`, `different(...)`, `review(...)`. */
export function pairList() {
  const pairs: LabelledPair[] = [];
  const add = (label: PairLabel) => (topic: PairTopic, expected: string, holder: string) => {
    pairs.push({ topic, expected, holder, label });
  };
  return { pairs, same: add('same'), different: add('different'), review: add('review') };
}
