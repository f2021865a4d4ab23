// Compares the name we expect on an account with the holder name the bank returned (issue 5).
// The rules are documented for ops in the README (section "Name matching"); keep the two in step.

import { parseAccountName, type ParsedName } from './parse-name.js';
import { verdictRank } from './notes.js';
import { DEFAULT_NAME_MATCH_POLICY, type NameMatchPolicy } from './policy.js';
import { judgeNames, type NameComparison } from './verdict.js';

export type { NameComparison, NameVerdict } from './verdict.js';
export { DEFAULT_NAME_MATCH_POLICY, NAME_MATCH_POLICIES, type NameMatchPolicy } from './policy.js';

const better = (a: NameComparison, b: NameComparison) => {
  const difference = verdictRank(a.verdict) - verdictRank(b.verdict);
  return difference > 0 || (difference === 0 && a.score >= b.score) ? a : b;
};
const closeScore = (score: number) => Math.min(89, Math.max(50, score));

/**
 * One side is a QQ account ("PT ABC QQ BUDI SANTOSO": PT ABC's account, held on behalf of Budi), the other
 * names a single party. Money paid there lands with the owner whichever party we meant, so the best this can
 * be is CLOSE_MATCH, with a note saying which party matched.
 */
function compareWithQq(
  single: ParsedName,
  owner: ParsedName,
  beneficiary: ParsedName,
  qqSide: 'holder' | 'expected',
  judge: (single: ParsedName, part: ParsedName) => NameComparison,
): NameComparison {
  const asOwner = judge(single, owner);
  const asBeneficiary = judge(single, beneficiary);
  const best = better(asOwner, asBeneficiary);
  const account = `held by '${owner.display}' on behalf of '${beneficiary.display}'`;
  const what = qqSide === 'holder' ? `QQ account ${account}` : `expected name is a QQ name, ${account}`;
  if (best.verdict === 'NO_MATCH') {
    return { verdict: 'NO_MATCH', score: Math.min(best.score, 49), notes: [`${what}: neither matches`, ...best.notes] };
  }
  const party =
    best === asOwner
      ? `matches the owner '${owner.display}', but the account is earmarked for '${beneficiary.display}'`
      : `matches only '${beneficiary.display}', not the owner '${owner.display}'`;
  return { verdict: 'CLOSE_MATCH', score: closeScore(best.score), notes: [`${what}: ${qqSide === 'holder' ? 'expected' : 'holder'} name ${party}`, ...best.notes] };
}

/** `policy` is NAME_MATCH_POLICY, read once by loadConfig; see policy.ts for what it changes. */
export function compareNames(expectedName: string, holderName: string, policy: NameMatchPolicy = DEFAULT_NAME_MATCH_POLICY): NameComparison {
  const expected = parseAccountName(expectedName);
  const holder = parseAccountName(holderName);
  const judge = (a: ParsedName, b: ParsedName) => judgeNames(a, b, policy);

  if (expected.kind === 'single' && holder.kind === 'single') return judge(expected.name, holder.name);

  if (expected.kind === 'qq' && holder.kind === 'qq') {
    const owners = judge(expected.owner, holder.owner);
    const beneficiaries = judge(expected.beneficiary, holder.beneficiary);
    const worse = better(owners, beneficiaries) === owners ? beneficiaries : owners;
    return {
      verdict: worse.verdict,
      score: Math.min(owners.score, beneficiaries.score),
      notes: [
        ...owners.notes.map((note) => `owner: ${note}`),
        ...beneficiaries.notes.map((note) => `held for: ${note}`),
      ],
    };
  }

  if (holder.kind === 'qq' && expected.kind === 'single') {
    return compareWithQq(expected.name, holder.owner, holder.beneficiary, 'holder', (single, part) => judge(single, part));
  }
  if (expected.kind === 'qq' && holder.kind === 'single') {
    return compareWithQq(holder.name, expected.owner, expected.beneficiary, 'expected', (single, part) => judge(part, single));
  }
  throw new Error('unreachable');
}
