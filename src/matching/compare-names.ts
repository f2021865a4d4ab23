// Compares the name we expect on an account with the holder name the bank returned (issues 5, 13, 26).
// The rules are documented for ops in the README (section "Name matching"); keep the two in step.
//
// parse (account structure, then typed words, in every reading) -> align (name words) -> decide (verdict.ts) ->
// explain (the notes). What the matcher knows about names is data: src/matching/knowledge/, plus a site's
// NAME_RULES_FILE.

import { readAccountName, type Party } from './account.js';
import { BUILT_IN_KNOWLEDGE, type Gender, type NameKnowledge } from './knowledge.js';
import { tokenize, visibleLength, type Token } from './normalise.js';
import { verdictRank } from './notes.js';
import { readName } from './parse-name.js';
import { DEFAULT_NAME_MATCH_POLICY, type NameMatchPolicy } from './policy.js';
import { isBlank, judgeNames, MAX_BANK_WIDTH, MIN_BANK_WIDTH, type NameComparison } from './verdict.js';

export type { NameComparison, NameVerdict } from './verdict.js';

/** How names are compared: NAME_MATCH_POLICY and the knowledge (built in, plus a site's NAME_RULES_FILE), both read at start. */
export interface NameMatching {
  policy: NameMatchPolicy;
  knowledge: NameKnowledge;
}

/** The default: the standard policy and the built-in knowledge. */
export const DEFAULT_NAME_MATCHING: NameMatching = { policy: DEFAULT_NAME_MATCH_POLICY, knowledge: BUILT_IN_KNOWLEDGE };
export { DEFAULT_NAME_MATCH_POLICY, NAME_MATCH_POLICIES, type NameMatchPolicy } from './policy.js';

const better = (a: NameComparison, b: NameComparison) => {
  const difference = verdictRank(a.verdict) - verdictRank(b.verdict);
  return difference > 0 || (difference === 0 && a.score >= b.score) ? a : b;
};
const closeScore = (score: number) => Math.min(89, Math.max(50, score));
const display = (party: Party) => party[0]?.map((token) => token.letters).join(' ') ?? '';

/**
 * One party against one party: every alias of each, every reading of each name; the best comparison. The
 * holder's party at the end of the account name is the one a bank cut can reach (`shown` characters).
 */
function compareParties(expected: Party, holder: Party, shown: number, policy: NameMatchPolicy, knowledge: NameKnowledge): NameComparison {
  let best: NameComparison | null = null;
  const expectedGenders = expected.map((name) => genderOfName(name, knowledge));
  const holderGenders = holder.map((name) => genderOfName(name, knowledge));
  expected.forEach((expectedName, expectedAlias) => {
    holder.forEach((holderName, holderAlias) => {
      const holderShown = holderAlias === holder.length - 1 ? shown : 0;
      const holderReadings = readName(holderName, knowledge, holderShown);
      const expectedReadings = readName(expectedName, knowledge, 0);
      // The plain reading of a name that is only titles ("H.", "Ibu") names nobody, whatever other readings say.
      const blank = [expectedReadings[0]!, holderReadings[0]!].find(isBlank);
      if (blank !== undefined) {
        const side = blank === expectedReadings[0] ? 'expected' : 'holder';
        best ??= {
          verdict: 'NO_MATCH',
          score: 0,
          notes: [`${side} name has no name, only ${blank.words.map((word) => `'${word.display}'`).join(', ')}`],
        };
        return;
      }
      for (const expectedReading of expectedReadings) {
        for (const holderReading of holderReadings) {
          const judged = judgeNames(expectedReading, holderReading, policy, knowledge);
          if (judged === null) continue;
          const aliasNotes = [
            ...(expectedAlias > 0 ? [`${quoteName(expectedName)} read as the other name of ${quoteName(expected[0]!)}`] : []),
            ...(expectedAlias === 0 && expected.length > 1
              ? [`other name ${expected.slice(1).map(quoteName).join(', ')} in the expected name set aside, the main name matches`]
              : []),
            ...(holderAlias > 0 ? [`holder's other name ${quoteName(holderName)} compared`] : []),
          ];
          const otherPerson =
            besideTheName(expected, expectedAlias, 'payee', knowledge) ??
            besideTheName(holder, holderAlias, 'holder', knowledge) ??
            otherGender(expected, expectedGenders, expectedAlias, 'payee') ??
            otherGender(holder, holderGenders, holderAlias, 'holder') ??
            (holderAlias === 0 ? besideTheHolder(holder, holderGenders) : null);
          const limited =
            otherPerson === null || judged.verdict === 'NO_MATCH'
              ? judged
              : { verdict: 'CLOSE_MATCH' as const, score: closeScore(judged.score), notes: [otherPerson, ...judged.notes] };
          // A plain other name of the holder beside the name that matched is said, not silently dropped.
          const holderAside =
            holderAlias === 0 && holder.length > 1 && otherPerson === null
              ? [`holder's other name ${holder.slice(1).map(quoteName).join(', ')} set aside, the main name matches`]
              : [];
          const comparison = { ...limited, notes: [...limited.notes, ...aliasNotes, ...holderAside] };
          best = best === null ? comparison : better(best, comparison);
        }
      }
    });
  });
  return best ?? { verdict: 'NO_MATCH', score: 0, notes: ['no name to compare'] };
}

