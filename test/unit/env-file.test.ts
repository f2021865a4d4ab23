import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { environmentWithEnvFile } from '../../src/config/env-file.js';
import { ConfigError } from '../../src/errors.js';

const folder = mkdtempSync(join(tmpdir(), 'bc-env-file-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
/** The environment a command would see with this env file and this process environment. */
function withFile(text: string, processEnvironment: Record<string, string> = {}): Record<string, string | undefined> {
  const path = join(folder, `env-${(files += 1)}`);
  writeFileSync(path, text);
  return environmentWithEnvFile({ ...processEnvironment, BC_ENV_FILE: path });
}

// The rules users meet, as dotenv reads them (the parser most tools and tutorials follow).
describe('the .env file', () => {
  it.each([
    ['a comment after the value is dropped', 'KEY=value  # comment\n', 'value'],
    ['a comment after a tab is dropped', 'KEY=value\t# comment\n', 'value'],
    ['a # inside double quotes is kept', 'KEY="value # kept"\n', 'value # kept'],
    ['a # inside single quotes is kept', "KEY='pa#ss word'\n", 'pa#ss word'],
    ['a comment after a quoted value is dropped', 'KEY="quoted" # comment\n', 'quoted'],
    ['an unquoted # starts a comment (quote a password that has one)', 'KEY=pa#ss\n', 'pa'],
    ['`export` is accepted', 'export KEY=exported\n', 'exported'],
    ['an empty value is empty', 'KEY=\n', ''],
    ['an empty quoted value is empty', 'KEY=""\n', ''],
    ['spaces around the value are trimmed', 'KEY =  spaced value  \n', 'spaced value'],
    ['an = inside the value is kept', 'KEY=a=b=c\n', 'a=b=c'],
    ['\\n in double quotes is a line break', 'KEY="a\\nb"\n', 'a\nb'],
    ['the last of a repeated name wins', 'KEY=1\nKEY=2\n', '2'],
    ['a byte-order mark (Windows editors) does not change the first name', '\uFEFFKEY=bom\n', 'bom'],
  ])('%s', (_, text, expected) => {
    expect(withFile(text).KEY).toBe(expected);
  });

  it('reads a CRLF file (written on Windows) without carriage returns in the values', () => {
    const environment = withFile('A=1\r\nB=two words # c\r\nC="q"\r\n');
    expect([environment.A, environment.B, environment.C]).toEqual(['1', 'two words', 'q']);
  });

  it('a line without = does not swallow the next setting', () => {
    const environment = withFile('JUST_A_WORD\nREDIS_URL=redis://127.0.0.1:6390\n');
    expect(environment.REDIS_URL).toBe('redis://127.0.0.1:6390');
  });

  it('the process environment wins over the file', () => {
    const environment = withFile('REDIS_URL=redis://from-file:6379\nLOG_LEVEL=debug\n', { REDIS_URL: 'redis://from-process:6379' });
    expect(environment.REDIS_URL).toBe('redis://from-process:6379');
    expect(environment.LOG_LEVEL).toBe('debug');
  });

  it('an env file named explicitly must exist; BC_ENV_FILE=none reads none', () => {
    expect(() => environmentWithEnvFile({ BC_ENV_FILE: join(folder, 'missing') })).toThrow(ConfigError);
    expect(environmentWithEnvFile({ BC_ENV_FILE: 'none', KEY: 'process' })).toEqual({ BC_ENV_FILE: 'none', KEY: 'process' });
  });
});
