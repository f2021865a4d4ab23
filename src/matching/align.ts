// Pairs the name words of the expected name with those of the holder name, in any order (surname first,
// Chinese names, "Hutapea, Maria"), each word used at most once.
//
// Names have a handful of words, so every possible pairing is scored and the best ones are taken first (greedy
// on what a pairing proves, then on letters covered, then on keeping the written order). A weak pairing (an
// initial, a nickname) therefore never takes a word that an exact pairing needs.

import type { NameKnowledge } from './knowledge.js';
import { spelled, type NameWord } from './parse-name.js';
import { keysMeet } from './spelling.js';
import { isCutOf, joinedKeys, LINK_QUALITY, linkWords, type LinkKind } from './word-match.js';

export interface WordLink {
  /** Positions in the expected name's name words (more than one when the holder wrote them as one word). */
  expected: number[];
  holder: number[];
  kind: LinkKind;
  quality: number;
}

const MAX_JOINED_WORDS = 5;

interface Candidate extends WordLink {
  letters: number;
  drift: number;
}

function candidate(expected: number[], holder: number[], kind: LinkKind, E: readonly NameWord[], H: readonly NameWord[]): Candidate {
  const letters = expected.reduce((sum, i) => sum + spelled(E[i]!).length, 0) + holder.reduce((sum, i) => sum + spelled(H[i]!).length, 0);
  const drift = Math.abs(expected[0]! / E.length - holder[0]! / H.length);
  return { expected, holder, kind, quality: LINK_QUALITY[kind], letters, drift };
}

const range = (start: number, size: number) => Array.from({ length: size }, (_, offset) => start + offset);

/** Runs of 2-5 words on one side written as one word on the other ("EKABUDISANTOSA", "Nur Aini" / NURAINI). */
function joinCandidates(
  runSide: readonly NameWord[],
  singleSide: readonly NameWord[],
  settled: (single: number) => boolean,
  knowledge: NameKnowledge,
  emit: (run: number[], single: number) => void,
): void {
  const open = singleSide.map((word, single) => (settled(single) || spelled(word).length < 4 ? null : word));
  if (open.every((word) => word === null)) return;
  for (let start = 0; start < runSide.length; start += 1) {
    let length = 0;
    for (let size = 2; size <= MAX_JOINED_WORDS && start + size <= runSide.length; size += 1) {
      length = (size === 2 ? spelled(runSide[start]!).length : length) + spelled(runSide[start + size - 1]!).length;
      let run: number[] | null = null;
      let keys: string[] | null = null;
      for (let single = 0; single < open.length; single += 1) {
        const word = open[single];
        // Cheap tests first: the run must start like the word and be about as long (doubled letters, a vowel or two).
        if (
          word === null ||
          word === undefined ||
          word.keys[0]![0] !== runSide[start]!.keys[0]![0] ||
          Math.abs(length - spelled(word).length) > size + 1
        )
          continue;
        run ??= range(start, size);
        keys ??= joinedKeys(
          run.map((index) => runSide[index]!),
          knowledge,
        );
        if (keysMeet(keys, word.keys)) emit(run, single);
      }
    }
  }
}

/**
 * The bank cut the holder name inside its last word: that word is the start of an expected word, or, when the
 * bank wrote the name without spaces, of several expected words run together ("FITRIYANINURULHASANA" from
 * Fitriyani Nurul Hasanah Pohan). With spaces kept, a word running on past its typed word is another name
 * (FITRIANIN is not Fitriani Lubis cut).
 */
function cutCandidates(E: readonly NameWord[], H: readonly NameWord[], knowledge: NameKnowledge, emit: (run: number[]) => void): void {
  const shown = H[H.length - 1]!;
  const spacesRemoved = H.length === 1;
  for (let start = 0; start < E.length; start += 1) {
    if (E[start]!.keys[0]![0] !== shown.keys[0]![0] && spelled(E[start]!)[0] !== shown.letters[0]) continue;
    let letters = '';
    let key = '';
    for (let end = start; end < E.length; end += 1) {
      const before = letters;
      letters += spelled(E[end]!);
      key += E[end]!.keys[0]!;
      if (before.length >= shown.letters.length || (end > start && !spacesRemoved)) break;
      const keys = end === start ? E[end]!.keys : [key];
      if (isCutOf(letters, keys, shown, knowledge)) emit(range(start, end - start + 1));
    }
  }
}

