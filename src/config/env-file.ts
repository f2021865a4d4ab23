import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError } from '../errors.js';

/**
 * The environment a command runs with: the process environment over the env file. The file is `.env` in
 * the working directory, or `BC_ENV_FILE` (`none` for no file: tests never read a developer's `.env`).
 * Parsed by Node's own `util.parseEnv` (dotenv's rules: `#` comments, quotes, `export` prefixes).
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
  return { ...parseEnv(text), ...environment };
}
