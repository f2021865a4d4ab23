import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';

const load = (value: string | undefined) => loadConfig({}, value === undefined ? {} : { NAME_MATCH_POLICY: value });

describe('NAME_MATCH_POLICY', () => {
  it('is standard unless set', () => {
    expect(load(undefined).nameMatchPolicy).toBe('standard');
    expect(load('  ').nameMatchPolicy).toBe('standard');
  });

  it('reads strict and standard in any case', () => {
    expect(load('strict').nameMatchPolicy).toBe('strict');
    expect(load(' STRICT ').nameMatchPolicy).toBe('strict');
    expect(load('Standard').nameMatchPolicy).toBe('standard');
  });

  it('refuses anything else, naming the choices', () => {
    expect(() => load('lenient')).toThrow(ConfigError);
    expect(() => load('lenient')).toThrow('NAME_MATCH_POLICY must be "standard" or "strict", not "lenient"');
  });
});
