// Reads one name into typed words: the name words that identify someone, and what stands around them (titles,
// ranks, degrees, caste and noble titles, birth-order names, I/Ni, bin/binti and the father's name, boru, the
// Arabic article, legal forms). What each word is comes from the knowledge files; this module only knows where
// each kind may stand: titles, ranks and noble titles before the name, degrees after it, bin/binti between it
// and the father's name, a legal form before or after a company name.
//
// Some words have two readings ("PT" a company's legal form or Putu, "T." Teuku or an initial, "H." Haji or an
// initial, "B" bin or an initial, "ST" Sutan or a name). A name then has several readings, and the comparison
// takes the one that explains the other name best; the reason says which reading was taken. A reading that
// leans on the other name (a one-letter title, a degree that is also a name) is only valid when the other name
// writes that word out.

import {
  writtenWords,
  type AbbreviationInfo,
  type BirthOrderInfo,
  type Gender,
  type LegalFormInfo,
  type NameKnowledge,
  type NobilityInfo,
  type ParticleInfo,
  type RankInfo,
  type TitleInfo,
} from './knowledge.js';
import type { Token } from './normalise.js';

export type WordKind =
  | 'name'
  | 'title'
  | 'rank'
  | 'degree'
  | 'nobility'
  | 'birth-order'
  | 'particle'
  | 'patronymic'
  | 'marga-marker'
  | 'article'
  | 'legal-form'
  | 'conjunction';

export interface NameWord {
  kind: WordKind;
  /** As written, tokens joined by a space ("ANAK AGUNG", "WYN"). */
  letters: string;
  display: string;
  dotted: boolean;
  /** Name words: the word compared ("MUHAMMAD" for "M."); typed words: what it means ("Wayan (first-born)"). */
  reads: string;
  /** Spelling keys of `reads` (name words). */
  keys: string[];
  part: 'own' | 'father';
  /** Position among the words of the reading. */
  index: number;
  /** Index of the first token it was read from. */
  token: number;
  gender: Gender | null;
  /** A title that before a man's name means his wife (Ny.). */
  wifeOf: boolean;
  /** A woman's form of address (Ibu, Bu) that before a man's name probably means his wife. */
  wifeOfByAddress: boolean;
  birthOrder: number | null;
  legal: LegalFormInfo | null;
  /** Also an everyday given name (Andi): on one side only it is a missing name word. */
  alsoGivenName: boolean;
  /** A single letter or a short dotted stub ("S.", "Kus."). */
  initial: boolean;
  abbreviation: AbbreviationInfo | null;
  /** Not distinctive: Muhammad, Siti, Nur, an organisation or everyday business word (Lembaga, Jaya), a Chinese clan name. */
  everyday: boolean;
  /** A known family name (marga, fam, clan) that may move to the front or back. */
  surname: string | null;
  /** The reading is valid only when the other name has this word (its `reads`) as well. */
  needsOtherSide: string | null;
  /** What this reading assumed, for the reason ("'PT' read as Putu"). */
  assumption: string | null;
}

export interface ParsedName {
  words: NameWord[];
  /** Starts or ends with a legal form: a company or organisation. */
  company: boolean;
  /** Written "Surname, Given": a family name first. */
  surnameFirst: boolean;
  /** Characters the bank showed for the whole account name; 0 where a cut cannot apply. */
  visibleLength: number;
  /** The name as read, for notes. */
  display: string;
}

const MAX_READINGS = 8;
const MAX_DEGREE_TOKENS = 5;
/** Name words before titles written after a name without a comma. */
const MIN_NAME_BEFORE_TITLES = 2;
/** A dotted abbreviation of a name word ("Kus.", "Aloys.") up to this many letters is read as an initial. */
const MAX_DOTTED_STUB = 5;
const EMPTY: string[] = [];
const SPELLED_KINDS = new Set<WordKind>(['particle', 'birth-order', 'nobility', 'marga-marker', 'article']);

/** The letters a word is written with, run together ("I GUSTI AYU" -> IGUSTIAYU), or for a name word what it stands for. */
export const spelled = (word: NameWord): string => (word.kind === 'name' ? word.reads : word.letters.replace(/ /g, ''));

