import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';
import { compareNames } from '../../src/matching/compare-names.js';
import { BUILT_IN_KNOWLEDGE } from '../../src/matching/knowledge.js';

const load = (value: string | undefined) => loadConfig({}, value === undefined ? {} : { NAME_MATCH_POLICY: value });

describe('NAME_MATCH_POLICY', () => {
  it('is standard unless set', () => {
    expect(load(undefined).nameMatching.policy).toBe('standard');
    expect(load('  ').nameMatching.policy).toBe('standard');
  });

  it('reads strict and standard in any case', () => {
    expect(load('strict').nameMatching.policy).toBe('strict');
    expect(load(' STRICT ').nameMatching.policy).toBe('strict');
    expect(load('Standard').nameMatching.policy).toBe('standard');
  });

  it('refuses anything else, naming the choices', () => {
    expect(() => load('lenient')).toThrow(ConfigError);
    expect(() => load('lenient')).toThrow('NAME_MATCH_POLICY must be "standard" or "strict", not "lenient"');
  });
});

describe('NAME_RULES_FILE', () => {
  const folder = mkdtempSync(join(tmpdir(), 'bc-name-rules-'));
  const file = (name: string, text: string) => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };
  const withRules = (path: string | undefined) => loadConfig({}, path === undefined ? {} : { NAME_RULES_FILE: path });

  it('is the built-in knowledge unless set', () => {
    expect(withRules(undefined).nameMatching.knowledge).toBe(BUILT_IN_KNOWLEDGE);
  });

  it("adds a site's entries, which change the verdicts they are about", () => {
    const path = file(
      'site.json',
      JSON.stringify({ nicknames: [{ short: 'UCOK', full: ['PARLINDUNGAN'], kind: 'nickname', source: 'ops' }] }),
    );
    const { policy, knowledge } = withRules(path).nameMatching;
    expect(compareNames('Ucok Sinaga', 'PARLINDUNGAN SINAGA', policy, knowledge).verdict).toBe('CLOSE_MATCH');
    expect(compareNames('Ucok Sinaga', 'PARLINDUNGAN SINAGA').verdict).toBe('NO_MATCH');
  });

  it('refuses a file that cannot be read, is not JSON, or holds entries that are not right, saying where', () => {
    expect(() => withRules(join(folder, 'missing.json'))).toThrow(/^cannot read NAME_RULES_FILE .*missing\.json: ENOENT$/);
    expect(() => withRules(file('broken.json', '{ "titles": ['))).toThrow(/NAME_RULES_FILE .*broken\.json is not valid JSON/);
    const bad = file('bad.json', JSON.stringify({ titles: [{ written: ['KANJENG'], means: 'x', kind: 'royal' }], nickname: [] }));
    expect(() => withRules(bad)).toThrow(ConfigError);
    expect(() => withRules(bad)).toThrow(
      `NAME_RULES_FILE ${bad} is not a valid name rules file (docs/name-matching.md, §9): titles[0].kind: must be one of "religious", "academic", "professional", "courtesy", "deceased" (found "royal"); nickname: unknown concept`,
    );
  });
});
