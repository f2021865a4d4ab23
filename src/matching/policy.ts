// NAME_MATCH_POLICY: how generously the matcher may read a name before it asks a person (README, "Name
// matching", section "Policy").
//   standard - the default: besides the same words (after titles, case, spelling variants, Muhammad
//              abbreviations, joined words, dropped prefix words), a bank-truncated name whose shown words
//              identify the person, a middle initial and a middle name on one side only are MATCH;
//   strict   - only the same words are MATCH; those three readings are CLOSE_MATCH, so a person sees them.

export const NAME_MATCH_POLICIES = ['standard', 'strict'] as const;

export type NameMatchPolicy = (typeof NAME_MATCH_POLICIES)[number];

export const DEFAULT_NAME_MATCH_POLICY: NameMatchPolicy = 'standard';