/** Noble and adat titles that also stand inside a name, before a title name (Afrizal Sutan Mangkuto, Zulhendri Datuk Bandaro). */
const INNER_TITLE_KINDS = new Set(['minangkabau-title', 'bugis-title', 'malay-title']);

interface Degree {
  from: number;
  length: number;
  /** Written with a dot (or in brackets): certainly a degree. */
  dotted: boolean;
  /** Also a name (Ma, Me) and written without dots: a degree only if the other name has it too. */
  dottedOnly: boolean;
  /** Not in the list, read as a degree by its place and shape (degreesAfterComma). */
  unlisted?: boolean;
}

interface LeadingWord {
  kind: 'corps' | 'title' | 'rank' | 'nobility' | 'particle' | 'birth-order';
  length: number;
  title?: TitleInfo;
  rank?: RankInfo;
  nobility?: NobilityInfo;
  particle?: ParticleInfo;
  order?: BirthOrderInfo;
}

interface Choices {
  take(options: number): number;
}

class Reader {
  readonly words: NameWord[] = [];
  part: 'own' | 'father' = 'own';

  constructor(
    private readonly tokens: readonly Token[],
    private readonly letters: readonly string[],
    private readonly knowledge: NameKnowledge,
    private readonly choices: Choices,
  ) {}

  sameChunk = (from: number, to: number): boolean => this.tokens[from]!.chunk === this.tokens[to]!.chunk;

  /**
   * A word of `kind` read from `length` tokens at `from`, meaning `reads`; the caller sets what else it knows on the
   * word returned. One object shape for every word, filled field by field: this runs for every word of every reading.
   */
  add(kind: WordKind, from: number, length: number, reads: string | null = null): NameWord {
    const first = this.tokens[from]!;
    let letters = first.letters;
    let display = first.display;
    let dotted = first.dotted;
    for (let at = from + 1; at < from + length; at += 1) {
      const token = this.tokens[at]!;
      letters += ` ${token.letters}`;
      display += ` ${token.display}`;
      dotted ||= token.dotted;
    }
    const readFrom = first.readFrom;
    const word: NameWord = {
      kind,
      letters,
      display,
      dotted,
      reads: reads ?? letters,
      // Words around a name are lined up with the name words when a name is written without spaces (IWAYANSUKERTA).
      keys: SPELLED_KINDS.has(kind) ? this.knowledge.spelling.keys(letters.replace(/ /g, '')) : EMPTY,
      part: this.part,
      index: this.words.length,
      token: from,
      gender: null,
      wifeOf: false,
      wifeOfByAddress: false,
      birthOrder: null,
      legal: null,
      alsoGivenName: false,
      initial: false,
      abbreviation: null,
      everyday: false,
      surname: null,
      needsOtherSide: null,
      assumption:
        readFrom === undefined
          ? null
          : `'${readFrom}' read as ${this.tokens
              .filter((token) => token.readFrom === readFrom)
              .map((token) => token.letters)
              .join(' ')}`,
    };
    this.words.push(word);
    return word;
  }

  /** A name word (possibly an abbreviation: M. for Muhammad, Abd. for Abdul). */
  addName(at: number, company: boolean): void {
    const token = this.tokens[at]!;
    const abbreviation = this.knowledge.abbreviations.get(token.letters) ?? null;
    const reads =
      abbreviation !== null && !abbreviation.needsOtherSide && abbreviation.means.length === 1 ? abbreviation.means[0]! : token.letters;
    const word = this.add('name', at, 1, reads);
    const keys = this.knowledge.spelling.keys(reads);
    const surname = this.knowledge.surnameKind(keys);
    word.keys = keys;
    word.surname = surname;
    // In an organisation's name a number identifies nothing by itself either: every town has its SMK Negeri 2.
    word.everyday =
      this.knowledge.isEveryday(keys) ||
      (company && (this.knowledge.isGenericOrganisationWord(keys) || /\d/.test(token.letters))) ||
      surname === 'chinese-clan';
    word.abbreviation = abbreviation;
    word.initial =
      /^[A-Z]$/.test(token.letters) ||
      (token.dotted &&
        token.letters.length <= MAX_DOTTED_STUB &&
        abbreviation === null &&
        !this.knowledge.isGivenName(this.knowledge.spelling.keys(token.letters)));
  }