/** Whose name it is, by its first name word whose gender the knowledge knows (a listed given name, a gendered ending). */
function genderOfName(name: Party[number], knowledge: NameKnowledge): Gender | null {
  for (const word of readName(name, knowledge, 0)[0]?.words ?? []) {
    if (word.kind !== 'name' || word.part !== 'own') continue;
    const gender = knowledge.genderOf(word.reads, word.keys);
    if (gender !== null) return gender;
  }
  return null;
}

const whose = (gender: Gender) => (gender === 'male' ? "a man's" : "a woman's");

/**
 * A man's name given as a woman's other name, or the other way round ("Siti Aminah (Budi Santoso)"): someone else
 * named beside her (her father, husband, a guardian), not her alias. Null when the other name compared is no such.
 */
function otherGender(party: Party, genders: ReadonlyArray<Gender | null>, alias: number, who: string): string | null {
  const main = genders[0] ?? null;
  const other = genders[alias] ?? null;
  if (alias === 0 || main === null || other === null || main === other) return null;
  return `${quoteName(party[alias]!)} is ${whose(other)} name, ${quoteName(party[0]!)} ${whose(main)}: someone else named beside the ${who}, not an other name`;
}

/**
 * What an other name (in brackets, after alias) says when it is no name: the holder marked deceased ("(WAFAT)",
 * "(MENINGGAL DUNIA)"), a role or relation ("(AHLI WARIS)", "(WALI)", "(ISTRI)", "(Ayah Budi Santoso)"), or
 * someone addressed by a courtesy title ("(Bapak Budi Santoso)", "(Ibu Budi Santoso)"): someone else than the
 * name's owner. Null for a plain other name.
 */
function asideOf(name: Party[number], side: string, knowledge: NameKnowledge): { note: string; always: boolean } | null {
  const words = name.map((token) => token.letters);
  const sameChunk = (from: number, to: number) => name[from]!.chunk === name[to]!.chunk;
  const title = knowledge.titles.match(words, 0, sameChunk);
  // A deceased mark anywhere in it ("ALS LIEM HEN DJIE (ALM)": the bracket joins the other name).
  const deceased = words.some((_, at) => knowledge.titles.match(words, at, sameChunk)?.value.kind === 'deceased');
  if (deceased)
    return {
      note: `${side} name marked deceased (${quoteName(name)}): paying the account of someone who died needs a person`,
      always: true,
    };
  const role = knowledge.accountMarkers.match(words, 0, sameChunk);
  if (role !== null && role.value.kind === 'role' && (!role.value.alone || role.length === words.length))
    return {
      note: `${quoteName(name)} beside the ${side} name is a role, ${role.value.means}, not a name: someone else may be paid`,
      // On the payee side a role alone ("Budi Santoso (Ayah)", "(Wali)") says who the payee is: no one else.
      always: false,
    };
  if (title !== null && title.value.kind === 'courtesy' && title.length < words.length)
    return {
      note: `${quoteName(name)} beside the ${side} name addresses someone by a courtesy title ('${words.slice(0, title.length).join(' ')}'): someone else named beside the name, not an other name`,
      always: false,
    };
  return null;
}

/**
 * An other name that is no name (asideOf) makes the account someone else's to look at: on the holder side
 * whichever name matched ("BUDI SANTOSO (AHLI WARIS)"); on the payee side the one that matched ("Andi Pratama
 * (Bapak Budi Santoso)" / BUDI SANTOSO pays the father), or a deceased mark anywhere.
 */
