import { isTimeZone } from '../clock/local-time.js';
import { ConfigError } from '../errors.js';
import { redactUrl } from '../logging/redact-url.js';
import { DEFAULT_NAME_MATCH_POLICY, NAME_MATCH_POLICIES } from '../matching/compare-names.js';
import { DURATION_FORMS, formatDuration, parseDuration, parseLegacyDuration, type LegacyUnit } from './duration.js';
import { normaliseBaseAddress } from './endpoint.js';
import { parseRate } from './rate.js';

/**
 * Every setting, declared once: its type, default, one-line help and parser. The validation (readSettings),
 * the TypeScript type (Settings), the docs' table (docs/configuration.md) and the compose examples
 * (.env.example, redis.env.example) are derived from this table; test/unit/config-schema.test.ts fails when
 * a derived file drifts (`npm run config:docs` writes them again).
 */

export const SECTIONS = [
  'Redis',
  'Provider',
  'Inquiries',
  'Console and review',
  'Completion notices',
  'Watched folder',
  'Nightly schedule',
  'Retention and reuse',
  'Reports and name matching',
  'Process and logs',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface SettingSpec<T> {
  section: Section;
  /** The docs' type column: `duration`, `whole number`, `csv \| xlsx`... */
  type: string;
  /** The default in the setting's own syntax; without one the value is undefined unless `defaultText` says what stands in. */
  default?: string;
  /** The docs' default column where the default is derived (from another setting, or adapted at run time). */
  defaultText?: string;
  help: string;
  /** Reads a value already trimmed and not empty; throws a ConfigError naming `name` (the setting or its flag). */
  parse: (text: string, name: string) => T;
  /** The name before a rename to a duration: still read, with a warning, its bare numbers in the old unit. */
  replaces?: { name: string; unit: LegacyUnit };
  /** Shown in .env.example (the compose file's app services) with this value. */
  example?: string;
  /** Read by the compose file's Redis: shown in redis.env.example with this value. */
  redisExample?: string;
}

type Spec<T> = Omit<SettingSpec<T>, 'parse' | 'type'>;
/** A declaration as written, its `default` kept in the type (so that Settings knows which values are never undefined). */
type Declared<S, T> = S & { type: string; parse: (text: string, name: string) => T };

const text = <const S extends Spec<string>>(spec: S, type = 'text'): Declared<S, string> => ({
  ...spec,
  type,
  parse: (value: string) => value,
});

function choice<const V extends string, const S extends Spec<V>>(values: readonly V[], spec: S): Declared<S, V> {
  return {
    ...spec,
    type: values.map((value) => `\`${value}\``).join(' | '),
    parse: (value: string, name: string) => {
      const chosen = values.find((allowed) => allowed === value.toLowerCase());
      if (chosen === undefined) {
        const quoted = values.map((allowed) => `"${allowed}"`);
        throw new ConfigError(`${name} must be ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}, not ${JSON.stringify(value)}`);
      }
      return chosen;
    },
  };
}

function wholeNumber<const S extends Spec<number>>(min: 0 | 1, spec: S): Declared<S, number> {
  return {
    ...spec,
    type: min === 1 ? 'whole number above 0' : 'whole number',
    parse: (value: string, name: string) => {
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < min)
        throw new ConfigError(`${name} must be a whole number${min === 1 ? ' above 0' : ''}, not ${JSON.stringify(value)}`);
      return parsed;
    },
  };
}

function positiveNumber<const S extends Spec<number>>(spec: S): Declared<S, number> {
  return {
    ...spec,
    type: 'number above 0',
    parse: (value: string, name: string) => {
      const parsed = Number(value);
      if (!Number.isFinite(parsed) || parsed <= 0) throw new ConfigError(`${name} must be a number above 0, not ${JSON.stringify(value)}`);
      return parsed;
    },
  };
}

/** What a duration may be: above 0, 0 or more, or above 0 with a bare `0` meaning "off". */
type DurationRange = 'positive' | 'zero-or-more' | 'positive-or-off';

/**
 * The longest wait a timer can hold (Node's setTimeout: 2^31 - 1 ms, about 24.8 days). A longer one is not an
 * error there: Node warns and fires it after 1 ms, so a time setting that feeds a timer is refused above it.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A time, in milliseconds, written `500ms`, `30s`, `5m`, `12h` or `30d`. */