  /** Titles, ranks, noble and caste titles, I/Ni, birth-order names: the run before a name (or a father's name). */
  leadingRun(start: number, end: number): number {
    let at = start;
    let rankSeen = false;
    while (at < end) {
      const found = this.leadingWord(at, rankSeen);
      if (found === null || at + found.length > end) break;
      const written = this.letters.slice(at, at + found.length).join('');
      // A one-letter title or noble title (H., T., A., R.) may as well be an initial; so may a two-letter one that is
      // also a name abbreviation (ST, MD), and initials that spell a title (K. H., I. B., R. A.).
      const oneWord = found.length === 1 && (written.length === 1 || this.knowledge.abbreviations.has(written));
      const initials = found.length > 1 && this.letters.slice(at, at + found.length).every((word) => word.length === 1);
      const ambiguous = oneWord && found.kind !== 'particle';
      if ((ambiguous || initials) && this.choices.take(2) === 1) break;
      const readAs = (name: string, means: string) =>
        letters(name) === written ? null : `'${this.letters.slice(at, at + found.length).join(' ')}' read as ${means}`;
      switch (found.kind) {
        case 'corps':
          this.add('rank', at, found.length, found.rank!.means);
          break;
        case 'rank':
          this.add('rank', at, found.length, found.rank!.means);
          rankSeen = true;
          break;
        case 'title': {
          const word = this.add('title', at, found.length, found.title!.means);
          word.gender = found.title!.gender;
          word.wifeOf = found.title!.wifeOf;
          word.wifeOfByAddress = found.title!.wifeOfByAddress;
          word.alsoGivenName = found.title!.alsoGivenName;
          break;
        }
        case 'particle':
          this.add('particle', at, found.length, found.particle!.means).gender = found.particle!.gender;
          break;
        case 'nobility': {
          const noble = found.nobility!;
          const word = this.add('nobility', at, found.length, noble.means);
          word.gender = noble.gender;
          word.alsoGivenName = noble.alsoGivenName;
          word.needsOtherSide = ambiguous ? noble.means : null;
          word.assumption = readAs(noble.name, noble.means) ?? word.assumption;
          break;
        }
        case 'birth-order': {
          const order = found.order!;
          const word = this.add('birth-order', at, found.length, order.means);
          word.birthOrder = order.position;
          word.gender = order.gender;
          word.needsOtherSide = ambiguous ? order.means : null;
          word.assumption = readAs(order.name, order.means) ?? word.assumption;
          break;
        }
      }
      at += found.length;
    }
    return at;
  }

  /** The longest typed word starting at `at` that may stand before a name; on a tie the first kind listed wins. */
  private leadingWord(at: number, rankSeen: boolean): LeadingWord | null {
    const { knowledge, letters, sameChunk } = this;
    if (!knowledge.mayStartPhrase(letters[at]!) && (at + 1 >= letters.length || !sameChunk(at, at + 1))) return null;
    const candidates: Array<LeadingWord | null> = [];
    if (rankSeen) {
      const corps = knowledge.ranks.match(letters, at, sameChunk);
      if (corps !== null && corps.value.kind !== 'rank') candidates.push({ kind: 'corps', length: corps.length, rank: corps.value });
    }
    const title = knowledge.titles.match(letters, at, sameChunk);
    if (title !== null) candidates.push({ kind: 'title', length: title.length, title: title.value });
    const rank = knowledge.ranks.match(letters, at, sameChunk);
    if (rank !== null && rank.value.kind === 'rank') candidates.push({ kind: 'rank', length: rank.length, rank: rank.value });
    const noble = knowledge.nobility.match(letters, at, sameChunk);
    if (noble !== null) candidates.push({ kind: 'nobility', length: noble.length, nobility: noble.value });
    const particle = knowledge.particles.match(letters, at, sameChunk);
    if (particle !== null && particle.value.kind === 'gender-particle')
      candidates.push({ kind: 'particle', length: particle.length, particle: particle.value });
    const order = knowledge.birthOrder.match(letters, at, sameChunk);
    if (order !== null) candidates.push({ kind: 'birth-order', length: order.length, order: order.value });
    let best: LeadingWord | null = null;
    for (const candidate of candidates) if (candidate !== null && (best === null || candidate.length > best.length)) best = candidate;
    return best;
  }

