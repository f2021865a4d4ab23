import { SECTIONS, SETTINGS, type SettingSpec } from './settings.js';

/** What docs/configuration.md and the compose examples are made of; test/unit/config-schema.test.ts keeps them in step. */

const declared = Object.entries(SETTINGS) as Array<[string, SettingSpec<unknown>]>;

const cell = (text: string) => text.replaceAll('|', '\\|');

function defaultCell(spec: SettingSpec<unknown>): string {
  if (spec.defaultText !== undefined) return spec.defaultText;
  return spec.default === undefined ? 'none' : `\`${spec.default}\``;
}

/** The settings tables of docs/configuration.md: one per section, one row per setting, the old name beside a renamed one. */
export function settingsTables(): string {
  const parts: string[] = [];
  for (const section of SECTIONS) {
    parts.push(`### ${section}`, '', '| variable | type | default | meaning |', '|---|---|---|---|');
    for (const [name, spec] of declared.filter(([, spec]) => spec.section === section)) {
      const formerly = spec.replaces === undefined ? '' : ` (formerly \`${spec.replaces.name}\`, in ${spec.replaces.unit})`;
      parts.push(`| \`${name}\`${formerly} | ${cell(spec.type)} | ${cell(defaultCell(spec))} | ${cell(spec.help)} |`);
    }
    parts.push('');
  }
  return parts.join('\n');
}

export const TABLES_START = '<!-- settings: written by `npm run config:docs` from src/config/settings.ts; do not edit by hand -->';
export const TABLES_END = '<!-- settings end -->';

/** docs/configuration.md with its tables replaced by the ones the declarations give. */
export function withSettingsTables(page: string): string {
  const start = page.indexOf(TABLES_START);
  const end = page.indexOf(TABLES_END);
  if (start < 0 || end < start) throw new Error(`docs/configuration.md lacks the markers ${TABLES_START} ... ${TABLES_END}`);
  return `${page.slice(0, start + TABLES_START.length)}\n\n${settingsTables()}\n${page.slice(end)}`;
}

function exampleFile(header: string[], pick: (spec: SettingSpec<unknown>) => string | undefined): string {
  const lines = header.map((line) => `# ${line}`.trimEnd());
  for (const section of SECTIONS) {
    const shown = declared.filter(([, spec]) => spec.section === section && pick(spec) !== undefined);
    if (shown.length === 0) continue;
    lines.push('', `# ${section}`);
    for (const [name, spec] of shown) lines.push(`# ${spec.help.replaceAll('`', '')}`, `${name}=${pick(spec)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** .env.example: the compose file's app services, with the values of a first start against the demo emulator. */
export function appEnvExample(): string {
  return exampleFile(
    [
      'beneficiary-check settings for the app services of docker compose (.env.production, git-ignored, overrides them).',
      'Copy to .env.production and change every "change-me". docs/configuration.md lists every setting.',
      'Written by `npm run config:docs` from src/config/settings.ts: change a setting there, not here.',
      '',
      "Redis: the compose service's password is in redis.env.example / redis.env.production, which the app reads",
      'too and joins to REDIS_URL (never set it here for the compose Redis).',
      'Provider: these point at the emulator of the `demo` profile (docker compose --profile demo up -d).',
      'Production: H2H_ENV=production, the address the provider gave you, your credentials.',
      'Console: CONSOLE_TOKEN is required, since the console listens on every address in its container; it',
      'refuses to start with this placeholder.',
    ],
    (spec) => spec.example,
  );
}

/** redis.env.example: the compose file's Redis reads this pair only, so it never receives an app secret. */
export function redisEnvExample(): string {
  return exampleFile(
    [
      "Settings of the compose file's Redis (read by the `redis` service, and by the app services for the password",
      "they must present). Only Redis's own settings go here: Redis never receives the app's .env.* files.",
      'Copy to redis.env.production (git-ignored; it overrides this file) and change the password.',
      "Compose's Redis refuses to start without a password.",
      'Written by `npm run config:docs` from src/config/settings.ts: change a setting there, not here.',
    ],
    (spec) => spec.redisExample,
  );
}