function besideTheName(party: Party, compared: number, who: 'payee' | 'holder', knowledge: NameKnowledge): string | null {
  const side = who === 'payee' ? 'expected' : 'holder';
  for (let alias = 1; alias < party.length; alias += 1) {
    const aside = asideOf(party[alias]!, side, knowledge);
    if (aside !== null && (who === 'holder' || alias === compared || aside.always)) return aside.note;
  }
  return null;
}

/** The holder's main name matched, and an other name of the other gender stands beside it ("BAMBANG SUTRISNO ALS SITI"). */
function besideTheHolder(holder: Party, genders: ReadonlyArray<Gender | null>): string | null {
  for (let alias = 1; alias < holder.length; alias += 1) {
    const named = otherGender(holder, genders, alias, 'holder');
    if (named !== null) return named;
  }
  return null;
}

/** Every order of `count` parties (joint accounts name two or three). */
function permutations(count: number): number[][] {
  if (count <= 1) return [[0]];
  return permutations(count - 1).flatMap((order) =>
    Array.from({ length: count }, (_, at) => [...order.slice(0, at), count - 1, ...order.slice(at)]),
  );
}

/** Written forms of qq itself; other on-behalf-of markers (U/P) are named as written. */
const QQ_MARKERS = new Set(['QQ', 'QUALITATEQUA']);
const quoteName = (tokens: Party[number]) => `'${tokens.map((token) => token.letters).join(' ')}'`;

/**
 * One side names several parties (a qq account, a joint account), the other one. Money paid there may land with
 * another party, so the best this can be is CLOSE_MATCH, with a note saying which party matched.
 */
function oneOfSeveral(
  single: Party,
  parties: readonly Party[],
  describe: string,
  compare: (single: Party, party: Party, index: number) => NameComparison,
): NameComparison {
  let best: NameComparison | null = null;
  let matched = -1;
  parties.forEach((party, index) => {
    if (party.length === 0) return;
    const comparison = compare(single, party, index);
    if (best === null || better(comparison, best) === comparison) {
      best = comparison;
      matched = index;
    }
  });
  const found = best as NameComparison | null;
  if (found === null || found.verdict === 'NO_MATCH') {
    return {
      verdict: 'NO_MATCH',
      score: Math.min(found?.score ?? 0, 49),
      notes: [`${describe}: no party is the same name`, ...(found?.notes ?? [])],
    };
  }
  return {
    verdict: 'CLOSE_MATCH',
    score: closeScore(found.score),
    notes: [`${describe}: ${quoteName(parties[matched]![0]!)} matches, the account is not only theirs`, ...found.notes],
  };
}

/** `policy` is NAME_MATCH_POLICY and `knowledge` the built-in knowledge plus NAME_RULES_FILE, both read once at start. */
export function compareNames(
  expectedName: string,
  holderName: string,
  policy: NameMatchPolicy = DEFAULT_NAME_MATCH_POLICY,
  knowledge: NameKnowledge = BUILT_IN_KNOWLEDGE,
): NameComparison {
  const expectedTokens = tokenize(expectedName);
  const holderTokens = tokenize(holderName);
  if (expectedTokens.length === 0 || holderTokens.length === 0) {
    return { verdict: 'NO_MATCH', score: 0, notes: [expectedTokens.length === 0 ? 'expected name is empty' : 'holder name is empty'] };
  }
  const shown = visibleLength(holderName);
  const joining = cutJoiningWord(expectedTokens, holderTokens, shown, knowledge);
  if (joining === undefined) return compareAccountNames(expectedTokens, holderTokens, shown, policy, knowledge);
  // The words before the piece are whole: compared as a name no cut reached (0 characters shown to a cut).
  const compared = compareAccountNames(expectedTokens, holderTokens.slice(0, -1), 0, policy, knowledge);
  return { ...compared, notes: [...compared.notes, `'${holderTokens.at(-1)!.letters}' read as the start of '${joining}', cut`] };
}

/**
 * The bank cut the holder name inside a word that joins two names of the expected one (`... ATTAS BI` of `Al-Attas
 * bin Ali`, `... SYAHRANI BIN` of `binti`, `... WATTIMENA DA` of `dan`): that piece is no word of the holder's,
 * and the words before it are compared as they are, the father's name or the other holder it joined hidden by
 * the cut (the rules for a name without them apply: a father's name on one side only is the same person, a joint
 * account's other holder is for a person to look at). The word it starts, or undefined when it is no such cut.
 */