  /**
   * Titles and ranks written after the name ("Budi Hartono, Kompol", "Agus Salim, Brigjen TNI (Purn.)", BUDI
   * HARTONO KOMPOL): the earliest position, after a name word, from which every token to the end reads as titles,
   * ranks and their corps and status. Without a comma before them they must follow two name words (a one-word name
   * and a title-like word, "Andi Mayor", may be a name of two words) and each must be a word of two letters or more
   * that is no given name; a one-letter title after a comma ("Fauzi, H.") may as well be an initial: both are read.
   */
  trailingTitles(start: number, end: number): { at: number; words: LeadingWord[] } {
    for (let from = start + 1; from < end; from += 1) {
      const afterComma = this.tokens[from - 1]!.commaAfter;
      if (!afterComma && from - start < MIN_NAME_BEFORE_TITLES) continue;
      const words = this.titlesFrom(from, end);
      if (words === null) continue;
      const plain = (word: LeadingWord, at: number) => {
        const written = this.letters.slice(at, at + word.length).join('');
        return (
          written.length >= 2 &&
          !this.knowledge.isGivenName(this.knowledge.spelling.keys(written)) &&
          !this.knowledge.abbreviations.has(written)
        );
      };
      let at = from;
      const unambiguous = words.every((word) => {
        const ok = plain(word, at);
        at += word.length;
        return ok;
      });
      if (unambiguous || (afterComma && this.choices.take(2) === 0)) return { at: from, words };
    }
    return { at: end, words: [] };
  }

  /** Tokens [from, end) as titles and ranks (their corps and status after a rank), or null. */
  private titlesFrom(from: number, end: number): LeadingWord[] | null {
    const words: LeadingWord[] = [];
    let rankSeen = false;
    for (let at = from; at < end; ) {
      const found = this.leadingWord(at, rankSeen);
      if (found === null || at + found.length > end || (found.kind !== 'title' && found.kind !== 'rank' && found.kind !== 'corps'))
        return null;
      if (found.kind === 'title' && found.title!.alsoGivenName) return null;
      rankSeen ||= found.kind === 'rank';
      words.push(found);
      at += found.length;
    }
    return words;
  }

  /** The titles and ranks trailingTitles found, added after the name. */
  addTrailingTitles(from: number, words: readonly LeadingWord[]): void {
    let at = from;
    for (const found of words) {
      if (found.kind === 'title') {
        // "Sri Rahayu, Ny.": Ny. says whose name it is wherever it stands (the wife-of rule reads it).
        const word = this.add('title', at, found.length, found.title!.means);
        word.gender = found.title!.gender;
        word.wifeOf = found.title!.wifeOf;
        word.wifeOfByAddress = found.title!.wifeOfByAddress;
      } else {
        this.add('rank', at, found.length, found.rank!.means);
      }
      at += found.length;
    }
  }

  /** Degrees after the name: the earliest position from which every token to the end reads as degrees. */
  trailingDegrees(start: number, end: number): { at: number; degrees: Degree[] } {
    // A segmentation of tokens [from, end) into degrees, or null.
    const memo = new Map<number, Degree[] | null>();
    const segment = (from: number): Degree[] | null => {
      if (from === end) return [];
      if (memo.has(from)) return memo.get(from)!;
      let result: Degree[] | null = null;
      let letters = '';
      let dotted = false;
      for (let length = 1; length <= MAX_DEGREE_TOKENS && from + length <= end && result === null; length += 1) {
        const token = this.tokens[from + length - 1]!;
        if (length > 1 && token.chunk !== this.tokens[from]!.chunk && token.letters.length > 4) break;
        letters += token.letters;
        dotted ||= token.dotted || token.bracket !== 0;
        const degree = this.knowledge.degrees.get(letters);
        if (degree === undefined) continue;
        if (length === 1 && letters.length === 1 && !dotted && token.bracket === 0) continue;
        const rest = segment(from + length);
        if (rest !== null) result = [{ from, length, dotted, dottedOnly: degree.dottedOnly && !dotted }, ...rest];
      }
      memo.set(from, result);
      return result;
    };
    let listed: { at: number; degrees: Degree[] } = { at: end, degrees: [] };
    for (let at = start + 1; at < end; at += 1) {
      const degrees = segment(at);
      if (degrees !== null) {
        listed = { at, degrees };
        break;
      }
    }
    return this.degreesAfterComma(start, listed.at, end, segment) ?? listed;
  }

