import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { knowledgeWith, NameRulesError, parseNameRules, type NameKnowledge } from '../matching/knowledge.js';

/**
 * NAME_RULES_FILE: a site's own additions to the matcher's knowledge (a title, a legal form, a nickname, a spelling
 * its files use), as JSON in the shape of the built-in files (docs/name-matching.md, §9). Read and checked once, at
 * start: a broken file stops the command with every problem named, before any name is compared.
 */
export function readNameRules(path: string): NameKnowledge {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read NAME_RULES_FILE ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`NAME_RULES_FILE ${path} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return knowledgeWith(parseNameRules(value));
  } catch (error) {
    if (!(error instanceof NameRulesError)) throw error;
    const shown = error.problems.slice(0, 10);
    const more = error.problems.length > shown.length ? `; and ${error.problems.length - shown.length} more` : '';
    throw new ConfigError(`NAME_RULES_FILE ${path} is not a valid name rules file (docs/name-matching.md, §9): ${shown.join('; ')}${more}`);
  }
}
