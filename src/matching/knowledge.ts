// The matcher's knowledge of Indonesian names, read from the data files under src/matching/knowledge/ (checked
// when this module loads: a broken built-in file is a bug and stops everything) plus what a site adds through
// NAME_RULES_FILE (checked by parseNameRules, which the configuration calls at start). Compiled once into the
// lookups the parser and the aligner use.

import accountMarkers from './knowledge/account-markers.json' with { type: 'json' };
import bankFieldWidths from './knowledge/bank-field-widths.json' with { type: 'json' };
import birthOrder from './knowledge/birth-order.json' with { type: 'json' };
import degrees from './knowledge/degrees.json' with { type: 'json' };
import everydayNames from './knowledge/everyday-names.json' with { type: 'json' };
import givenNames from './knowledge/given-names.json' with { type: 'json' };
import legalForms from './knowledge/legal-forms.json' with { type: 'json' };
import nameAbbreviations from './knowledge/name-abbreviations.json' with { type: 'json' };
import nameEndings from './knowledge/name-endings.json' with { type: 'json' };
import nameVariants from './knowledge/name-variants.json' with { type: 'json' };
import nicknames from './knowledge/nicknames.json' with { type: 'json' };
import nobility from './knowledge/nobility.json' with { type: 'json' };
import organisationWords from './knowledge/organisation-words.json' with { type: 'json' };
import particles from './knowledge/particles.json' with { type: 'json' };
import ranks from './knowledge/ranks.json' with { type: 'json' };
import spellingRules from './knowledge/spelling-rules.json' with { type: 'json' };
import surnames from './knowledge/surnames.json' with { type: 'json' };
import titles from './knowledge/titles.json' with { type: 'json' };
import {
  CONCEPTS,
  entryProblems,
  type Concept,
  type Gender,
  type KnowledgeEntries,
  type LegalFormEntry,
  type NameAbbreviationEntry,
  type ParticleEntry,
} from './knowledge-schema.js';
import { foldDiacritics } from './normalise.js';
import { compileSpelling, type CompiledSpelling } from './spelling.js';

export type { Concept, Gender, KnowledgeEntries } from './knowledge-schema.js';

interface KnowledgeFile {
  concept: string;
  version: string;
  entries: unknown[];
}

const FILES: Record<Concept, KnowledgeFile> = {
  titles,
  degrees,
  ranks,
  nobility,
  birthOrder,
  particles,
  nameAbbreviations,
  legalForms,
  organisationWords,
  everydayNames,
  surnames,
  nicknames,
  givenNames,
  nameEndings,
  nameVariants,
  spellingRules,
  accountMarkers,
  bankFieldWidths,
};

/** Entries a site adds (NAME_RULES_FILE), by concept. */
export type NameRules = Partial<KnowledgeEntries>;

/** A site rules file that does not hold what it should: every problem, with where it is. */
export class NameRulesError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'NameRulesError';
  }
}

function builtInEntries(): KnowledgeEntries {
  const problems: string[] = [];
  const entries = {} as Record<Concept, unknown[]>;
  for (const concept of CONCEPTS) {
    const file = FILES[concept];
    if (file.concept !== concept) problems.push(`knowledge/${concept}: the file says it is "${file.concept}"`);
    problems.push(...entryProblems(concept, file.entries, 'knowledge/'));
    entries[concept] = file.entries;
  }
  if (problems.length > 0) throw new Error(`the matcher's knowledge files are broken: ${problems.join('; ')}`);
  return entries as unknown as KnowledgeEntries;
}

/** Reads a site rules value (the parsed JSON of NAME_RULES_FILE); throws NameRulesError naming every problem. */
export function parseNameRules(value: unknown): NameRules {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new NameRulesError([
      `must be a JSON object whose keys are concepts (${CONCEPTS.join(', ')}) and whose values are lists of entries`,
    ]);
  }
  const problems: string[] = [];
  const rules: Record<string, unknown[]> = {};
  for (const [concept, entries] of Object.entries(value)) {
    if (!(CONCEPTS as string[]).includes(concept)) {
      problems.push(`${concept}: unknown concept (known: ${CONCEPTS.join(', ')})`);
      continue;
    }
    problems.push(...entryProblems(concept as Concept, entries, ''));
    rules[concept] = entries as unknown[];
  }
  if (problems.length > 0) throw new NameRulesError(problems);
  return rules as NameRules;
}