  /**
   * "Ahmad Yani, S.I.K., M.H.": after a comma that follows a name of two words or more, dotted chunks that open
   * like an academic degree of the list (S., M., A., D., B.) are degrees even when the list lacks one; each is noted.
   */
  private degreesAfterComma(
    start: number,
    before: number,
    end: number,
    segment: (from: number) => Degree[] | null,
  ): { at: number; degrees: Degree[] } | null {
    for (let comma = start + 1; comma + 1 < before; comma += 1) {
      if (!this.tokens[comma]!.commaAfter || this.tokens[comma]!.bracket !== 0) continue;
      const degrees = this.degreeShapedFrom(comma, end, segment);
      if (degrees !== null) return { at: comma + 1, degrees };
    }
    return null;
  }

  private degreeShapedFrom(comma: number, end: number, segment: (from: number) => Degree[] | null): Degree[] | null {
    const degrees: Degree[] = [];
    let from = comma + 1;
    while (from < end) {
      let length = 1;
      while (from + length < end && this.tokens[from + length]!.chunk === this.tokens[from]!.chunk) length += 1;
      const chunk = this.tokens.slice(from, from + length);
      const letters = chunk.map((token) => token.letters).join('');
      const known = segment(from);
      if (known !== null && known[0]!.length <= length) {
        degrees.push(known[0]!);
        from += known[0]!.length;
        continue;
      }
      const degreeShaped =
        chunk.every((token) => token.dotted && token.letters.length <= 4) &&
        letters.length >= 2 &&
        letters.length <= 8 &&
        this.knowledge.degreeOpeners.has(letters[0]!);
      if (!degreeShaped) return null;
      degrees.push({ from, length, dotted: true, dottedOnly: false, unlisted: true });
      from += length;
    }
    return degrees;
  }

  /** The words between the leading run and the degrees: names, bin/binti and the father's name, boru, al-. */
  body(start: number, end: number, company: boolean): void {
    let at = start;
    const bodyStart = start;
    while (at < end) {
      const token = this.tokens[at]!;
      const hasNext = at + 1 < end;
      if (this.typedAside(at, end)) {
        at += 1;
        continue;
      }
      if (company) {
        const joint = this.knowledge.accountMarkers.get(token.letters);
        if (joint?.kind === 'joint' && at > bodyStart && hasNext) {
          this.add('conjunction', at, 1, 'and');
          at += 1;
          continue;
        }
      }
      // A marker written out may end the name (a bank cut after "BINTI"); a one- or two-letter one needs a word after it.
      const typedHere = this.knowledge.mayStartPhrase(token.letters) || (hasNext && this.sameChunk(at, at + 1));
      const particle =
        typedHere && at > bodyStart && (hasNext || token.letters.length > 2)
          ? this.knowledge.particles.match(this.letters, at, this.sameChunk)
          : null;
      if (particle !== null && particle.value.kind === 'patronymic' && this.part === 'own' && !company) {
        const oneLetter = this.letters[at]!.length === 1;
        // "J. B. Sutrisno": after initials only, a one-letter "B" is one more initial, not bin.
        const ownNamed = this.words.some((word) => word.kind === 'name' && !word.initial);
        if (!oneLetter || (ownNamed && this.choices.take(2) === 0)) {
          const word = this.add('patronymic', at, particle.length, particle.value.means);
          word.gender = particle.value.gender;
          if (oneLetter) word.assumption = `'${this.letters[at]}' read as bin`;
          this.part = 'father';
          // Titles before the father's name ("binti H. Muchtar"), never the father's name itself ("bin Andi").
          at = this.leadingRun(at + particle.length, end - 1);
          continue;
        }
      } else if (particle !== null && particle.value.kind === 'marga-marker' && hasNext && !company) {
        const word = this.add('marga-marker', at, particle.length, particle.value.means);
        word.gender = particle.value.gender;
        if (this.letters[at] !== particle.value.name)
          word.assumption = `'${this.letters[at]}' read as ${particle.value.means.split(' (')[0]}`;
        at += particle.length;
        continue;
      } else if (
        particle !== null &&
        particle.value.kind === 'article' &&
        hasNext &&
        (particle.value.before === null || this.letters[at + particle.length]!.startsWith(particle.value.before))
      ) {
        // Compared with the name words: "AL FATIH" may be written ALFATIH, or without the article.
        this.add('article', at, particle.length, this.letters.slice(at, at + particle.length).join(''));
        at += particle.length;
        continue;
      }
      const inner =
        typedHere && at > bodyStart && hasNext && !company ? this.knowledge.nobility.match(this.letters, at, this.sameChunk) : null;
      if (inner !== null && INNER_TITLE_KINDS.has(inner.value.kind) && !inner.value.alsoGivenName && at + inner.length < end) {
        const short = this.letters[at]!.length <= 2;
        if (!short || this.choices.take(2) === 0) {
          const word = this.add('nobility', at, inner.length, inner.value.means);
          word.gender = inner.value.gender;
          if (short) word.assumption = `'${this.letters[at]}' read as ${inner.value.means}`;
          at += inner.length;
          continue;
        }
      }
      this.addName(at, company);
      at += 1;
    }
  }