function duration<const S extends Spec<number>>(range: DurationRange, spec: S): Declared<S, number> {
  return {
    ...spec,
    type: range === 'zero-or-more' ? 'duration' : range === 'positive' ? 'duration above 0' : 'duration, `0` off',
    parse: (value: string, name: string) => checkDuration(parseDuration(value), value, name, range),
  };
}

/** A duration that a timer waits for: at most 24 days. */
function timerDuration<const S extends Spec<number>>(range: DurationRange, spec: S): Declared<S, number> {
  const declared = duration(range, spec);
  return {
    ...declared,
    type: `${declared.type}, at most 24d`,
    parse: (value: string, name: string) => {
      const ms = declared.parse(value, name);
      if (ms > LONGEST_TIMER_MS)
        throw new ConfigError(`${name} must be at most 24d (a timer waits no longer), not ${JSON.stringify(value)}`);
      return ms;
    },
  };
}

/**
 * A batch's keys expire BATCH_RETENTION after its last write, and a run can go minutes without writing to it:
 * a 429's hold (Retry-After, capped at 10 minutes), the outage budget, a rate of a call a minute. Set to
 * `1ms`, a batch vanished between two answers and the run stopped saying Redis had lost its data; an hour
 * leaves room for every such pause.
 */
const SHORTEST_BATCH_RETENTION = { ms: 3_600_000, text: '1h' };

/** BATCH_RETENTION: a positive duration, at least SHORTEST_BATCH_RETENTION. */
function batchRetention<const S extends Spec<number>>(spec: S): Declared<S, number> {
  const declared = duration('positive', spec);
  return {
    ...declared,
    type: `duration, at least ${SHORTEST_BATCH_RETENTION.text}`,
    parse: (value: string, name: string) => {
      const ms = declared.parse(value, name);
      if (ms < SHORTEST_BATCH_RETENTION.ms)
        throw new ConfigError(
          `${name} must be at least ${SHORTEST_BATCH_RETENTION.text}, not ${JSON.stringify(value)}: a batch's keys expire that long after its last write, and a run can go minutes without one (a 429's hold, an outage, a slow rate)`,
        );
      return ms;
    },
  };
}

function checkDuration(ms: number | undefined, value: string, name: string, range: DurationRange): number {
  if (ms === undefined) throw new ConfigError(`${name} must be a duration, ${DURATION_FORMS}, not ${JSON.stringify(value)}`);
  if (ms === 0 && range === 'positive') throw new ConfigError(`${name} must be above 0, not ${JSON.stringify(value)}`);
  if (ms === 0 && range === 'positive-or-off' && value.trim() !== '0')
    throw new ConfigError(`${name} must be above 0, or 0 for never, not ${JSON.stringify(value)}`);
  return ms;
}

const HTTP_ADDRESS = /^https?:\/\/[^\s]+$/i;

function httpAddress(value: string, name: string): string {
  if (!HTTP_ADDRESS.test(value)) throw new ConfigError(`${name} must be an http(s) address, not ${JSON.stringify(redactUrl(value))}`);
  return value;
}

function timeZone<const S extends Spec<string>>(spec: S): Declared<S, string> {
  return {
    ...spec,
    type: 'IANA time zone',
    parse: (value: string, name: string) => {
      if (!isTimeZone(value))
        throw new ConfigError(`${name} must be an IANA time zone such as Asia/Jakarta or UTC, not ${JSON.stringify(value)}`);
      return value;
    },
  };
}

/** The shape only (5 fields, or 6 with seconds first); `schedule` checks the values when it computes the next run. */
function cronPattern(value: string, name: string): string {
  const fields = value.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw new ConfigError(
      `${name} must be a cron pattern of 5 fields (minute hour day month weekday) or 6 (seconds first), not ${JSON.stringify(value)}; e.g. "0 2 * * *" for 02:00 every day`,
    );
  }
  return fields.join(' ');
}