// --- compiling ------------------------------------------------------------------------------------------------

/** A written form as the words the lexer produces: "S.Pd.I" -> ["S", "PD", "I"], "DAN/ATAU" -> ["DAN", "/", "ATAU"]. */
export function writtenWords(written: string): string[] {
  return foldDiacritics(written)
    .toUpperCase()
    .replace(/([/&@])/g, ' $1 ')
    .split(/[^A-Z0-9/&@]+/)
    .filter(Boolean);
}

const MIN_KEYED_PHRASE = 4;
/** Kinds of degree whose codes open the way unlisted ones do (S.x, M.x, A.Md.x, D.x, B.x). */
const ACADEMIC_DEGREES = new Set(['diploma', 'bachelor', 'master', 'doctor']);

/** Phrases of one or more words, looked up at a position of a word sequence, longest first. */
export class PhraseTable<T> {
  /** By first word: the phrases starting with it, longest first. */
  private readonly byFirst = new Map<string, Array<{ words: string[]; value: T }>>();
  /** Multi-word phrases also by their letters run together ("WAODE" for "WA ODE", "P.T." read as "PT"). */
  private readonly compact = new Map<string, T>();
  /** One-word phrases of four letters or more also by spelling key ("NJAI" finds NYAI, "TJOKORDA" COKORDA). */
  private readonly byKey = new Map<string, T>();
  /** Every start of a compact key ("P", "PT"): a run of words that is none can stop growing. */
  private readonly compactPrefixes = new Set<string>();
  private longestCompact = 1;

  constructor(private readonly keyOf: (word: string) => string) {}

  add(written: string, value: T): void {
    const words = writtenWords(written);
    if (words.length === 0) return;
    const list = this.byFirst.get(words[0]!) ?? [];
    if (!list.some((phrase) => phrase.words.join(' ') === words.join(' '))) list.push({ words, value });
    list.sort((a, b) => b.words.length - a.words.length);
    this.byFirst.set(words[0]!, list);
    const compactKey = words.join('');
    if (!this.compact.has(compactKey)) this.compact.set(compactKey, value);
    for (let end = 1; end <= compactKey.length; end += 1) this.compactPrefixes.add(compactKey.slice(0, end));
    this.longestCompact = Math.max(this.longestCompact, compactKey.length);
    if (words.length === 1 && compactKey.length >= MIN_KEYED_PHRASE && !this.byKey.has(this.keyOf(compactKey)))
      this.byKey.set(this.keyOf(compactKey), value);
  }

  /**
   * The longest phrase starting at `start`; `sameChunk(i, j)` says whether words i..j were written without a space.
   * Only those, or single letters ("I B", "K H"), may be read run together, as "P.T." for PT.
   */
  match(words: readonly string[], start: number, sameChunk: (from: number, to: number) => boolean): { value: T; length: number } | null {
    // Run together: the longest run of words that may be read as one ("P.T.", "I B"), if it spells a phrase.
    let together = words[start]!;
    if (!this.compactPrefixes.has(together)) {
      // No phrase starts with this word as written: only a spelling of a one-word phrase may ("NJAI" for NYAI).
      const single = together.length >= MIN_KEYED_PHRASE ? this.byKey.get(this.keyOf(together)) : undefined;
      return single === undefined ? null : { value: single, length: 1 };
    }
    let compactFound: { value: T; length: number } | null = null;
    for (let end = start + 1; end < words.length && together.length < this.longestCompact; end += 1) {
      const word = words[end]!;
      if (!sameChunk(start, end) && !(word.length === 1 && together.length === end - start)) break;
      together += word;
      if (!this.compactPrefixes.has(together)) break;
      const value = this.compact.get(together);
      if (value !== undefined) compactFound = { value, length: end - start + 1 };
    }
    const candidates = this.byFirst.get(words[start]!);
    if (candidates !== undefined) {
      for (const phrase of candidates) {
        if (compactFound !== null && compactFound.length >= phrase.words.length) break;
        if (start + phrase.words.length <= words.length && phrase.words.every((word, offset) => words[start + offset] === word))
          return { value: phrase.value, length: phrase.words.length };
      }
    }
    if (compactFound !== null) return compactFound;
    const single = this.get(words[start]!);
    return single === undefined ? null : { value: single, length: 1 };
  }