  /**
   * Words set aside wherever they stand: a qualifier of a legal form ("(Persero)"), a title, rank or legal form in
   * brackets ("(Purn.)", "(Alm.)"), "Alm." at the end of a name.
   */
  private typedAside(at: number, end: number): boolean {
    const token = this.tokens[at]!;
    // Most words are none of these: only a word in brackets, a qualifier or the last word is looked up.
    const bracketed = token.bracket !== 0;
    if (!bracketed && at !== end - 1 && !this.knowledge.isQualifier(token.letters)) return false;
    const legal = this.knowledge.legalForms.get(token.letters);
    if (legal !== undefined && (legal.kind === 'qualifier' || token.bracket !== 0)) {
      this.add('legal-form', at, 1, legal.means).legal = legal;
      return true;
    }
    const title = this.knowledge.titles.get(token.letters);
    if (title !== undefined && (token.bracket !== 0 || (title.kind === 'deceased' && at === end - 1))) {
      this.add('title', at, 1, title.means).gender = title.gender;
      return true;
    }
    const rank = token.bracket !== 0 ? this.knowledge.ranks.get(token.letters) : undefined;
    if (rank !== undefined) {
      this.add('rank', at, 1, rank.means);
      return true;
    }
    return false;
  }

  /** A company's legal forms before and after its name; returns where the name is, and the trailing forms to add after it. */
  companyForms(
    start: number,
    end: number,
  ): { start: number; end: number; trailing: Array<{ at: number; length: number; value: LegalFormInfo }> } {
    let from = start;
    let to = end;
    for (;;) {
      const lead = this.knowledge.legalForms.match(this.letters, from, this.sameChunk);
      if (lead === null || lead.value.position === 'after' || from + lead.length >= to) break;
      this.add('legal-form', from, lead.length, lead.value.means).legal = lead.value;
      from += lead.length;
    }
    const trailing: Array<{ at: number; length: number; value: LegalFormInfo }> = [];
    for (;;) {
      let found: { at: number; length: number; value: LegalFormInfo } | null = null;
      for (let length = Math.min(4, to - from - 1); length >= 1 && found === null; length -= 1) {
        const match = this.knowledge.legalForms.match(this.letters, to - length, this.sameChunk);
        if (match !== null && match.length === length && mayTrail(match.value, this.tokens, to - length))
          found = { at: to - length, ...match };
      }
      if (found === null) break;
      trailing.unshift(found);
      to = found.at;
    }
    return { start: from, end: to, trailing };
  }

