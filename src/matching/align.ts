// Pairs the words of the expected name with the words of the holder name, in any order (surname first,
// Chinese names, "Hutapea, Maria"), each word used at most once.
//
// Names have a handful of words, so every possible pairing is scored and the best ones are taken first
// (greedy on quality, then on letters covered, then on keeping the written order). A weak pairing (an
// initial, a typo) therefore never takes a word that an exact pairing needs.

import type { NameWord } from './parse-name.js';
import { isCutOf, joinedKeys, LINK_QUALITY, linkWords, type LinkKind } from './word-match.js';

export interface WordLink {
  /** Indices into the expected name's words (more than one when the holder wrote them as one word). */
  expected: number[];
  holder: number[];
  kind: LinkKind;
  quality: number;
}

const MAX_JOINED_WORDS = 3;

interface Candidate extends WordLink {
  letters: number;
  drift: number;
}

function candidate(
  expected: number[],
  holder: number[],
  kind: LinkKind,
  expectedWords: readonly NameWord[],
  holderWords: readonly NameWord[],
): Candidate {
  const letters =
    expected.reduce((sum, index) => sum + expectedWords[index]!.letters.length, 0) +
    holder.reduce((sum, index) => sum + holderWords[index]!.letters.length, 0);
  const drift = Math.abs(expected[0]! / expectedWords.length - holder[0]! / holderWords.length);
  return { expected, holder, kind, quality: LINK_QUALITY[kind], letters, drift };
}

/**
 * Runs of 2-3 words on one side written as one word on the other. Only words still without a partner as good as
 * a joined pair are worth trying: in the usual case (every word found as such) nothing is computed at all.
 */
function joinCandidates(
  runSide: readonly NameWord[],
  runSideSettled: readonly boolean[],
  singleSide: readonly NameWord[],
  singleSideSettled: readonly boolean[],
  emit: (run: number[], single: number) => void,
): void {
  if (singleSideSettled.every(Boolean)) return;
  for (let start = 0; start < runSide.length; start += 1) {
    for (let size = 2; size <= MAX_JOINED_WORDS && start + size <= runSide.length; size += 1) {
      const run = Array.from({ length: size }, (_, offset) => start + offset);
      if (run.every((index) => runSideSettled[index])) continue;
      const keys = joinedKeys(run.map((index) => runSide[index]!));
      singleSide.forEach((word, single) => {
        if (singleSideSettled[single]) return;
        if (keys.includes(word.key) || (word.altKey !== null && keys.includes(word.altKey))) emit(run, single);
      });
    }
  }
}

export function alignWords(
  expected: readonly NameWord[],
  holder: readonly NameWord[],
  holderMayBeCut: boolean,
): WordLink[] {
  const candidates: Candidate[] = [];
  const lastHolder = holder.length - 1;

  expected.forEach((expectedWord, e) => {
    holder.forEach((holderWord, h) => {
      const kind = linkWords(expectedWord, holderWord);
      if (kind !== null) candidates.push(candidate([e], [h], kind, expected, holder));
      const better = kind !== null && LINK_QUALITY[kind] >= LINK_QUALITY.cut;
      if (holderMayBeCut && h === lastHolder && !better && isCutOf(expectedWord, holderWord)) {
        candidates.push(candidate([e], [h], 'cut', expected, holder));
      }
    });
  });
  const expectedSettled = expected.map(() => false);
  const holderSettled = holder.map(() => false);
  for (const found of candidates) {
    if (found.quality < LINK_QUALITY.joined) continue;
    expectedSettled[found.expected[0]!] = true;
    holderSettled[found.holder[0]!] = true;
  }
  joinCandidates(expected, expectedSettled, holder, holderSettled, (run, single) =>
    candidates.push(candidate(run, [single], 'joined', expected, holder)),
  );
  joinCandidates(holder, holderSettled, expected, expectedSettled, (run, single) =>
    candidates.push(candidate([single], run, 'joined', expected, holder)),
  );

  // Two readings of the bank's last word as cut: the earlier expected word, as the bank cuts from the end.
  const earlierCut = (a: Candidate, b: Candidate) => (a.kind === 'cut' && b.kind === 'cut' ? a.expected[0]! - b.expected[0]! : 0);
  candidates.sort((a, b) => b.quality - a.quality || earlierCut(a, b) || b.letters - a.letters || a.drift - b.drift);

  const usedExpected = new Set<number>();
  const usedHolder = new Set<number>();
  const links: WordLink[] = [];
  for (const { expected: e, holder: h, kind, quality } of candidates) {
    if (e.some((index) => usedExpected.has(index)) || h.some((index) => usedHolder.has(index))) continue;
    e.forEach((index) => usedExpected.add(index));
    h.forEach((index) => usedHolder.add(index));
    links.push({ expected: e, holder: h, kind, quality });
  }
  return links.sort((a, b) => a.holder[0]! - b.holder[0]!);
}

/** True when the linked words appear in the same order in both names. */
export function keepsWordOrder(links: readonly WordLink[]): boolean {
  let previous = -1;
  for (const link of links) {
    const first = link.expected[0]!;
    if (first < previous) return false;
    previous = link.expected[link.expected.length - 1]!;
  }
  return true;
}

/**
 * True when the holder's order is the expected order rotated, as when a surname is written first
 * ("Siregar Rudi Hartono" / "RUDI HARTONO SIREGAR", "Tan Siok Hwa" / "SIOK HWA TAN"). Any other reshuffle
 * ("TAN HWA SIOK") turns the given name into another one.
 */
export function isRotatedOrder(links: readonly WordLink[]): boolean {
  const order = links.map((link) => link.expected[0]!);
  let descents = 0;
  for (let i = 1; i < order.length; i += 1) if (order[i]! < order[i - 1]!) descents += 1;
  if (descents === 0) return true;
  return descents === 1 && order[order.length - 1]! < order[0]!;
}
