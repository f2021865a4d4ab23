// Spelling keys: two spellings of one name word get a key in common.
//
// The letter rules are data (knowledge/spelling-rules.json): old spellings (Soekarno, Djoko, Tjahjo), Arabic
// transliteration (Taufiq, Hafidz, Ghofur), Latin baptismal names (Christoforus, Catharina), Sundanese p for f,
// i/y and doubled letters. A rule with another reading (CH as H, C or K; DZ as Z or D; O after an Arabic emphatic
// consonant as A) gives the word a second key, so "Chandra" meets CANDRA and "Mahfudz" meets MAHFUD without CH or
// DZ being folded one way for every word. Words the letter rules cannot bring together (Muhammad/Mohammad,
// Rahman/Rohman) are listed as variants of one another (knowledge/name-variants.json).
//
// Keys are computed for every word of every row, so a word's keys are kept once computed (a bounded cache).

import type { NameVariantEntry, RuleContext, SpellingRuleEntry } from './knowledge-schema.js';

const VOWELS = 'AEIOU';

interface LetterRule {
  from: string;
  to: string;
  where: RuleContext;
  after: string[] | null;
  before: string[] | null;
  alsoTo: string[];
  minLength: number;
}

export interface CompiledSpelling {
  /** The word's keys, the plain reading first; words with a key in common are spellings of one name. */
  keys(word: string): string[];
  /**
   * Keys of the start of a word cut by the bank: its last letters are not the word's end, so no rule for a word's
   * end applies (SARAH cut from SARAHWATI is not SARA).
   */
  startKeys(start: string): string[];
  /** What the old spellings of two or more letters that open with `letter` are written as today (OE: U, DJ: J). */
  todayForOldSpellingsOpenedBy(letter: string): readonly string[];
}

const MAX_KEYS = 6;
const OLD_SPELLING = 'old-spelling';
const CACHE_LIMIT = 50_000;
const lettersOnly = (text: string) => text.toUpperCase().replace(/[^A-Z]/g, '');

function fits(rule: LetterRule, word: string, at: number, open: boolean): boolean {
  if (!word.startsWith(rule.from, at) || word.length < rule.minLength) return false;
  const end = at + rule.from.length;
  if (rule.where === 'start' && at !== 0) return false;
  if (rule.where === 'end' && (open || end !== word.length)) return false;
  // A doubled letter where a cut word stops may be a letter and the start of the next (PP of "P PR...").
  if (open && end === word.length && rule.from.length === 2 && rule.from[0] === rule.from[1]) return false;
  if (rule.where === 'before-vowel' && (end >= word.length || !VOWELS.includes(word[end]!))) return false;
  if (rule.after !== null && !rule.after.some((letters) => at >= letters.length && word.startsWith(letters, at - letters.length)))
    return false;
  if (rule.before !== null && !rule.before.some((letters) => word.startsWith(letters, end))) return false;
  return true;
}

export function compileSpelling(ruleEntries: readonly SpellingRuleEntry[], variantEntries: readonly NameVariantEntry[]): CompiledSpelling {
  const rules: LetterRule[] = ruleEntries.map((entry) => ({
    from: lettersOnly(entry.from),
    to: lettersOnly(entry.to),
    where: entry.where,
    after: entry.after === undefined ? null : entry.after.map(lettersOnly),
    before: entry.before === undefined ? null : entry.before.map(lettersOnly),
    alsoTo: (entry.alsoTo ?? []).map(lettersOnly),
    minLength: entry.minLength ?? 0,
  }));

  /** One rule over the whole word, left to right; `alternative` >= 0 writes that other reading. */
  const apply = (rule: LetterRule, word: string, alternative: number, open: boolean): { word: string; fired: boolean } => {
    let out = '';
    let at = 0;
    let fired = false;
    while (at < word.length) {
      if (fits(rule, word, at, open)) {
        out += alternative < 0 ? rule.to : rule.alsoTo[alternative]!;
        at += rule.from.length;
        fired = true;
      } else {
        out += word[at];
        at += 1;
      }
    }
    return { word: out, fired };
  };

  /** The rules one after another, each on what the ones before wrote; `choice` picks a rule's other reading (-1 the plain one). */
  const read = (word: string, choice: (rule: LetterRule) => number, fired: Set<LetterRule> | null, open: boolean): string => {
    let current = word;
    for (const rule of rules) {
      if (!current.includes(rule.from)) continue;
      const result = apply(rule, current, rule.alsoTo.length === 0 ? -1 : choice(rule), open);
      if (result.fired && rule.alsoTo.length > 0) fired?.add(rule);
      current = result.word;
    }
    return current;
  };

  /** `open`: the word may go on (a bank cut), so rules for a word's end do not apply. */
  const rawKeys = (word: string, open = false): string[] => {
    const fired = new Set<LetterRule>();
    const plain = read(word, () => -1, fired, open);
    if (fired.size === 0) return [plain];
    const keys = new Set([plain]);
    for (const rule of fired) {
      for (const index of rule.alsoTo.keys()) keys.add(read(word, (candidate) => (candidate === rule ? index : -1), null, open));
    }
    keys.add(read(word, (candidate) => (fired.has(candidate) ? 0 : -1), null, open));
    return [...keys].slice(0, MAX_KEYS);
  };
  // A bank keeps the spelling of the time a name was registered (SOEDJATMIKO): those are the ones a cut may split.
  const oldSpellings = rules.filter((rule, index) => ruleEntries[index]!.kind === OLD_SPELLING && rule.from.length >= 2);

  const canonical = new Map<string, string>();
  for (const entry of variantEntries) {
    const words = entry.words.map(lettersOnly).filter(Boolean);
    const target = canonical.get(rawKeys(words[0]!)[0]!) ?? rawKeys(words[0]!)[0]!;
    for (const word of words) for (const key of rawKeys(word)) if (!canonical.has(key)) canonical.set(key, target);
  }

  const cached = (open: boolean) => {
    const cache = new Map<string, string[]>();
    return (word: string): string[] => {
      const known = cache.get(word);
      if (known !== undefined) return known;
      const keys = [...new Set(rawKeys(word, open).map((key) => canonical.get(key) ?? key))];
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(word, keys);
      return keys;
    };
  };
  return {
    keys: cached(false),
    startKeys: cached(true),
    todayForOldSpellingsOpenedBy: (letter) =>
      oldSpellings.filter((rule) => rule.from[0] === letter).flatMap((rule) => [rule.to, ...rule.alsoTo]),
  };
}

/** Two key lists share a key. */
export function keysMeet(a: readonly string[], b: readonly string[]): boolean {
  for (const key of a) if (b.includes(key)) return true;
  return false;
}