  get(word: string): T | undefined {
    return this.compact.get(word) ?? (word.length >= MIN_KEYED_PHRASE ? this.byKey.get(this.keyOf(word)) : undefined);
  }

  /** Every word a phrase may start with, as written and by key: a word none of the tables knows needs no lookup. */
  addStartsTo(words: Set<string>): void {
    for (const word of this.byFirst.keys()) words.add(word);
    for (const word of this.compact.keys()) words.add(word);
    for (const key of this.byKey.keys()) words.add(key);
  }
}

export interface TitleInfo {
  kind: string;
  means: string;
  gender: Gender | null;
  wifeOf: boolean;
  wifeOfByAddress: boolean;
  alsoGivenName: boolean;
}
export interface RankInfo {
  kind: 'rank' | 'corps' | 'status';
  means: string;
}
export interface NobilityInfo {
  /** How the entry first writes it ("IDA BAGUS"): a word written otherwise is noted as read ("'IB' read as Ida Bagus"). */
  name: string;
  kind: string;
  means: string;
  gender: Gender | null;
  alsoGivenName: boolean;
}
export interface BirthOrderInfo {
  name: string;
  means: string;
  position: number;
  gender: Gender | null;
}
export interface ParticleInfo {
  /** How the entry first writes it ("BORU"): a word written otherwise is noted as read ("'BR' read as boru"). */
  name: string;
  kind: ParticleEntry['kind'];
  means: string;
  gender: Gender | null;
  before: string | null;
}
export interface LegalFormInfo {
  canonical: string;
  family: string;
  kind: LegalFormEntry['kind'];
  position: LegalFormEntry['position'];
  covers: string[];
  means: string;
  /** Named after the organisation whose employees, civil servants or students are its members (KOPKAR, KPRI, KOPMA). */
  ofMembersOf: boolean;
}
export interface AbbreviationInfo {
  means: string[];
  needsOtherSide: boolean;
  kind: string;
}
export interface MarkerInfo {
  kind: 'joint' | 'on-behalf-of' | 'alias' | 'role';
  means: string;
  /** See AccountMarkerEntry.alone. */
  alone: boolean;
}

const letters = (text: string) => writtenWords(text).join('');

/** How many entries each concept holds (built-in plus site), for the README and the start-up log. */
export type KnowledgeCounts = Record<Concept, number>;

export class NameKnowledge {
  readonly titles: PhraseTable<TitleInfo>;
  readonly ranks: PhraseTable<RankInfo>;
  readonly nobility: PhraseTable<NobilityInfo>;
  readonly birthOrder: PhraseTable<BirthOrderInfo>;
  readonly particles: PhraseTable<ParticleInfo>;
  readonly legalForms: PhraseTable<LegalFormInfo>;
  readonly accountMarkers: PhraseTable<MarkerInfo>;
  /** Degree letters (dots dropped: "SPDSD") to whether the code is also a name. */
  readonly degrees = new Map<string, { dottedOnly: boolean; means: string }>();
  /** First letters of academic degrees (S., M., A.Md., Dr., B.Sc.): an unlisted dotted code after the name's comma may be one. */
  readonly degreeOpeners = new Set<string>();
  readonly abbreviations = new Map<string, AbbreviationInfo>();
  readonly spelling: CompiledSpelling;
  /**
   * Lengths a bank cut just after a word shows: a listed field width less one (the blank after the word was the
   * field's last character, dropped), or the width itself (the word ended on the field's last character).
   */
  readonly wordCutLengths: ReadonlySet<number>;
  readonly counts: KnowledgeCounts;
  private readonly everyday = new Set<string>();
  private readonly organisation = new Set<string>();
  private readonly qualifiers = new Set<string>();
  private readonly phraseStarts = new Set<string>();
  private readonly genericOrganisation = new Set<string>();
  private readonly opensOrganisation = new Set<string>();
  private readonly surnameKinds = new Map<string, string>();
  private readonly givenGender = new Map<string, Gender | 'unisex'>();
  private readonly nicknameOf = new Map<string, Set<string>>();
  private readonly endings: Array<{ ending: string; gender: Gender; minStem: number }>;