function cutJoiningWord(expected: readonly Token[], holder: readonly Token[], shown: number, knowledge: NameKnowledge): string | undefined {
  const last = holder.at(-1)!;
  if (holder.length < 2 || shown < MIN_BANK_WIDTH || shown > MAX_BANK_WIDTH || last.bracket !== 0) return undefined;
  const joins = (word: string) =>
    knowledge.particles.get(word)?.kind === 'patronymic' ||
    ['joint', 'on-behalf-of', 'alias'].includes(knowledge.accountMarkers.get(word)?.kind ?? '');
  return expected
    .slice(1)
    .map((token) => token.letters)
    .find((word) => word.length > last.letters.length && word.startsWith(last.letters) && joins(word));
}

/** Expected and holder names, read into their parties (account.ts), compared party by party. */
function compareAccountNames(
  expectedTokens: readonly Token[],
  holderTokens: readonly Token[],
  shown: number,
  policy: NameMatchPolicy,
  knowledge: NameKnowledge,
): NameComparison {
  const expected = readAccountName(expectedTokens, knowledge);
  const holder = readAccountName(holderTokens, knowledge);
  const parties = (name: typeof expected): Party[] =>
    name.kind === 'single' ? [name.party] : name.kind === 'qq' ? [name.owner, name.beneficiary] : name.parties;
  const compare = (e: Party, h: Party, holderIsLast: boolean) => compareParties(e, h, holderIsLast ? shown : 0, policy, knowledge);

  if (expected.kind === 'single' && holder.kind === 'single') return compare(expected.party, holder.party, true);

  const expectedParties = parties(expected);
  const holderParties = parties(holder);
  if (expected.kind !== 'single' && holder.kind !== 'single') {
    // Both name several parties: each party against its counterpart, in order; the worst decides.
    if (expected.kind !== holder.kind || expectedParties.length !== holderParties.length) {
      const best = oneOfSeveral(expectedParties[0]!, holderParties, 'the names have different parties', (single, party, index) =>
        compare(single, party, index === holderParties.length - 1),
      );
      return { ...best, verdict: best.verdict === 'NO_MATCH' ? 'NO_MATCH' : 'CLOSE_MATCH' };
    }
    // The parties in the order written, or (for a joint account) in any order: "A & B" is "B DAN A".
    const orders = expected.kind === 'joint' ? permutations(holderParties.length) : [holderParties.map((_, index) => index)];
    let best: { each: NameComparison[]; worst: NameComparison } | null = null;
    for (const order of orders) {
      const each = expectedParties.map((party, index) =>
        compare(party, holderParties[order[index]!]!, order[index] === holderParties.length - 1),
      );
      const worst = each.reduce((a, b) => (better(a, b) === a ? b : a));
      if (best === null || better(worst, best.worst) === worst) best = { each, worst };
    }
    const { each, worst } = best!;
    return {
      verdict: worst.verdict,
      score: Math.min(...each.map((comparison) => comparison.score)),
      notes: each.flatMap((comparison, index) => comparison.notes.map((note) => `${display(expectedParties[index]!)}: ${note}`)),
    };
  }
  // What a name of several parties is, for the note ("qq account of A held for B", "account of A with B named after 'U/P'").
  const severalOf = (name: Exclude<typeof expected, { kind: 'single' }>): string =>
    name.kind === 'qq'
      ? QQ_MARKERS.has(name.marker.replace(/ /g, ''))
        ? `qq account of ${quoteName(name.owner[0] ?? [])} held for ${quoteName(name.beneficiary[0] ?? [])}`
        : `account of ${quoteName(name.owner[0] ?? [])} with ${quoteName(name.beneficiary[0] ?? [])} named after '${name.marker}'`
      : `joint account of ${name.parties.map((party) => quoteName(party[0] ?? [])).join(' and ')}${name.parties.length === 1 ? ' and a holder the bank cut off' : ''}`;
  if (holder.kind !== 'single' && expected.kind === 'single') {
    const describe = severalOf(holder);
    return oneOfSeveral(expected.party, holderParties, describe, (single, party, index) =>
      compare(single, party, index === holderParties.length - 1),
    );
  }
  const single = holder.kind === 'single' ? holder.party : [];
  const describe = expected.kind === 'single' ? 'the expected name' : `the expected name is the ${severalOf(expected)}`;
  return oneOfSeveral(single, expectedParties, describe, (holderParty, party) => compare(party, holderParty, true));
}