  degree(from: number, length: number, dottedOnly: boolean, unlisted = false): void {
    const letters = this.letters.slice(from, from + length).join('');
    const display = this.tokens
      .slice(from, from + length)
      .map((token) => token.display)
      .join('');
    const word = this.add('degree', from, length, letters);
    word.letters = letters;
    word.display = display;
    if (unlisted) word.assumption = `'${display}' after the comma read as a degree`;
    if (dottedOnly) {
      word.needsOtherSide = letters;
      word.assumption = `'${letters}' read as a degree`;
    }
  }
}

const letters = (written: string) => writtenWords(written).join('');

/** A legal form at `at` may close a company name: one written after names, or any after a comma ("Harapan Kasih, Yayasan"). */
const mayTrail = (form: LegalFormInfo, tokens: readonly Token[], at: number) =>
  form.position !== 'before' || (at > 0 && tokens[at - 1]!.commaAfter);

/** Starts (or ends) with a legal form: a company or organisation, whose "&" and "dan" are words of its name. */
export function isCompanyName(tokens: readonly Token[], knowledge: NameKnowledge): boolean {
  const words = tokens.map((token) => token.letters);
  const sameChunk = (from: number, to: number) => tokens[from]!.chunk === tokens[to]!.chunk;
  if (tokens.length > 1 && knowledge.legalForms.match(words, 0, sameChunk) !== null) return true;
  // A government office, a school, a church with no legal form (DINAS KESEHATAN KOTA B, GEREJA KRISTEN INDONESIA).
  if (tokens.length > 1 && knowledge.opensOrganisationName(knowledge.spelling.keys(words[0]!))) return true;
  for (let start = Math.max(1, tokens.length - 4); start < tokens.length; start += 1) {
    const found = knowledge.legalForms.match(words, start, sameChunk);
    if (found !== null && start + found.length === tokens.length && mayTrail(found.value, tokens, start)) return true;
  }
  return false;
}

/**
 * Abbreviations of several words written as one, read as if written out: FX (or F. X.) as Fransiskus Xaverius, and
 * at the start of a name IGP as I Gusti Putu, AAG as Anak Agung Gede (then read like any written-out name).
 */
function expandAbbreviations(tokens: readonly Token[], knowledge: NameKnowledge): Token[] {
  const out: Token[] = [];
  for (let at = 0; at < tokens.length; at += 1) {
    // Initials written apart that together are such an abbreviation: "F. X.", "F X".
    let length = 1;
    while (
      length < 3 &&
      at + length < tokens.length &&
      tokens[at + length - 1]!.letters.length === 1 &&
      tokens[at + length]!.letters.length === 1
    )
      length += 1;
    let expanded = false;
    for (; length >= 1 && !expanded; length -= 1) {
      const written = tokens
        .slice(at, at + length)
        .map((token) => token.letters)
        .join('');
      const abbreviation = knowledge.abbreviations.get(written);
      if (abbreviation === undefined || abbreviation.needsOtherSide || abbreviation.means.length < 2) continue;
      if (abbreviation.kind === 'balinese' && at > 0) continue;
      const first = tokens[at]!;
      for (const word of abbreviation.means) out.push({ ...first, letters: word, display: word, dotted: false, readFrom: written });
      at += length - 1;
      expanded = true;
    }
    if (!expanded) out.push(tokens[at]!);
  }
  return out;
}

/**
 * A trade word written as dotted initials that also spell a person's title ("R.M." Raden Mas, "T.B." Tubagus): a
 * person's name. Shops write RM and TB without dots; people write their titles with them. (P.T. is a legal form,
 * not a trade word: a company either way.)
 */
function dottedPersonTitle(tokens: readonly Token[], knowledge: NameKnowledge): boolean {
  const words = tokens.map((token) => token.letters);
  const sameChunk = (from: number, to: number) => tokens[from]!.chunk === tokens[to]!.chunk;
  const form = knowledge.legalForms.match(words, 0, sameChunk);
  if (form === null || form.value.kind !== 'trade' || form.length < 2) return false;
  const initials = tokens.slice(0, form.length).every((token) => token.dotted && token.letters.length === 1);
  // "R.M. Padang Jaya": business words after it say a business, dots or not.
  const businessWords = words.slice(form.length).some((word) => knowledge.isOrganisationWord(knowledge.spelling.keys(word)));
  return initials && !businessWords && knowledge.nobility.match(words, 0, sameChunk)?.length === form.length;
}