  constructor(entries: KnowledgeEntries) {
    this.counts = Object.fromEntries(CONCEPTS.map((concept) => [concept, entries[concept].length])) as KnowledgeCounts;
    this.spelling = compileSpelling(entries.spellingRules, entries.nameVariants);
    this.wordCutLengths = new Set(entries.bankFieldWidths.flatMap((entry) => [entry.width - 1, entry.width]));
    const keyOf = (word: string) => this.spelling.keys(word)[0]!;
    this.titles = new PhraseTable(keyOf);
    this.ranks = new PhraseTable(keyOf);
    this.nobility = new PhraseTable(keyOf);
    this.birthOrder = new PhraseTable(keyOf);
    this.particles = new PhraseTable(keyOf);
    this.legalForms = new PhraseTable(keyOf);
    this.accountMarkers = new PhraseTable(keyOf);
    for (const entry of entries.titles) {
      for (const written of entry.written) {
        this.titles.add(written, {
          kind: entry.kind,
          means: entry.means,
          gender: entry.gender ?? null,
          wifeOf: entry.wifeOf === true,
          wifeOfByAddress: entry.wifeOfByAddress === true,
          alsoGivenName: entry.alsoGivenName === true,
        });
      }
    }
    for (const entry of entries.ranks)
      for (const written of entry.written) this.ranks.add(written, { kind: entry.kind, means: entry.means });
    for (const entry of entries.nobility) {
      const info = {
        name: entry.written[0]!,
        kind: entry.kind,
        means: entry.means,
        gender: entry.gender ?? null,
        alsoGivenName: entry.alsoGivenName === true,
      };
      for (const written of entry.written) this.nobility.add(written, info);
    }
    for (const entry of entries.birthOrder) {
      for (const written of entry.written)
        this.birthOrder.add(written, {
          name: entry.written[0]!,
          means: entry.means,
          position: entry.position,
          gender: entry.gender ?? null,
        });
    }
    for (const entry of entries.particles) {
      const info = {
        name: letters(entry.written[0]!),
        kind: entry.kind,
        means: entry.means,
        gender: entry.gender ?? null,
        before: entry.before === undefined ? null : letters(entry.before),
      };
      for (const written of entry.written) this.particles.add(written, info);
    }
    for (const entry of entries.legalForms) {
      const info = {
        canonical: letters(entry.canonical),
        family: entry.family,
        kind: entry.kind,
        position: entry.position,
        covers: (entry.covers ?? []).map(letters),
        means: entry.means,
        ofMembersOf: entry.ofMembersOf === true,
      };
      for (const written of entry.written) {
        this.legalForms.add(written, info);
        if (entry.kind === 'qualifier') this.qualifiers.add(letters(written));
      }
    }
    for (const entry of entries.accountMarkers)
      for (const written of entry.written)
        this.accountMarkers.add(written, { kind: entry.kind, means: entry.means, alone: entry.alone === true });
    for (const entry of entries.degrees) {
      for (const written of entry.written) {
        const key = letters(written);
        if (!this.degrees.has(key)) this.degrees.set(key, { dottedOnly: entry.dottedOnly === true, means: entry.means });
        if (ACADEMIC_DEGREES.has(entry.kind)) this.degreeOpeners.add(key[0]!);
      }
    }
    for (const entry of entries.nameAbbreviations as NameAbbreviationEntry[]) {
      const info = { means: entry.means.map(letters), needsOtherSide: entry.needsOtherSide === true, kind: entry.kind };
      for (const written of entry.written) if (!this.abbreviations.has(letters(written))) this.abbreviations.set(letters(written), info);
    }
    const baseKey = (word: string) => this.spelling.keys(letters(word))[0]!;
    for (const entry of entries.everydayNames) this.everyday.add(baseKey(entry.word));
    for (const entry of entries.organisationWords) {
      this.organisation.add(baseKey(entry.word));
      if (entry.kind !== 'trade') this.genericOrganisation.add(baseKey(entry.word));
      if (entry.opens === true) this.opensOrganisation.add(baseKey(entry.word));
    }
    for (const entry of entries.surnames) this.surnameKinds.set(baseKey(entry.word), entry.kind);
    for (const entry of entries.givenNames) {
      const key = baseKey(entry.name);
      const known = this.givenGender.get(key);
      this.givenGender.set(key, known === undefined || known === entry.gender ? entry.gender : 'unisex');
    }
    for (const entry of entries.nicknames) {
      const short = baseKey(entry.short);
      for (const full of entry.full) {
        const long = baseKey(full);
        if (!this.nicknameOf.has(short)) this.nicknameOf.set(short, new Set());
        if (!this.nicknameOf.has(long)) this.nicknameOf.set(long, new Set());
        this.nicknameOf.get(short)!.add(long);
        this.nicknameOf.get(long)!.add(short);
      }
    }
    for (const table of [
      this.titles,
      this.ranks,
      this.nobility,
      this.birthOrder,
      this.particles,
      this.legalForms,
      this.accountMarkers,
    ] as PhraseTable<unknown>[]) {
      table.addStartsTo(this.phraseStarts);
    }
    this.endings = entries.nameEndings
      .map((entry) => ({ ending: letters(entry.ending), gender: entry.gender, minStem: entry.minStem }))
      .sort((a, b) => b.ending.length - a.ending.length);
  }

