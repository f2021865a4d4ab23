// What the matcher knows about Indonesian names lives in data files (src/matching/knowledge/*.json, one concept a
// file), and a site may add entries of its own (NAME_RULES_FILE). This module says what an entry of each concept
// looks like and checks entries against it, so that a broken file is refused at start with every problem named,
// not half-read.

export type Gender = 'male' | 'female';

export interface TitleEntry {
  written: string[];
  means: string;
  kind: 'religious' | 'academic' | 'professional' | 'courtesy' | 'deceased';
  gender?: Gender;
  /** Before a man's name the title means his wife (Ny. Sugeng: the wife of Sugeng). */
  wifeOf?: boolean;
  /**
   * A woman's form of address (Ibu, Bu) that before a man's name, by custom, names his wife ("Bu Budi" is Budi's
   * wife); less sure than Ny., which says a married woman: CLOSE_MATCH before a man's name, never NO_MATCH.
   */
  wifeOfByAddress?: boolean;
  /** Also an everyday given name (Habib): on one side only it is a missing name word, not a dropped title. */
  alsoGivenName?: boolean;
  source?: string;
}

export interface DegreeEntry {
  written: string[];
  means: string;
  kind: 'diploma' | 'bachelor' | 'master' | 'doctor' | 'specialist' | 'professional' | 'religious' | 'foreign';
  /** Also a name (Ma, Me): a degree only with dots, or when the other name writes the same degree. */
  dottedOnly?: boolean;
  source?: string;
}

export interface RankEntry {
  written: string[];
  means: string;
  kind: 'rank' | 'corps' | 'status';
  force: string;
  source?: string;
}

export interface NobilityEntry {
  written: string[];
  means: string;
  kind: string;
  gender?: Gender;
  /** Also an everyday given name (Andi): on one side only it is a missing name word, not a dropped title. */
  alsoGivenName?: boolean;
  source?: string;
}

export interface BirthOrderEntry {
  written: string[];
  means: string;
  kind: string;
  position: 1 | 2 | 3 | 4;
  gender?: Gender;
  source?: string;
}

export interface ParticleEntry {
  written: string[];
  means: string;
  kind: 'gender-particle' | 'patronymic' | 'marga-marker' | 'article';
  gender?: Gender;
  /** An assimilated Arabic article (ar-, as-) stands only before a word starting with these letters. */
  before?: string;
  source?: string;
}

export interface NameAbbreviationEntry {
  written: string[];
  /** The full word(s): FX stands for two. */
  means: string[];
  kind: string;
  /** Also an ordinary initial or word: read as the full word only when the other name writes it out. */
  needsOtherSide?: boolean;
  source?: string;
}

export interface LegalFormEntry {
  written: string[];
  means: string;
  canonical: string;
  family: string;
  kind: 'form' | 'qualifier' | 'trade';
  position: 'before' | 'after' | 'either';
  /** Forms this one is a kind of (TB is a Toko, KSP a Koperasi): the two never differ. */
  covers?: string[];
  /**
   * A form whose name is the name of the organisation its members work or study at (Koperasi Karyawan PT X, the
   * cooperative of PT X's employees): with it on one side only, the two names are the cooperative and that organisation.
   */
  ofMembersOf?: boolean;
  source?: string;
}

export interface WordEntry {
  word: string;
  kind: string;
  /** organisationWords: first in a name of several words, it makes the name an organisation's. */
  opens?: boolean;
  source?: string;
}

export interface NicknameEntry {
  short: string;
  full: string[];
  kind: string;
  source?: string;
}

export interface GivenNameEntry {
  name: string;
  gender: Gender | 'unisex';
  kind: string;
  source?: string;
}

export interface NameEndingEntry {
  ending: string;
  gender: Gender;
  kind: string;
  minStem: number;
  source?: string;
}

export interface NameVariantEntry {
  words: string[];
  kind: string;
  source?: string;
}

export type RuleContext = 'anywhere' | 'start' | 'end' | 'before-vowel';

export interface SpellingRuleEntry {
  from: string;
  to: string;
  where: RuleContext;
  after?: string[];
  before?: string[];
  alsoTo?: string[];
  minLength?: number;
  kind: string;
  examples: string[];
  source?: string;
}