interface Prepared {
  tokens: readonly Token[];
  words: string[];
  companyName: boolean;
  /** "PT", "RM", "TB" open a company name, or are Putu, Raden Mas, Tubagus: both readings are tried. */
  alsoPerson: boolean;
}

function prepare(tokensAsWritten: readonly Token[], knowledge: NameKnowledge): Prepared {
  const companyName = isCompanyName(tokensAsWritten, knowledge) && !dottedPersonTitle(tokensAsWritten, knowledge);
  const tokens = companyName ? tokensAsWritten : expandAbbreviations(tokensAsWritten, knowledge);
  const words = tokens.map((token) => token.letters);
  const sameChunk = (from: number, to: number) => tokens[from]!.chunk === tokens[to]!.chunk;
  const alsoPerson =
    companyName &&
    knowledge.legalForms.match(words, 0, sameChunk) !== null &&
    (knowledge.nobility.match(words, 0, sameChunk) !== null || knowledge.birthOrder.match(words, 0, sameChunk) !== null);
  return { tokens, words, companyName, alsoPerson };
}

function readOnce(prepared: Prepared, knowledge: NameKnowledge, choices: Choices, visibleLength: number): ParsedName {
  const { tokens, words, companyName, alsoPerson } = prepared;
  const reader = new Reader(tokens, words, knowledge, choices);
  const company = companyName && !(alsoPerson && choices.take(2) === 1);

  if (company) {
    const forms = reader.companyForms(0, tokens.length);
    reader.body(forms.start, forms.end, true);
    for (const form of forms.trailing) reader.add('legal-form', form.at, form.length, form.value.means).legal = form.value;
  } else {
    const first = reader.leadingRun(0, tokens.length);
    const titles = reader.trailingTitles(first, tokens.length);
    const trailing = reader.trailingDegrees(first, titles.at);
    reader.body(first, trailing.at, false);
    for (const degree of trailing.degrees) {
      // Undotted, a degree code may as well be a name (Ma, Me) or what a bank cut left of one (MAP of Mappanyukki).
      if (!degree.dotted && choices.take(2) === 1) {
        for (let at = degree.from; at < degree.from + degree.length; at += 1) reader.addName(at, false);
      } else {
        reader.degree(degree.from, degree.length, degree.dottedOnly, degree.unlisted === true);
      }
    }
    reader.addTrailingTitles(titles.at, titles.words);
    const opening = reader.words[0];
    if (alsoPerson && opening !== undefined && (opening.kind === 'birth-order' || opening.kind === 'nobility')) {
      opening.needsOtherSide = opening.reads;
      opening.assumption = `'${opening.letters}' read as ${opening.reads}, not a legal form`;
    }
  }
  const commaAt = tokens.findIndex((token) => token.commaAfter && token.bracket === 0);
  const surnameFirst = commaAt >= 0 && reader.words.some((word) => word.kind === 'name' && word.token > commaAt);
  return { words: reader.words, company, surnameFirst, visibleLength, display: words.join(' ') };
}

/**
 * Every reading of a name (at most MAX_READINGS), the plain one first. `visibleLength` is what the bank showed (0
 * for a name that cannot have been cut).
 */
export function readName(tokens: readonly Token[], knowledge: NameKnowledge, visibleLength: number): ParsedName[] {
  const prepared = prepare(tokens, knowledge);
  const readings: ParsedName[] = [];
  const pending: number[][] = [[]];
  while (pending.length > 0 && readings.length < MAX_READINGS) {
    const prefix = pending.shift()!;
    const used: number[] = [];
    const options: number[] = [];
    const choices: Choices = {
      take(count: number): number {
        const position = used.length;
        const choice = position < prefix.length ? prefix[position]! : 0;
        used.push(choice);
        options.push(count);
        return choice;
      },
    };
    readings.push(readOnce(prepared, knowledge, choices, visibleLength));
    for (let position = prefix.length; position < options.length; position += 1) {
      for (let choice = 1; choice < options[position]!; choice += 1) pending.push([...used.slice(0, position), choice]);
    }
  }
  return readings;
}