/** An HTTP header name (RFC 9110 token characters), kept in lower case as Node gives headers. */
function headerName(value: string, name: string): string {
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(value))
    throw new ConfigError(`${name} must be an HTTP header name such as X-Forwarded-User, not ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

/**
 * RUN_WORKER_PROCESSES: `auto`: `run` adds `worker` processes one at a time while its own event loop is
 * saturated and accounts remain; a number: that many from the start (at most one fewer than the cores); `0`: none.
 */
export type RunWorkerProcesses = { kind: 'auto' } | { kind: 'fixed'; count: number };

function runWorkerProcesses(value: string, name: string): RunWorkerProcesses {
  const given = value.toLowerCase();
  if (given === 'auto') return { kind: 'auto' };
  if (!/^\d+$/.test(given)) throw new ConfigError(`${name} must be "auto" or a whole number (0 for none), not ${JSON.stringify(value)}`);
  return { kind: 'fixed', count: Number(given) };
}

export const SETTINGS = {
  // Redis
  REDIS_URL: text(
    {
      section: 'Redis',
      help: 'Redis connection: `redis://host:port`, `rediss://` for TLS, `redis://user:password@host:port` for an ACL user; `run` starts a private `redis-server` when it is unset and nothing answers at the default',
      defaultText: '`redis://127.0.0.1:6379`',
      example: 'redis://redis:6379',
    },
    'Redis URL',
  ),
  REDIS_CLUSTER_NODES: text(
    {
      section: 'Redis',
      help: 'a Redis Cluster instead of `REDIS_URL` (not both): seed nodes `host:port,host:port`, or `redis://` / `rediss://` URLs, all alike',
    },
    'list of nodes',
  ),
  REDIS_USERNAME: text({
    section: 'Redis',
    help: 'ACL user, used when `REDIS_URL` (or the cluster nodes) names none',
    defaultText: 'the `default` user',
  }),
  REDIS_PASSWORD: text(
    {
      section: 'Redis',
      help: 'Redis password, used when `REDIS_URL` (or the cluster nodes) carries none; the compose Redis requires it',
      redisExample: 'change-me-redis-password',
    },
    'secret',
  ),
  REDIS_MAXMEMORY: text(
    {
      section: 'Redis',
      help: "the compose file's Redis only: its `maxmemory` (read by the `redis` service, not by this tool)",
      redisExample: '1gb',
    },
    'size',
  ),
  REDIS_TLS_CA_FILE: text(
    {
      section: 'Redis',
      help: 'PEM file of a private CA that signed the Redis server certificate (with `rediss://` only); without it the system CAs are trusted',
    },
    'file',
  ),
  PRIVATE_REDIS: choice(['auto', 'always', 'never'], {
    section: 'Redis',
    default: 'auto',
    help: '`run` without `REDIS_URL`: `auto` starts a private `redis-server` (a unix socket only) when nothing answers at the default address, `always` even then, `never` not',
  }),
  REDIS_UNAVAILABLE_TIMEOUT: timerDuration('positive', {
    section: 'Redis',
    default: '30s',
    replaces: { name: 'REDIS_UNAVAILABLE_TIMEOUT_S', unit: 's' },
    help: 'how long Redis may stay unreachable during work: one-shot commands then stop with exit 1, services keep retrying and say so',
  }),
  BC_KEY_PREFIX: text({
    section: 'Redis',
    default: 'bc',
    help: 'prefix of every Redis key (several deployments or test runs in one Redis)',
  }),
  // Provider
  H2H_ENV: choice(['sandbox', 'production'], {
    section: 'Provider',
    default: 'sandbox',
    help: 'the provider environment, in any case; production must be chosen explicitly (`--env` overrides)',
    example: 'sandbox',
  }),
  H2H_BASE_URL: {
    section: 'Provider',
    type: 'http(s) address',
    example: 'http://sandbox:8080',
    help: 'provider base address; required by the commands that call the provider (in the sandbox without it, `run` uses the built-in emulator)',
    parse: (value: string, name: string) => normaliseBaseAddress(httpAddress(value, name)),
  } satisfies SettingSpec<string>,
  H2H_USERNAME: text({ section: 'Provider', help: 'login user (required with `H2H_BASE_URL`)', example: 'sandbox' }),
  H2H_PASSWORD: text(
    {
      section: 'Provider',
      help: 'login password (required with `H2H_BASE_URL`); also the key the shared token is sealed with in Redis',
      example: 'sandbox',
    },
    'secret',
  ),
  H2H_TIMEOUT: timerDuration('positive', {
    section: 'Provider',
    default: '15s',
    replaces: { name: 'H2H_TIMEOUT_MS', unit: 'ms' },
    help: 'per-request timeout, from sending to the last byte of the answer',
  }),
  H2H_LOGIN_BODY: choice(['json', 'form'], { section: 'Provider', default: 'json', help: 'how the login sends its fields' }),
  H2H_LOGIN_USERNAME_FIELD: text({ section: 'Provider', default: 'username', help: 'login field name of the user' }),
  H2H_LOGIN_PASSWORD_FIELD: text({ section: 'Provider', default: 'password', help: 'login field name of the password' }),
  H2H_LOGIN_TOKEN_PATH: text({ section: 'Provider', default: 'data.access_token', help: 'dotted path of the token in the login answer' }),
  H2H_LOGIN_EXPIRES_PATH: text({
    section: 'Provider',
    default: 'data.expires_in',
    help: "dotted path of the token's lifetime (seconds) in the login answer",
  }),
  H2H_TOKEN_REFRESH_MARGIN: duration('zero-or-more', {
    section: 'Provider',
    default: '5m',
    replaces: { name: 'H2H_TOKEN_REFRESH_MARGIN_S', unit: 's' },
    help: 'refresh the token this long before it expires (at most a twentieth of its lifetime)',
  }),
  // Inquiries
  INQUIRY_RATE: {
    section: 'Inquiries',
    type: 'rate (`20/s`, `600/min`)',
    default: '20/s',
    example: '20/s',
    help: 'default for `--rate`: the ceiling for every worker of every process together; one value per queue',
    parse: (value: string) => parseRate(value),
  } satisfies SettingSpec<ReturnType<typeof parseRate>>,
  INQUIRY_CONCURRENCY: wholeNumber(1, {
    section: 'Inquiries',
    defaultText: 'adapted, 16 to 256',
    example: '16',
    help: 'default for `--concurrency`: the most inquiries in flight per process (a cap; the figure adapts below it)',
  }),
  INQUIRY_ATTEMPTS: wholeNumber(1, {
    section: 'Inquiries',
    default: '5',
    help: 'attempts per account for transient failures (network, timeout, 5xx); 429s do not count',
  }),
  INQUIRY_BACKOFF: timerDuration('positive', {
    section: 'Inquiries',
    default: '2s',
    replaces: { name: 'INQUIRY_BACKOFF_MS', unit: 'ms' },
    help: 'first retry delay, doubled per attempt with jitter, capped at a minute',
  }),
  INQUIRY_OUTAGE_BUDGET: timerDuration('positive', {
    section: 'Inquiries',
    default: '2m',
    replaces: { name: 'INQUIRY_OUTAGE_BUDGET_S', unit: 's' },
    help: 'how long `run` waits without any answer while the provider fails before it stops',
  }),
  RUN_WORKER_PROCESSES: {
    section: 'Inquiries',
    type: '`auto` or whole number',
    default: 'auto',
    help: 'extra `worker` processes `run` / `resume` start: `auto` while its event loop is saturated (from 3 cores), a number at once, `0` none',
    parse: runWorkerProcesses,
  } satisfies SettingSpec<RunWorkerProcesses>,
  // Console and review
  CONSOLE_TOKEN: text(
    {
      section: 'Console and review',
      help: "the console's access token, at least 32 random characters (`openssl rand -hex 32`); required to serve on any address but loopback",
      example: 'change-me-console-token',
    },
    'secret',
  ),
  CONSOLE_REPORTS_DIR: text(
    { section: 'Console and review', default: './reports', help: 'where the console keeps uploads and writes their reports' },
    'folder',
  ),
  CONSOLE_UPLOAD_MAX_MB: positiveNumber({
    section: 'Console and review',
    default: '100',
    example: '100',
    help: 'largest upload the console accepts, in MB',
  }),
  CONSOLE_USER_HEADER: {
    section: 'Console and review',
    type: 'HTTP header name',
    help: 'the header an authenticating proxy names the signed-in person in (`X-Forwarded-User`); without it the console records no decision',
    parse: headerName,
  } satisfies SettingSpec<string>,
  DISPLAY_TZ: timeZone({
    section: 'Console and review',
    default: 'Asia/Jakarta',
    help: "the time zone people read times in: the console's pages, `decided_at` in reports, the audit trail's export",
  }),
  // Completion notices
  NOTIFY_WEBHOOK_URL: {
    section: 'Completion notices',
    type: 'http(s) address',
    example: '',
    help: 'completion notices are POSTed here when a batch finishes (off when unset)',
    parse: httpAddress,
  } satisfies SettingSpec<string>,
  NOTIFY_WEBHOOK_SECRET: text(
    { section: 'Completion notices', help: "HMAC-SHA256 key of the notice's signature; required with the URL", example: '' },
    'secret',
  ),
  NOTIFY_WEBHOOK_TIMEOUT: timerDuration('positive', {
    section: 'Completion notices',
    default: '10s',
    replaces: { name: 'NOTIFY_WEBHOOK_TIMEOUT_MS', unit: 'ms' },
    help: 'per delivery attempt',
  }),
  NOTIFY_WEBHOOK_ATTEMPTS: wholeNumber(1, {
    section: 'Completion notices',
    default: '10',
    help: 'delivery attempts before a notice is given up (kept as a failed job)',
  }),
  NOTIFY_WEBHOOK_BACKOFF: timerDuration('positive', {
    section: 'Completion notices',
    default: '5s',
    replaces: { name: 'NOTIFY_WEBHOOK_BACKOFF_MS', unit: 'ms' },
    help: 'first retry delay, doubled per attempt',
  }),
  NOTIFY_RUN_WAIT: timerDuration('zero-or-more', {
    section: 'Completion notices',
    default: '10s',
    replaces: { name: 'NOTIFY_RUN_WAIT_SECONDS', unit: 's' },
    help: 'how long `run` waits for its own notice before leaving it to a running process',
  }),
  // Watched folder
  WATCH_STABLE: timerDuration('zero-or-more', {
    section: 'Watched folder',
    default: '10s',
    replaces: { name: 'WATCH_STABLE_SECONDS', unit: 's' },
    example: '10s',
    help: 'an inbox file must stay unchanged this long before it is taken',
  }),
  WATCH_POLL: timerDuration('positive', {
    section: 'Watched folder',
    default: '2s',
    replaces: { name: 'WATCH_POLL_MS', unit: 'ms' },
    help: 'how often the inbox is listed',
  }),
  WATCH_DUPLICATE_WINDOW: duration('zero-or-more', {
    section: 'Watched folder',
    default: '24h',
    replaces: { name: 'WATCH_DUPLICATE_WINDOW_HOURS', unit: 'h' },
    example: '24h',
    help: 'the same content dropped again within this window is not validated again (`0`: off)',
  }),
  WATCH_REVIEWER: text({
    section: 'Watched folder',
    help: 'who decided, for a reviewed report dropped into `reviews/` whose name does not say (`<reviewer>--<name>`)',
  }),
  // Nightly schedule
  SCHEDULE_CRON: {
    section: 'Nightly schedule',
    type: 'cron pattern',
    default: '0 2 * * *',
    example: '0 2 * * *',
    help: 'when the nightly run starts; 5 fields, or 6 with seconds first',
    parse: cronPattern,
  } satisfies SettingSpec<string>,
  SCHEDULE_TZ: timeZone({
    section: 'Nightly schedule',
    default: 'Asia/Jakarta',
    example: 'Asia/Jakarta',
    help: 'time zone of the pattern',
  }),
  SCHEDULE_SOURCE: text(
    { section: 'Nightly schedule', help: 'the export: a CSV or XLSX file, or a folder whose newest one is taken (required by `schedule`)' },
    'file or folder',
  ),
  SCHEDULE_OUTBOX: text(
    { section: 'Nightly schedule', defaultText: '`outbox` beside the export', help: 'where nightly reports are written' },
    'folder',
  ),
  // Retention and reuse
  BATCH_RETENTION: batchRetention({
    section: 'Retention and reuse',
    default: '30d',
    replaces: { name: 'BATCH_RETENTION_DAYS', unit: 'd' },
    help: "how long a batch's working state is kept in Redis after the last write to it; the default of `prune --older-than`; also how long the console keeps uploads",
  }),
  ACCOUNT_HISTORY_RETENTION: duration('positive', {
    section: 'Retention and reuse',
    defaultText: '`BATCH_RETENTION`',
    replaces: { name: 'ACCOUNT_HISTORY_DAYS', unit: 'd' },
    help: "how long an account's last definitive answer is kept after it was given; the `change` column compares with it",
  }),
  DECISION_RETENTION: duration('zero-or-more', {
    section: 'Retention and reuse',
    default: '0',
    replaces: { name: 'DECISION_RETENTION_DAYS', unit: 'd' },
    help: 'how long a decision stands and its audit entries are kept; `0`: for ever',
  }),
  REUSE_ANSWERS: duration('positive-or-off', {
    section: 'Retention and reuse',
    default: '0',
    help: 'default for `--reuse-answers`: reuse a definitive answer at most this old instead of asking; `0`: never',
  }),
  // Reports and name matching
  OUTPUT_FORMAT: choice(['csv', 'xlsx'], {
    section: 'Reports and name matching',
    default: 'csv',
    help: 'the reports of `watch` and `schedule`, and of `run` / `resume` without `--out`',
  }),
  BANK_CODE_MAP: text(
    {
      section: 'Reports and name matching',
      help: "a CSV of `alias,provider_code`: bank names an export carries, sent as the provider's codes; a broken map is exit 2",
    },
    'file',
  ),
  NAME_MATCH_POLICY: choice(NAME_MATCH_POLICIES, {
    section: 'Reports and name matching',
    default: DEFAULT_NAME_MATCH_POLICY,
    help: 'whether truncations, initials and a middle name on one side may be `MATCH` (standard) or go to a person (strict)',
  }),
  NAME_RULES_FILE: text(
    {
      section: 'Reports and name matching',
      help: "a JSON file of the site's own name knowledge added to the built-in files; a broken file is exit 2 naming every problem",
    },
    'file',
  ),
  // Process and logs
  LOG_LEVEL: text({ section: 'Process and logs', default: 'info', example: 'info', help: 'pino level; logs go to stderr' }),
  LOG_FORMAT: choice(['auto', 'json', 'pretty'], {
    section: 'Process and logs',
    default: 'auto',
    example: 'json',
    help: '`auto`: readable on a terminal, JSON lines elsewhere',
  }),
  SHUTDOWN_TIMEOUT: timerDuration('zero-or-more', {
    section: 'Process and logs',
    default: '30s',
    replaces: { name: 'SHUTDOWN_TIMEOUT_SECONDS', unit: 's' },
    help: 'on SIGTERM / SIGINT / SIGHUP, how long active work may finish before it is handed back',
  }),
  BC_ENV_FILE: text(
    {
      section: 'Process and logs',
      defaultText: '`.env`',
      help: 'the env file read at start (`none`: none); set it in the environment, not in the file',
    },
    'file',
  ),
} satisfies Record<string, SettingSpec<unknown>>;

