import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { ConfigError } from '../errors.js';

/**
 * The environment a command runs with: the process environment over the env file. The file is `.env` in
 * the working directory, or `BC_ENV_FILE` (`none` for no file: tests never read a developer's `.env`).
 * Parsed by dotenv's `parse` (no change to process.env): `#` starts a comment outside quotes, quotes keep
 * `#` and spaces, `export ` prefixes and CRLF line ends are accepted. Not Node 20's `util.parseEnv`, which
 * reads a line without `=` as the start of the next line's name (that setting is silently lost) and keeps
 * a tab before a comment in the value (test/unit/env-file.test.ts shows both).
 */
export function environmentWithEnvFile(environment: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const path = environment.BC_ENV_FILE?.trim() || '.env';
  if (path === 'none') return { ...environment };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Only a missing default file is normal; a file named explicitly must be there.
    if (code === 'ENOENT' && environment.BC_ENV_FILE === undefined) return { ...environment };
    throw new ConfigError(`cannot read the env file ${path}: ${code ?? String(error)}`);
  }
  // A byte-order mark (Windows editors) would become part of the first name.
  return { ...parse(text.replace(/^\uFEFF/, '')), ...environment };
}