export interface AccountMarkerEntry {
  written: string[];
  means: string;
  kind: 'joint' | 'on-behalf-of' | 'alias' | 'role';
  /** A role only when it is the whole other name ("(ANAK)"), not when it opens one ("(Anak Agung Gede Oka)"). */
  alone?: boolean;
  source?: string;
}

export interface BankFieldWidthEntry {
  width: number;
  kind: string;
  source?: string;
}

/** Every concept, by the name its file (and a site file) uses. */
export interface KnowledgeEntries {
  titles: TitleEntry[];
  degrees: DegreeEntry[];
  ranks: RankEntry[];
  nobility: NobilityEntry[];
  birthOrder: BirthOrderEntry[];
  particles: ParticleEntry[];
  nameAbbreviations: NameAbbreviationEntry[];
  legalForms: LegalFormEntry[];
  organisationWords: WordEntry[];
  everydayNames: WordEntry[];
  surnames: WordEntry[];
  nicknames: NicknameEntry[];
  givenNames: GivenNameEntry[];
  nameEndings: NameEndingEntry[];
  nameVariants: NameVariantEntry[];
  spellingRules: SpellingRuleEntry[];
  accountMarkers: AccountMarkerEntry[];
  bankFieldWidths: BankFieldWidthEntry[];
}

export type Concept = keyof KnowledgeEntries;

// --- the schema, as data: each field's type, and whether it must be there ----------------------------------

type FieldType =
  | 'text' // a non-empty string
  | 'letters' // a name word: letters (and for written forms spaces, dots, hyphens, slashes, brackets, &)
  | 'letters[]'
  | 'text[]'
  | 'boolean'
  | 'gender'
  | 'gender-or-unisex'
  | 'position'
  | 'context'
  | 'count'
  | 'width'
  | readonly string[]; // one of these values

interface FieldSpec {
  type: FieldType;
  required: boolean;
}

const req = (type: FieldType): FieldSpec => ({ type, required: true });
const opt = (type: FieldType): FieldSpec => ({ type, required: false });
const source = opt('text');

const SCHEMA: Record<Concept, Record<string, FieldSpec>> = {
  titles: {
    written: req('letters[]'),
    means: req('text'),
    kind: req(['religious', 'academic', 'professional', 'courtesy', 'deceased']),
    gender: opt('gender'),
    wifeOf: opt('boolean'),
    wifeOfByAddress: opt('boolean'),
    alsoGivenName: opt('boolean'),
    source,
  },
  degrees: {
    written: req('letters[]'),
    means: req('text'),
    kind: req(['diploma', 'bachelor', 'master', 'doctor', 'specialist', 'professional', 'religious', 'foreign']),
    dottedOnly: opt('boolean'),
    source,
  },
  ranks: { written: req('letters[]'), means: req('text'), kind: req(['rank', 'corps', 'status']), force: req('text'), source },
  nobility: {
    written: req('letters[]'),
    means: req('text'),
    kind: req('text'),
    gender: opt('gender'),
    alsoGivenName: opt('boolean'),
    source,
  },
  birthOrder: {
    written: req('letters[]'),
    means: req('text'),
    kind: req('text'),
    position: req('position'),
    gender: opt('gender'),
    source,
  },
  particles: {
    written: req('letters[]'),
    means: req('text'),
    kind: req(['gender-particle', 'patronymic', 'marga-marker', 'article']),
    gender: opt('gender'),
    before: opt('letters'),
    source,
  },
  nameAbbreviations: { written: req('letters[]'), means: req('letters[]'), kind: req('text'), needsOtherSide: opt('boolean'), source },
  legalForms: {
    written: req('letters[]'),
    means: req('text'),
    canonical: req('letters'),
    family: req('text'),
    kind: req(['form', 'qualifier', 'trade']),
    position: req(['before', 'after', 'either']),
    covers: opt('letters[]'),
    ofMembersOf: opt('boolean'),
    source,
  },
  organisationWords: { word: req('letters'), kind: req('text'), opens: opt('boolean'), source },
  everydayNames: { word: req('letters'), kind: req('text'), source },
  surnames: { word: req('letters'), kind: req('text'), source },
  nicknames: { short: req('letters'), full: req('letters[]'), kind: req('text'), source },
  givenNames: { name: req('letters'), gender: req('gender-or-unisex'), kind: req('text'), source },
  nameEndings: { ending: req('letters'), gender: req('gender'), kind: req('text'), minStem: req('count'), source },
  nameVariants: { words: req('letters[]'), kind: req('text'), source },
  spellingRules: {
    from: req('letters'),
    to: req('letters'),
    where: req('context'),
    after: opt('letters[]'),
    before: opt('letters[]'),
    alsoTo: opt('letters[]'),
    minLength: opt('count'),
    kind: req('text'),
    examples: req('text[]'),
    source,
  },
  accountMarkers: {
    written: req('letters[]'),
    means: req('text'),
    kind: req(['joint', 'on-behalf-of', 'alias', 'role']),
    alone: opt('boolean'),
    source,
  },
  bankFieldWidths: { width: req('width'), kind: req('text'), source },
};