const MAX_JOINED_INITIALS = 4;

/** Initials written apart on one side and together on the other ("J. B. Sutrisno" / JB SUTRISNO). */
function joinedInitials(
  runSide: readonly NameWord[],
  singleSide: readonly NameWord[],
  emit: (run: number[], single: number) => void,
): void {
  singleSide.forEach((word, single) => {
    if (word.kind !== 'name' || word.letters.length < 2 || word.letters.length > MAX_JOINED_INITIALS) return;
    for (let start = 0; start + word.letters.length <= runSide.length; start += 1) {
      const run = range(start, word.letters.length);
      if (run.every((index, offset) => runSide[index]!.kind === 'name' && runSide[index]!.letters === word.letters[offset]))
        emit(run, single);
    }
  });
}

export function alignWords(E: readonly NameWord[], H: readonly NameWord[], holderMayBeCut: boolean, knowledge: NameKnowledge): WordLink[] {
  const candidates: Candidate[] = [];
  E.forEach((e, i) => {
    H.forEach((h, j) => {
      const kind = linkWords(e, h, knowledge);
      if (kind !== null) candidates.push(candidate([i], [j], kind, E, H));
    });
  });
  if (holderMayBeCut && H.length > 0) {
    cutCandidates(E, H, knowledge, (run) => {
      if (
        run.length === 1 &&
        candidates.some((found) => found.expected[0] === run[0] && found.holder[0] === H.length - 1 && found.quality >= LINK_QUALITY.cut)
      )
        return;
      candidates.push(candidate(run, [H.length - 1], 'cut', E, H));
    });
  }
  const strongE = new Set<number>();
  const strongH = new Set<number>();
  for (const found of candidates) {
    if (found.quality < LINK_QUALITY.joined) continue;
    for (const i of found.expected) strongE.add(i);
    for (const j of found.holder) strongH.add(j);
  }
  joinCandidates(
    E,
    H,
    (j) => strongH.has(j),
    knowledge,
    (run, single) => candidates.push(candidate(run, [single], 'joined', E, H)),
  );
  joinCandidates(
    H,
    E,
    (i) => strongE.has(i),
    knowledge,
    (run, single) => candidates.push(candidate([single], run, 'joined', E, H)),
  );
  joinedInitials(E, H, (run, single) => candidates.push(candidate(run, [single], 'joined', E, H)));
  joinedInitials(H, E, (run, single) => candidates.push(candidate([single], run, 'joined', E, H)));

  // Two readings of the bank's last word as cut: the earlier expected word, as the bank cuts from the end.
  const earlierCut = (a: Candidate, b: Candidate) => (a.kind === 'cut' && b.kind === 'cut' ? a.expected[0]! - b.expected[0]! : 0);
  candidates.sort((a, b) => b.quality - a.quality || earlierCut(a, b) || b.letters - a.letters || a.drift - b.drift);

  const usedE = new Set<number>();
  const usedH = new Set<number>();
  const links: WordLink[] = [];
  for (const { expected, holder, kind, quality } of candidates) {
    if (expected.some((i) => usedE.has(i)) || holder.some((j) => usedH.has(j))) continue;
    for (const i of expected) usedE.add(i);
    for (const j of holder) usedH.add(j);
    links.push({ expected, holder, kind, quality });
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
 * The holder's order is the expected order rotated (a block moved from the front to the back: "Siregar Rudi
 * Hartono" / RUDI HARTONO SIREGAR): the two blocks, as expected positions; null for any other reshuffle.
 */
export function rotationOf(links: readonly WordLink[]): [number[], number[]] | null {
  const order = links.map((link) => link.expected[0]!);
  let descents = 0;
  let at = -1;
  for (let i = 1; i < order.length; i += 1) {
    if (order[i]! < order[i - 1]!) {
      descents += 1;
      at = i;
    }
  }
  if (descents !== 1 || order[order.length - 1]! > order[0]!) return null;
  return [order.slice(0, at), order.slice(at)];
}
