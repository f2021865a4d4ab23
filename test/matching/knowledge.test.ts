import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareNames } from '../../src/matching/compare-names.js';
import { BUILT_IN_KNOWLEDGE, knowledgeWith, NameRulesError, parseNameRules } from '../../src/matching/knowledge.js';
import { CONCEPTS } from '../../src/matching/knowledge-schema.js';

// The matcher's knowledge is data (issue 26): one concept a file under src/matching/knowledge/, each entry with its
// kind and a source, checked when loaded; a site adds entries through NAME_RULES_FILE (parseNameRules).
const folder = fileURLToPath(new URL('../../src/matching/knowledge/', import.meta.url));
const files = readdirSync(folder)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({
    file,
    data: JSON.parse(readFileSync(folder + file, 'utf8')) as {
      concept: string;
      version: string;
      about: string;
      sources: Record<string, string>;
      entries: Array<Record<string, unknown>>;
    },
  }));

describe('the knowledge files', () => {
  it('hold one file per concept, every concept', () => {
    expect(files.map((entry) => entry.data.concept).sort()).toEqual([...CONCEPTS].sort());
  });

  it.each(files)('$file: has a version, a description, entries with a kind, and cites only sources it lists', ({ data }) => {
    expect(data.version).toMatch(/\S/);
    expect(data.about.length).toBeGreaterThan(40);
    expect(data.entries.length).toBeGreaterThan(0);
    for (const entry of data.entries) {
      expect(typeof entry.kind, JSON.stringify(entry)).toBe('string');
      expect(Object.keys(data.sources), JSON.stringify(entry)).toContain(entry.source);
    }
  });

  it('are all loaded: the counts the start-up log reports', () => {
    for (const concept of CONCEPTS) expect(BUILT_IN_KNOWLEDGE.counts[concept], concept).toBeGreaterThan(0);
  });

  it('know no single name of a person: no given name, surname or nickname list lives in code', () => {
    const sources = readdirSync(fileURLToPath(new URL('../../src/matching/', import.meta.url))).filter((file) => file.endsWith('.ts'));
    for (const file of sources) {
      const text = readFileSync(fileURLToPath(new URL(`../../src/matching/${file}`, import.meta.url)), 'utf8');
      // Examples in comments are fine; a list of quoted upper-case words in code is a name list.
      const quotedWords = [...text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '').matchAll(/'([A-Z]{3,})'/g)].map((match) => match[1]!);
      expect(quotedWords.length, `${file}: ${quotedWords.join(', ')}`).toBeLessThan(4);
    }
  });
});

describe('NAME_RULES_FILE: a site adds entries', () => {
  const site = {
    nicknames: [{ short: 'UCOK', full: ['PARLINDUNGAN'], kind: 'nickname', source: 'our ops team' }],
    titles: [{ written: ['KANJENG GUSTI'], means: 'a title our files use', kind: 'courtesy' }],
    legalForms: [{ written: ['PT PMA'], means: 'foreign-owned PT', canonical: 'PT', family: 'company', kind: 'form', position: 'before' }],
  };

  it('reads a valid site file', () => {
    const rules = parseNameRules(site);
    expect(rules.nicknames).toHaveLength(1);
  });

  it('changes the verdicts it is about, and only those', () => {
    const knowledge = knowledgeWith(parseNameRules(site));
    expect(compareNames('Ucok Simanjuntak', 'PARLINDUNGAN SIMANJUNTAK').verdict).toBe('NO_MATCH');
    expect(compareNames('Ucok Simanjuntak', 'PARLINDUNGAN SIMANJUNTAK', 'standard', knowledge).verdict).toBe('CLOSE_MATCH');
    expect(compareNames('Kanjeng Gusti Harjo Wibowo', 'HARJO WIBOWO', 'standard', knowledge).verdict).toBe('MATCH');
    expect(compareNames('Budi Santoso', 'BUDI SANTOSO', 'standard', knowledge)).toEqual(compareNames('Budi Santoso', 'BUDI SANTOSO'));
    expect(knowledge.counts.nicknames).toBe(BUILT_IN_KNOWLEDGE.counts.nicknames + 1);
  });

  it('is the built-in knowledge when empty', () => {
    expect(knowledgeWith(null)).toBe(BUILT_IN_KNOWLEDGE);
    expect(knowledgeWith(parseNameRules({}))).toBe(BUILT_IN_KNOWLEDGE);
  });

  it('refuses a broken file, naming every problem and where it is', () => {
    const problems = (value: unknown): string[] => {
      try {
        parseNameRules(value);
      } catch (error) {
        expect(error).toBeInstanceOf(NameRulesError);
        return (error as NameRulesError).problems;
      }
      throw new Error('accepted');
    };
    expect(problems([])).toEqual([expect.stringContaining('must be a JSON object whose keys are concepts')]);
    expect(problems({ nickname: [] })).toEqual([expect.stringContaining('nickname: unknown concept (known: titles, degrees,')]);
    expect(problems({ titles: {} })).toEqual(['titles: must be a list of entries']);
    expect(problems({ titles: [{ written: 'DR', means: 'x', kind: 'academic' }] })).toEqual([
      'titles[0].written: must be a non-empty list of words (found "DR")',
    ]);
    expect(problems({ titles: [{ written: ['DR'], kind: 'doctor', gender: 'm', colour: 'red' }] })).toEqual([
      'titles[0].means: missing',
      'titles[0].kind: must be one of "religious", "academic", "professional", "courtesy", "deceased" (found "doctor")',
      'titles[0].gender: must be "male" or "female" (found "m")',
      'titles[0].colour: unknown field (known: written, means, kind, gender, wifeOf, wifeOfByAddress, alsoGivenName, source)',
    ]);
    expect(problems({ birthOrder: [{ written: ['WYN'], means: 'Wayan', kind: 'balinese', position: 5 }] })).toEqual([
      'birthOrder[0].position: must be 1, 2, 3 or 4 (found 5)',
    ]);
  });
});