  isEveryday(keys: readonly string[]): boolean {
    return keys.some((key) => this.everyday.has(key));
  }

  /**
   * Whether a typed word (title, rank, noble title, legal form...) may start with `word`: most words are names, and
   * this spares them a lookup in every table. Single letters may be run together with the next ("I B", "P.T."), so
   * they always may.
   */
  mayStartPhrase(word: string): boolean {
    return (
      word.length === 1 ||
      this.phraseStarts.has(word) ||
      (word.length >= MIN_KEYED_PHRASE && this.phraseStarts.has(this.spelling.keys(word)[0]!))
    );
  }

  /** A qualifier of a legal form (Tbk, Persero): set aside wherever it stands in a company name. */
  isQualifier(word: string): boolean {
    return this.qualifiers.has(word);
  }

  /** A word of organisation or business names (Lembaga, Jaya, Niaga): a name with one is a business's. */
  isOrganisationWord(keys: readonly string[]): boolean {
    return keys.some((key) => this.organisation.has(key));
  }

  /** An organisation-type or everyday business word (Lembaga, Panti; Jaya, Abadi): it identifies no organisation. */
  isGenericOrganisationWord(keys: readonly string[]): boolean {
    return keys.some((key) => this.genericOrganisation.has(key));
  }

  /** First in a name of several words, it makes the name an organisation's (DINAS, GEREJA, UNIVERSITAS: organisationWords' `opens`). */
  opensOrganisationName(keys: readonly string[]): boolean {
    return keys.some((key) => this.opensOrganisation.has(key));
  }

  surnameKind(keys: readonly string[]): string | null {
    for (const key of keys) {
      const kind = this.surnameKinds.get(key);
      if (kind !== undefined) return kind;
    }
    return null;
  }

  /** A listed given name (of any gender). */
  isGivenName(keys: readonly string[]): boolean {
    return keys.some((key) => this.givenGender.has(key));
  }

  /** Whose name a given name is: from the list, else from its ending; null when unknown or both. */
  genderOf(word: string, keys: readonly string[]): Gender | null {
    for (const key of keys) {
      const listed = this.givenGender.get(key);
      if (listed !== undefined) return listed === 'unisex' ? null : listed;
    }
    for (const { ending, gender, minStem } of this.endings) {
      if (word.length >= ending.length + minStem && word.endsWith(ending)) return gender;
    }
    return null;
  }

  areNicknames(a: readonly string[], b: readonly string[]): boolean {
    return a.some((key) => {
      const related = this.nicknameOf.get(key);
      return related !== undefined && b.some((other) => related.has(other));
    });
  }
}

const BUILT_IN_ENTRIES = builtInEntries();

/** Versions of the built-in files, for the start-up log. */
export const KNOWLEDGE_VERSIONS: Readonly<Record<Concept, string>> = Object.fromEntries(
  CONCEPTS.map((concept) => [concept, FILES[concept].version]),
) as Record<Concept, string>;

export const BUILT_IN_KNOWLEDGE = new NameKnowledge(BUILT_IN_ENTRIES);

/** The built-in knowledge with a site's entries added (NAME_RULES_FILE); the built-in knowledge when there are none. */
export function knowledgeWith(rules: NameRules | null): NameKnowledge {
  if (rules === null || Object.keys(rules).length === 0) return BUILT_IN_KNOWLEDGE;
  const merged = {} as Record<Concept, unknown[]>;
  for (const concept of CONCEPTS) merged[concept] = [...BUILT_IN_ENTRIES[concept], ...((rules[concept] as unknown[] | undefined) ?? [])];
  return new NameKnowledge(merged as unknown as KnowledgeEntries);
}