export const CONCEPTS = Object.keys(SCHEMA) as Concept[];

// Written forms may carry what people type around letters: "S.Pd.I", "Sp.THT-KL", "(Persero)", "DAN/ATAU", "&", "@".
const WRITTEN_FORM = /^[A-Za-z0-9 .,'()\-/&@]*[A-Za-z&/@][A-Za-z0-9 .,'()\-/&@]*$/;
const CONTEXTS = ['anywhere', 'start', 'end', 'before-vowel'];
/** Bank name fields hold 20 to 50 characters; a narrower one would cut most names inside their first words. */
const MIN_FIELD_WIDTH = 20;
const MAX_FIELD_WIDTH = 50;

function checkValue(type: FieldType, value: unknown): string | null {
  const isText = (item: unknown) => typeof item === 'string' && item.trim() !== '';
  const isLetters = (item: unknown) => typeof item === 'string' && WRITTEN_FORM.test(item);
  if (Array.isArray(type))
    return typeof value === 'string' && type.includes(value) ? null : `must be one of ${type.map((item) => `"${item}"`).join(', ')}`;
  switch (type) {
    case 'text':
      return isText(value) ? null : 'must be a non-empty string';
    case 'letters':
      return isLetters(value) ? null : 'must be a word (letters, and dots, spaces or hyphens as written)';
    case 'letters[]':
      return Array.isArray(value) && value.length > 0 && value.every(isLetters) ? null : 'must be a non-empty list of words';
    case 'text[]':
      return Array.isArray(value) && value.length > 0 && value.every(isText) ? null : 'must be a non-empty list of strings';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'gender':
      return value === 'male' || value === 'female' ? null : 'must be "male" or "female"';
    case 'gender-or-unisex':
      return value === 'male' || value === 'female' || value === 'unisex' ? null : 'must be "male", "female" or "unisex"';
    case 'position':
      return value === 1 || value === 2 || value === 3 || value === 4 ? null : 'must be 1, 2, 3 or 4';
    case 'context':
      return typeof value === 'string' && CONTEXTS.includes(value)
        ? null
        : `must be one of ${CONTEXTS.map((item) => `"${item}"`).join(', ')}`;
    case 'count':
      return Number.isInteger(value) && (value as number) >= 0 ? null : 'must be a whole number of 0 or more';
    case 'width':
      return Number.isInteger(value) && (value as number) >= MIN_FIELD_WIDTH && (value as number) <= MAX_FIELD_WIDTH
        ? null
        : `must be a whole number from ${MIN_FIELD_WIDTH} to ${MAX_FIELD_WIDTH}`;
    default:
      return null;
  }
}

/** Problems of one concept's entries, each naming where it is ("titles[3].gender: must be ..."); empty when all is well. */
export function entryProblems(concept: Concept, entries: unknown, where: string): string[] {
  if (!Array.isArray(entries)) return [`${where}${concept}: must be a list of entries`];
  const fields = SCHEMA[concept];
  const problems: string[] = [];
  entries.forEach((entry, index) => {
    const at = `${where}${concept}[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at}: must be an object`);
      return;
    }
    const record = entry as Record<string, unknown>;
    for (const [field, spec] of Object.entries(fields)) {
      if (!(field in record)) {
        if (spec.required) problems.push(`${at}.${field}: missing`);
        continue;
      }
      const problem = checkValue(spec.type, record[field]);
      if (problem !== null) problems.push(`${at}.${field}: ${problem} (found ${JSON.stringify(record[field])})`);
    }
    for (const field of Object.keys(record)) {
      if (!(field in fields)) problems.push(`${at}.${field}: unknown field (known: ${Object.keys(fields).join(', ')})`);
    }
  });
  return problems;
}