export type SettingName = keyof typeof SETTINGS;

type ValueOf<S> = S extends SettingSpec<infer T> ? (S extends { default: string } ? T : T | undefined) : never;

/** Every setting's value, typed by its declaration: a setting with a default is never undefined. */
export type Settings = { -readonly [K in SettingName]: ValueOf<(typeof SETTINGS)[K]> };

export interface ReadSettings {
  settings: Settings;
  /** One line per deprecated name read (or ignored beside its new name), for the log. */
  deprecations: string[];
}

type Environment = Record<string, string | undefined>;

const given = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
};

/**
 * Reads and validates every setting of the environment once; the first invalid one is a ConfigError naming it.
 * `overridden`: settings a command-line flag replaces, neither read nor checked (their value is undefined).
 */
export function readSettings(env: Environment, overridden: readonly SettingName[] = []): ReadSettings {
  const deprecations: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(SETTINGS) as Array<[string, SettingSpec<unknown>]>) {
    if ((overridden as readonly string[]).includes(name)) continue;
    const value = given(env[name]);
    const legacy = spec.replaces === undefined ? undefined : given(env[spec.replaces.name]);
    if (value !== undefined) {
      values[name] = spec.parse(value, name);
      if (legacy !== undefined)
        deprecations.push(`${spec.replaces!.name} is ignored: ${name} is set (${spec.replaces!.name} is its old name)`);
    } else if (legacy !== undefined) {
      values[name] = readLegacy(name, spec, legacy);
      deprecations.push(`${spec.replaces!.name} is deprecated: write ${name}=${formatDuration(values[name] as number)}`);
    } else {
      values[name] = spec.default === undefined ? undefined : spec.parse(spec.default, name);
    }
  }
  return { settings: values as Settings, deprecations };
}

/** A renamed duration under its old name: a bare number is in the old unit, as it always was. */
function readLegacy(name: string, spec: SettingSpec<unknown>, value: string): number {
  const { name: oldName, unit } = spec.replaces!;
  const ms = parseLegacyDuration(value, unit);
  if (ms === undefined)
    throw new ConfigError(
      `${oldName} (now ${name}) must be a number of ${unit}, or a duration (${DURATION_FORMS}), not ${JSON.stringify(value)}`,
    );
  // The range is the new setting's: its parser, given the value in its own syntax.
  return spec.parse(value.trim() === '0' ? '0' : formatDuration(ms), oldName) as number;
}
