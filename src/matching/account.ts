// Who an account name names: one party, a qq account ("PT ABC QQ BUDI SANTOSO": PT ABC's account, held on behalf
// of Budi; "BUDI SANTOSO U/P SITI", for the attention of Siti, reads the same way), or a joint account ("RONALD TUMBELAKA & GRACE LUMENTA", "A DAN/ATAU B", "A/B"); and for each party
// its aliases ("Hendrawan Salim (Liem Hen Djie)", "Gunawan Wibisono alias Go Tjie Hwat"). The words that split
// a name are data (knowledge/account-markers.json).
//
// Inside a company name (one that starts or ends with a legal form) "&" and "dan" are words of the name
// ("KAP Hendrawan & Rekan"), never two holders.

import type { NameKnowledge } from './knowledge.js';
import type { Token } from './normalise.js';
import { isCompanyName } from './parse-name.js';

/** One party: its name, then any aliases. */
export type Party = Token[][];

export type AccountName =
  | { kind: 'single'; party: Party }
  | {
      kind: 'qq';
      owner: Party;
      beneficiary: Party;
      /** The marker as written: QQ, Q Q, U/P, UNTUK PERHATIAN. */
      marker: string;
    }
  | { kind: 'joint'; parties: Party[] };

const sameChunk = (tokens: readonly Token[]) => (from: number, to: number) => tokens[from]!.chunk === tokens[to]!.chunk;

interface Marker {
  kind: 'joint' | 'on-behalf-of' | 'alias' | 'role';
  start: number;
  length: number;
}

function markersIn(tokens: readonly Token[], knowledge: NameKnowledge): Marker[] {
  const words = tokens.map((token) => token.letters);
  const markers: Marker[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    if (tokens[index]!.bracket !== 0) continue;
    const found = knowledge.accountMarkers.match(words, index, sameChunk(tokens));
    if (found === null) continue;
    markers.push({ kind: found.value.kind, start: index, length: found.length });
    index += found.length - 1;
  }
  return markers;
}

/** A bracketed group that is not a qualifier, rank, degree or title ("(Persero)", "(Purn.)", "(K)") is another name. */
function isAliasGroup(group: readonly Token[], knowledge: NameKnowledge): boolean {
  return !group.every((token) => {
    const word = token.letters;
    return (
      knowledge.legalForms.get(word) !== undefined ||
      knowledge.ranks.get(word) !== undefined ||
      knowledge.degrees.has(word) ||
      knowledge.titles.get(word) !== undefined ||
      word.length === 1
    );
  });
}

function splitAliases(tokens: readonly Token[], knowledge: NameKnowledge): Party {
  const names: Token[][] = [];
  let main: Token[] = [];
  const groups = new Map<number, Token[]>();
  for (const token of tokens) {
    if (token.bracket === 0) main.push(token);
    else groups.set(token.bracket, [...(groups.get(token.bracket) ?? []), token]);
  }
  for (const group of groups.values()) {
    if (isAliasGroup(group, knowledge)) names.push(group.map((token) => ({ ...token, bracket: 0 })));
    else main = [...main, ...group].sort((a, b) => tokens.indexOf(a) - tokens.indexOf(b));
  }
  // "X alias Y", "X als. Y", "X d/h Y"
  const aliasMarker = markersIn(main, knowledge).find(
    (marker) => marker.kind === 'alias' && marker.start > 0 && marker.start + marker.length < main.length,
  );
  if (aliasMarker !== undefined) {
    names.unshift(main.slice(aliasMarker.start + aliasMarker.length));
    main = main.slice(0, aliasMarker.start);
  }
  return [main, ...names].filter((name) => name.length > 0);
}

export function readAccountName(tokens: readonly Token[], knowledge: NameKnowledge): AccountName {
  const markers = markersIn(tokens, knowledge);
  const qq = markers.find((marker) => marker.kind === 'on-behalf-of' && marker.start > 0 && marker.start + marker.length < tokens.length);
  if (qq !== undefined) {
    return {
      kind: 'qq',
      owner: splitAliases(tokens.slice(0, qq.start), knowledge),
      beneficiary: splitAliases(tokens.slice(qq.start + qq.length), knowledge),
      marker: tokens
        .slice(qq.start, qq.start + qq.length)
        .map((token) => token.letters)
        .join(' ')
        .replace(/ ?\/ ?/g, '/'),
    };
  }
  if (!isCompanyName(tokens, knowledge)) {
    // A trailing separator is a joint name cut by the bank after it ("BAYU FIRMANSYAH DAN/ATAU").
    const joints = markers.filter((marker) => marker.kind === 'joint' && marker.start > 0);
    if (joints.length > 0) {
      const parties: Party[] = [];
      let from = 0;
      for (const marker of joints) {
        parties.push(splitAliases(tokens.slice(from, marker.start), knowledge));
        from = marker.start + marker.length;
      }
      parties.push(splitAliases(tokens.slice(from), knowledge));
      // Cut after the separator: the other holder is hidden, not an empty name (which matches nobody).
      return { kind: 'joint', parties: parties.filter((party) => party.length > 0) };
    }
  }
  return { kind: 'single', party: splitAliases(tokens, knowledge) };
}
