import { readFileSync } from 'node:fs';
import { isTimeZone } from '../clock/local-time.js';
import type { BankCodeMap } from '../csv/validation.js';
import { ConfigError } from '../errors.js';
import { redactUrl } from '../logging/redact-url.js';
import { readBankCodeMap } from './bank-code-map.js';
import { normaliseBaseAddress } from './endpoint.js';
import { DEFAULT_NAME_MATCH_POLICY, NAME_MATCH_POLICIES, type NameMatching, type NameMatchPolicy } from '../matching/compare-names.js';
import { BUILT_IN_KNOWLEDGE } from '../matching/knowledge.js';
import { readNameRules } from './name-rules-file.js';
import { parseRate, type Rate } from './rate.js';

export type { Rate } from './rate.js';
export { parseRate, ratePerSecond, formatRate, rateSetting } from './rate.js';

export type ProviderEnvironment = 'sandbox' | 'production';

/** How the provider's login is called and where its answer keeps the token (provider-facts.md gives the defaults). */
export interface LoginSettings {
  bodyFormat: 'json' | 'form';
  usernameField: string;
  passwordField: string;
  /** Dotted path to the access token in the login response. */
  tokenPath: string;
  /** Dotted path to the lifetime in seconds; the JWT `exp` claim is used when this is absent. */
  expiresInPath: string;
  /** Refresh this long before the token expires, so a steady run never meets a 401. */
  refreshMarginSeconds: number;
}

export interface ProviderSettings {
  environment: ProviderEnvironment;
  /** Undefined only for the sandbox without H2H_BASE_URL: `run` then starts the built-in emulator. */
  baseUrl: string | undefined;
  /** Set by `run` for the built-in emulator it started: its address, hence its queue, is this process's own. */
  builtinEmulator?: boolean;
  username: string | undefined;
  password: string | undefined;
  requestTimeoutMs: number;
  login: LoginSettings;
}

/** Inquiries in flight per process: adapted to the provider's latency between these (src/queue/concurrency.ts). */
export interface ConcurrencyBounds {
  min: number;
  max: number;
}

export interface InquirySettings {
  rate: Rate;
  concurrency: ConcurrencyBounds;
  /** Attempts per row for transient failures (network, timeout, 5xx); 429s do not count. */
  attempts: number;
  /** Whether INQUIRY_CONCURRENCY or --concurrency was given: a cap the user chose, per process. */
  concurrencyGiven: boolean;
  /** First retry delay; doubles each attempt, with jitter. */
  backoffMs: number;
  /** How long a batch may go without any answer while the provider fails before its rest is FAILED. */
  outageBudgetMs: number;
}

/** The watched-folder service (`watch <folder>`). */
export interface WatchSettings {
  /** A file must keep the same size and mtime for this long before it is taken (WATCH_STABLE_SECONDS, default 10). */
  stableMs: number;
  /** How often the inbox is listed (WATCH_POLL_MS, default 2000). */
  pollMs: number;
  /** The same content dropped again within this window is not validated again (WATCH_DUPLICATE_WINDOW_HOURS, default 24; 0 = off). */
  duplicateWindowMs: number;
  /** Who decided, for a reviewed report dropped into `reviews/` whose name does not say (WATCH_REVIEWER). */
  reviewer: string | undefined;
}

/** The nightly validation (`schedule`). */
export interface ScheduleSettings {
  /** Cron pattern, 5 fields or 6 with seconds first (SCHEDULE_CRON, default `0 2 * * *`). */
  cron: string;
  /** IANA time zone the pattern is read in (SCHEDULE_TZ, default Asia/Jakarta). */
  timeZone: string;
  /** The export: a CSV file, or a folder whose newest CSV is taken (SCHEDULE_SOURCE; required by `schedule`). */
  source: string | undefined;
  /** Where reports go (SCHEDULE_OUTBOX; default `outbox` beside the source). */
  outbox: string | undefined;
}

/** The operations console (`serve`). */
export interface ConsoleSettings {
  /** Required for any address but loopback; when set, every route but /healthz and /readyz needs it (CONSOLE_TOKEN). */
  token: string | undefined;
  /** Where uploads and their reports are kept (CONSOLE_REPORTS_DIR, default ./reports). */
  reportsDir: string;
  /** Largest upload accepted (CONSOLE_UPLOAD_MAX_MB, default 100). */
  uploadMaxBytes: number;
  /**
   * The header an authenticating proxy in front of the console puts the signed-in person's name in
   * (CONSOLE_USER_HEADER, e.g. x-forwarded-user; lower case). Trusted only when set; without it the console
   * knows no person, and records no decision.
   */
  userHeader: string | undefined;
}

/** People's decisions on CLOSE_MATCH / NO_MATCH rows (src/review): records, not working state. */
export interface DecisionSettings {
  /** How long a decision stands and its audit entries are kept (DECISION_RETENTION_DAYS); 0 = for ever (the default). */
  keepMs: number;
}

/** Completion notices: a signed POST to a webhook when a batch finishes. */
export interface NotifySettings {
  /** NOTIFY_WEBHOOK_URL; notices are off without it. */
  webhookUrl: string | undefined;
  /** NOTIFY_WEBHOOK_SECRET: the HMAC-SHA256 key of the signature header (required with the URL). */
  secret: string | undefined;
  /** Per delivery attempt (NOTIFY_WEBHOOK_TIMEOUT_MS, default 10000). */
  timeoutMs: number;
  /** Delivery attempts before the notice is given up, kept as a failed job (NOTIFY_WEBHOOK_ATTEMPTS, default 10). */
  attempts: number;
  /** First retry delay, doubled per attempt (NOTIFY_WEBHOOK_BACKOFF_MS, default 5000). */
  backoffMs: number;
  /** How long `run` waits for its own notice before it exits and leaves it to a running worker (NOTIFY_RUN_WAIT_SECONDS, default 10). */
  runWaitMs: number;
}

export type LogFormat = 'auto' | 'json' | 'pretty';
/** Batch working state in Redis (BATCH_RETENTION_DAYS). */
export interface RetentionSettings {
  /** How long a finished batch (rows, answers) is kept in Redis (BATCH_RETENTION_DAYS, default 30). */
  batchMs: number;
}

/** The last definitive answer per account, across batches (see src/history). */
export interface HistorySettings {
  /** How long an account's last answer is kept after it was given (ACCOUNT_HISTORY_DAYS, default BATCH_RETENTION_DAYS). */
  keepMs: number;
  /** Reuse a definitive answer at most this old instead of asking again (--reuse-answers / REUSE_ANSWERS); 0 = never. */
  reuseAnswersMs: number;
}

/** The report's file format for entry points that choose the name themselves (OUTPUT_FORMAT). */
export type OutputFormat = 'csv' | 'xlsx';

/**
 * RUN_WORKER_PROCESSES: `auto` (default): `run` adds `worker` processes one at a time while its own event
 * loop is saturated and accounts remain, up to two fewer than the cores; a number: that many from the start
 * (at most one fewer than the cores); `0`: none.
 */
export type RunWorkerProcesses = { kind: 'auto' } | { kind: 'fixed'; count: number };

/** Whether `run` starts its own throw-away redis-server (PRIVATE_REDIS). */
export type PrivateRedisChoice = 'auto' | 'always' | 'never';

export interface Config {
  /** Undefined when REDIS_URL is not set: `run` may then start a private redis-server. */
  redisUrl: string | undefined;
  /**
   * PRIVATE_REDIS: `auto` (default: `run` without REDIS_URL starts one when nothing answers at the default
   * address), `always` (`run` always uses its own, even when a Redis answers there), `never`.
   */
  privateRedis: PrivateRedisChoice;
  /** How long Redis may be unreachable during work before a command gives up (REDIS_UNAVAILABLE_TIMEOUT_S, default 30). */
  redisUnavailableTimeoutMs: number;
  /** REDIS_PASSWORD: used when REDIS_URL (or REDIS_CLUSTER_NODES) carries no password (one secret in one place, e.g. the compose env file). */
  redisPassword: string | undefined;
  /** REDIS_USERNAME: the ACL user, when REDIS_URL (or REDIS_CLUSTER_NODES) names none. */
  redisUsername: string | undefined;
  /** REDIS_CLUSTER_NODES: seed nodes of a Redis Cluster; when set, the tool talks to the cluster instead of REDIS_URL. */
  redisCluster: RedisClusterSettings | undefined;
  /** REDIS_TLS_CA_FILE: the PEM of a private CA that signed the Redis server's certificate (needs rediss://). */
  redisTlsCa: string | undefined;
  /** Prefix of every Redis key this tool writes, so that several deployments or test runs can share one Redis. */
  keyPrefix: string;
  provider: ProviderSettings;
  inquiry: InquirySettings;
  logLevel: string;
  /** LOG_FORMAT: `auto` (readable on a terminal, JSON elsewhere), `json` or `pretty`. */
  logFormat: LogFormat;
  console: ConsoleSettings;
  notify: NotifySettings;
  watch: WatchSettings;
  schedule: ScheduleSettings;
  retention: RetentionSettings;
  history: HistorySettings;
  /** OUTPUT_FORMAT: `csv` (default) or `xlsx`, for the reports `watch`, `schedule` and a `run` without --out name. */
  outputFormat: OutputFormat;
  /** RUN_WORKER_PROCESSES: the extra `worker` processes `run` starts for its batch (src/app/worker-processes.ts). */
  runWorkerProcesses: RunWorkerProcesses;
  /** Long-running commands: how long a SIGTERM/SIGINT waits for active work before handing it back (SHUTDOWN_TIMEOUT_SECONDS, default 30). */
  shutdownTimeoutMs: number;
  /**
   * How holder names are read: NAME_MATCH_POLICY (default standard) and the matcher's knowledge with a site's
   * NAME_RULES_FILE added (docs/name-matching.md).
   */
  nameMatching: NameMatching;
  /** BANK_CODE_MAP: bank names (aliases) an export may carry, translated to the provider's codes; empty without the file. */
  bankCodes: BankCodeMap;
  /** DISPLAY_TZ: the IANA zone people read times in (the console, `decided_at`, the audit trail); default Asia/Jakarta (WIB). */
  displayTimeZone: string;
  decisions: DecisionSettings;
}

/** A Redis Cluster, from REDIS_CLUSTER_NODES (`host:port` or `redis[s]://[user:password@]host:port`, comma-separated). */
export interface RedisClusterSettings {
  nodes: Array<{ host: string; port: number }>;
  /** Every node written `rediss://`: TLS to every node. */
  tls: boolean;
  /** Credentials written in a node URL (the first that has them); REDIS_USERNAME/REDIS_PASSWORD fill in otherwise. */
  username: string | undefined;
  password: string | undefined;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Command-line flags that override the environment. */
export interface ConfigOverrides {
  rate?: string | undefined;
  concurrency?: string | number | undefined;
  env?: string | undefined;
  /** `--reuse-answers 24h`. */
  reuseAnswers?: string | undefined;
}

type Environment = Record<string, string | undefined>;

/**
 * Validates the configuration once, from the environment given (the command line's edge merges the
 * env file into it: see env-file.ts). The provider's address and credentials (production's address too) are
 * required by `requireProvider`, only for the commands that call the provider: `status`, `export` and
 * `schedule --list/--remove` need nothing but Redis.
 */
export function loadConfig(overrides: ConfigOverrides = {}, env: Environment = process.env): Config {
  const environmentName = (overrides.env ?? env.H2H_ENV ?? 'sandbox').trim().toLowerCase();
  if (environmentName !== 'sandbox' && environmentName !== 'production') {
    throw new ConfigError(`H2H_ENV / --env must be "sandbox" or "production", not ${JSON.stringify(environmentName)}`);
  }
  const baseUrl = optional(env.H2H_BASE_URL);
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/i.test(baseUrl)) {
    throw new ConfigError(`H2H_BASE_URL must be an http(s) address, not ${JSON.stringify(redactUrl(baseUrl))}`);
  }
  const username = optional(env.H2H_USERNAME);
  const password = optional(env.H2H_PASSWORD);
  const bodyFormat = (env.H2H_LOGIN_BODY ?? 'json').toLowerCase();
  if (bodyFormat !== 'json' && bodyFormat !== 'form') {
    throw new ConfigError(`H2H_LOGIN_BODY must be "json" or "form", not ${JSON.stringify(bodyFormat)}`);
  }
  const bankCodeMapFile = optional(env.BANK_CODE_MAP);
  const nameRulesFile = optional(env.NAME_RULES_FILE);
  const batchRetentionMs = Math.round(positiveNumber('BATCH_RETENTION_DAYS', env.BATCH_RETENTION_DAYS, 30) * DAY_MS);
  const redisUrl = optional(env.REDIS_URL);
  const redisCluster = clusterSettings(optional(env.REDIS_CLUSTER_NODES), redisUrl);
  return {
    redisUrl,
    privateRedis: privateRedisChoice(env.PRIVATE_REDIS, redisUrl !== undefined || redisCluster !== undefined),
    redisUnavailableTimeoutMs: Math.round(positiveNumber('REDIS_UNAVAILABLE_TIMEOUT_S', env.REDIS_UNAVAILABLE_TIMEOUT_S, 30) * 1000),
    redisPassword: optional(env.REDIS_PASSWORD),
    redisUsername: optional(env.REDIS_USERNAME),
    redisCluster,
    redisTlsCa: tlsCa(optional(env.REDIS_TLS_CA_FILE), redisCluster?.tls ?? /^rediss:\/\//i.test(redisUrl ?? '')),
    keyPrefix: optional(env.BC_KEY_PREFIX) ?? 'bc',
    provider: {
      environment: environmentName,
      baseUrl: baseUrl === undefined ? undefined : normaliseBaseAddress(baseUrl),
      username,
      password,
      requestTimeoutMs: positiveInteger('H2H_TIMEOUT_MS', env.H2H_TIMEOUT_MS, 15_000),
      login: {
        bodyFormat,
        usernameField: optional(env.H2H_LOGIN_USERNAME_FIELD) ?? 'username',
        passwordField: optional(env.H2H_LOGIN_PASSWORD_FIELD) ?? 'password',
        tokenPath: optional(env.H2H_LOGIN_TOKEN_PATH) ?? 'data.access_token',
        expiresInPath: optional(env.H2H_LOGIN_EXPIRES_PATH) ?? 'data.expires_in',
        refreshMarginSeconds: positiveInteger('H2H_TOKEN_REFRESH_MARGIN_S', env.H2H_TOKEN_REFRESH_MARGIN_S, 300, true),
      },
    },
    inquiry: {
      rate: parseRate(overrides.rate ?? env.INQUIRY_RATE ?? '20/s'),
      concurrency: concurrencyBounds(overrides.concurrency ?? env.INQUIRY_CONCURRENCY),
      concurrencyGiven: optional(String(overrides.concurrency ?? env.INQUIRY_CONCURRENCY ?? '')) !== undefined,
      attempts: positiveInteger('INQUIRY_ATTEMPTS', env.INQUIRY_ATTEMPTS, 5),
      backoffMs: positiveInteger('INQUIRY_BACKOFF_MS', env.INQUIRY_BACKOFF_MS, 2000),
      outageBudgetMs: positiveInteger('INQUIRY_OUTAGE_BUDGET_S', env.INQUIRY_OUTAGE_BUDGET_S, 120) * 1000,
    },
    logLevel: optional(env.LOG_LEVEL) ?? 'info',
    logFormat: oneOf('LOG_FORMAT', env.LOG_FORMAT, ['auto', 'json', 'pretty'] as const, 'auto'),
    console: consoleSettings(env),
    notify: notifySettings(env),
    watch: {
      stableMs: Math.round(nonNegativeNumber('WATCH_STABLE_SECONDS', env.WATCH_STABLE_SECONDS, 10) * 1000),
      pollMs: positiveInteger('WATCH_POLL_MS', env.WATCH_POLL_MS, 2000),
      duplicateWindowMs: Math.round(nonNegativeNumber('WATCH_DUPLICATE_WINDOW_HOURS', env.WATCH_DUPLICATE_WINDOW_HOURS, 24) * 3600_000),
      reviewer: optional(env.WATCH_REVIEWER),
    },
    schedule: {
      cron: cronPattern(optional(env.SCHEDULE_CRON) ?? '0 2 * * *'),
      timeZone: timeZone('SCHEDULE_TZ', optional(env.SCHEDULE_TZ) ?? 'Asia/Jakarta'),
      source: optional(env.SCHEDULE_SOURCE),
      outbox: optional(env.SCHEDULE_OUTBOX),
    },
    retention: { batchMs: batchRetentionMs },
    history: {
      keepMs: historyKeepMs(env.ACCOUNT_HISTORY_DAYS, batchRetentionMs),
      reuseAnswersMs: reuseAge(overrides.reuseAnswers ?? env.REUSE_ANSWERS),
    },
    outputFormat: outputFormat(env.OUTPUT_FORMAT),
    runWorkerProcesses: runWorkerProcesses(env.RUN_WORKER_PROCESSES),
    shutdownTimeoutMs: Math.round(nonNegativeNumber('SHUTDOWN_TIMEOUT_SECONDS', env.SHUTDOWN_TIMEOUT_SECONDS, 30) * 1000),
    nameMatching: {
      policy: nameMatchPolicy(optional(env.NAME_MATCH_POLICY)),
      knowledge: nameRulesFile === undefined ? BUILT_IN_KNOWLEDGE : readNameRules(nameRulesFile),
    },
    bankCodes: bankCodeMapFile === undefined ? new Map() : readBankCodeMap(bankCodeMapFile),
    displayTimeZone: timeZone('DISPLAY_TZ', optional(env.DISPLAY_TZ) ?? 'Asia/Jakarta'),
    decisions: { keepMs: Math.round(nonNegativeNumber('DECISION_RETENTION_DAYS', env.DECISION_RETENTION_DAYS, 0) * DAY_MS) },
  };
}

function consoleSettings(env: Environment): ConsoleSettings {
  const maxMb = positiveNumber('CONSOLE_UPLOAD_MAX_MB', env.CONSOLE_UPLOAD_MAX_MB, 100);
  return {
    token: optional(env.CONSOLE_TOKEN),
    reportsDir: optional(env.CONSOLE_REPORTS_DIR) ?? './reports',
    uploadMaxBytes: Math.round(maxMb * 1024 * 1024),
    userHeader: userHeader(optional(env.CONSOLE_USER_HEADER)),
  };
}

/** An HTTP header name (RFC 9110 token characters), kept in lower case as Node gives headers. */
function userHeader(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new ConfigError(`CONSOLE_USER_HEADER must be an HTTP header name such as X-Forwarded-User, not ${JSON.stringify(name)}`);
  return name.toLowerCase();
}

function notifySettings(env: Environment): NotifySettings {
  const webhookUrl = optional(env.NOTIFY_WEBHOOK_URL);
  const secret = optional(env.NOTIFY_WEBHOOK_SECRET);
  if (webhookUrl !== undefined && !/^https?:\/\/[^\s]+$/i.test(webhookUrl)) {
    throw new ConfigError(`NOTIFY_WEBHOOK_URL must be an http(s) address, not ${JSON.stringify(redactUrl(webhookUrl))}`);
  }
  // An unsigned notice could be forged by anyone who can reach the receiver: the secret comes with the URL.
  if (webhookUrl !== undefined && secret === undefined) throw new ConfigError('NOTIFY_WEBHOOK_URL needs NOTIFY_WEBHOOK_SECRET: every notice is signed');
  return {
    webhookUrl,
    secret,
    timeoutMs: positiveInteger('NOTIFY_WEBHOOK_TIMEOUT_MS', env.NOTIFY_WEBHOOK_TIMEOUT_MS, 10_000),
    attempts: positiveInteger('NOTIFY_WEBHOOK_ATTEMPTS', env.NOTIFY_WEBHOOK_ATTEMPTS, 10),
    backoffMs: positiveInteger('NOTIFY_WEBHOOK_BACKOFF_MS', env.NOTIFY_WEBHOOK_BACKOFF_MS, 5_000),
    runWaitMs: Math.round(nonNegativeNumber('NOTIFY_RUN_WAIT_SECONDS', env.NOTIFY_RUN_WAIT_SECONDS, 10) * 1000),
  };
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  const chosen = optional(value)?.toLowerCase() ?? fallback;
  if (!(allowed as readonly string[]).includes(chosen)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`);
  return chosen as T;
}

const DAY_MS = 24 * 3600_000;

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  const parsed = nonNegativeNumber(name, value, fallback);
  if (parsed === 0) throw new ConfigError(`${name} must be above 0, not ${JSON.stringify(value)}`);
  return parsed;
}

/** An account's last answer lives as long as the batches that hold it, unless ACCOUNT_HISTORY_DAYS says otherwise. */
function historyKeepMs(value: string | undefined, batchRetentionMs: number): number {
  return optional(value) === undefined ? batchRetentionMs : Math.round(positiveNumber('ACCOUNT_HISTORY_DAYS', value, 0) * DAY_MS);
}

const AGE_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, min: 60_000, h: 3600_000, d: DAY_MS };

/** `24h`, `90m`, `2d`, `0` (never): how old a reused answer may be. */
export function reuseAge(value: string | undefined): number {
  const text = optional(value);
  if (text === undefined || text === '0') return 0;
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|min|h|d)$/i.exec(text);
  if (!match) throw new ConfigError(`--reuse-answers / REUSE_ANSWERS must be an age such as 30m, 24h or 7d (or 0 for never), not ${JSON.stringify(value)}`);
  const age = Number(match[1]) * AGE_UNITS_MS[match[2]!.toLowerCase()]!;
  if (age <= 0) throw new ConfigError(`--reuse-answers / REUSE_ANSWERS must be above 0, or 0 for never, not ${JSON.stringify(value)}`);
  return Math.round(age);
}

function privateRedisChoice(value: string | undefined, redisUrlSet: boolean): PrivateRedisChoice {
  const choice = (optional(value) ?? 'auto').toLowerCase();
  if (choice !== 'auto' && choice !== 'always' && choice !== 'never') throw new ConfigError(`PRIVATE_REDIS must be "auto", "always" or "never", not ${JSON.stringify(value)}`);
  if (choice === 'always' && redisUrlSet) {
    throw new ConfigError('PRIVATE_REDIS=always and REDIS_URL (or REDIS_CLUSTER_NODES) are both set: choose one (a private redis-server, or the Redis configured)');
  }
  return choice;
}

/**
 * REDIS_CLUSTER_NODES: one or more seed nodes (the client discovers the rest). Every node is written alike:
 * `rediss://` on one and `redis://` or a bare `host:port` on another is refused, since TLS is all or nothing.
 */
function clusterSettings(value: string | undefined, redisUrl: string | undefined): RedisClusterSettings | undefined {
  if (value === undefined) return undefined;
  if (redisUrl !== undefined) throw new ConfigError('REDIS_URL and REDIS_CLUSTER_NODES are both set: choose one (a single Redis, or the nodes of a Redis Cluster)');
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const shown = (entry: string) => JSON.stringify(entry.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@'));
  const nodes = entries.map((entry) => {
    const match = /^(?:(rediss?):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?)?([^:/@\s]+|\[[0-9a-f:]+\]):(\d{1,5})\/?$/i.exec(entry);
    const port = Number(match?.[5]);
    if (!match || port < 1 || port > 65535) {
      throw new ConfigError(`REDIS_CLUSTER_NODES must be host:port entries separated by commas (or redis://, rediss:// URLs), not ${shown(entry)}`);
    }
    const [, scheme, user, password, host] = match;
    return { scheme: scheme?.toLowerCase() ?? 'redis', user: decode(user), password: decode(password), host: host!.replace(/^\[|\]$/g, ''), port };
  });
  if (nodes.length === 0) throw new ConfigError('REDIS_CLUSTER_NODES is set but names no node: write host:port entries separated by commas');
  const tls = nodes[0]!.scheme === 'rediss';
  if (nodes.some((node) => (node.scheme === 'rediss') !== tls)) throw new ConfigError('REDIS_CLUSTER_NODES mixes rediss:// (TLS) and plain nodes: write every node alike');
  const withCredentials = nodes.find((node) => node.password !== undefined || node.user !== undefined);
  return {
    nodes: nodes.map(({ host, port }) => ({ host, port })),
    tls,
    username: withCredentials?.user === '' ? undefined : withCredentials?.user,
    password: withCredentials?.password === '' ? undefined : withCredentials?.password,
  };
}

const decode = (value: string | undefined): string | undefined => (value === undefined ? undefined : decodeURIComponent(value));

/** REDIS_TLS_CA_FILE, read once here: a CA for a connection that is not TLS is a mistake worth naming. */
function tlsCa(file: string | undefined, tls: boolean): string | undefined {
  if (file === undefined) return undefined;
  if (!tls) throw new ConfigError('REDIS_TLS_CA_FILE is set but the Redis address is not TLS: write REDIS_URL (or REDIS_CLUSTER_NODES) as rediss://');
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`REDIS_TLS_CA_FILE ${JSON.stringify(file)} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`REDIS_TLS_CA_FILE ${JSON.stringify(file)} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pem;
}

function runWorkerProcesses(value: string | undefined): RunWorkerProcesses {
  const given = optional(value)?.toLowerCase() ?? 'auto';
  if (given === 'auto') return { kind: 'auto' };
  if (!/^\d+$/.test(given)) throw new ConfigError(`RUN_WORKER_PROCESSES must be "auto" or a whole number (0 for none), not ${JSON.stringify(value)}`);
  return { kind: 'fixed', count: Number(given) };
}

function outputFormat(value: string | undefined): OutputFormat {
  const format = (optional(value) ?? 'csv').toLowerCase();
  if (format !== 'csv' && format !== 'xlsx') throw new ConfigError(`OUTPUT_FORMAT must be "csv" or "xlsx", not ${JSON.stringify(value)}`);
  return format;
}

function nameMatchPolicy(value: string | undefined): NameMatchPolicy {
  if (value === undefined) return DEFAULT_NAME_MATCH_POLICY;
  const policy = NAME_MATCH_POLICIES.find((name) => name === value.toLowerCase());
  if (policy === undefined) {
    throw new ConfigError(`NAME_MATCH_POLICY must be ${NAME_MATCH_POLICIES.map((name) => `"${name}"`).join(' or ')}, not ${JSON.stringify(value)}`);
  }
  return policy;
}

function nonNegativeNumber(name: string, value: string | undefined, fallback: number): number {
  const trimmed = value?.trim();
  if (trimmed === undefined || trimmed === '') return fallback;
  const parsed = Number(trimmed);
  if (!Number.isFinite(parsed) || parsed < 0) throw new ConfigError(`${name} must be a number of 0 or more, not ${JSON.stringify(value)}`);
  return parsed;
}

/** The shape only (5 fields, or 6 with seconds first); `schedule` checks the values when it computes the next run. */
function cronPattern(pattern: string): string {
  const fields = pattern.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw new ConfigError(
      `SCHEDULE_CRON must be a cron pattern of 5 fields (minute hour day month weekday) or 6 (seconds first), not ${JSON.stringify(pattern)}; e.g. "0 2 * * *" for 02:00 every day`,
    );
  }
  return fields.join(' ');
}

function timeZone(variable: string, name: string): string {
  if (!isTimeZone(name)) throw new ConfigError(`${variable} must be an IANA time zone such as Asia/Jakarta or UTC, not ${JSON.stringify(name)}`);
  return name;
}

function optional(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Without --concurrency: the adaptive range. */
export const DEFAULT_CONCURRENCY: ConcurrencyBounds = { min: 16, max: 256 };

/**
 * `--concurrency N` is a hard cap: the process never runs more than N inquiries at once; below 16 it also
 * fixes the figure (a user who asks for 2 gets 2), above it the concurrency still adapts from 16 up to N.
 */
function concurrencyBounds(given: string | number | undefined): ConcurrencyBounds {
  if (given === undefined || String(given).trim() === '') return DEFAULT_CONCURRENCY;
  const cap = positiveInteger('--concurrency / INQUIRY_CONCURRENCY', given, DEFAULT_CONCURRENCY.min);
  return { min: Math.min(DEFAULT_CONCURRENCY.min, cap), max: cap };
}

function positiveInteger(name: string, value: string | number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < (allowZero ? 0 : 1)) {
    throw new ConfigError(`${name} must be a whole number${allowZero ? '' : ' above 0'}, not ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** For the commands that call the provider: an address (unless the built-in emulator may stand in) and credentials. */
export function requireProvider(provider: ProviderSettings, builtinAllowed: boolean): void {
  if (provider.baseUrl === undefined) {
    if (provider.environment === 'production') throw new ConfigError('production needs H2H_BASE_URL: the provider gives each client its production address');
    if (builtinAllowed) return;
    throw new ConfigError(
      'H2H_BASE_URL is not set: this command calls the provider. For a local emulator run `beneficiary-check sandbox --port 8080` and set H2H_BASE_URL=http://127.0.0.1:8080 H2H_USERNAME=sandbox H2H_PASSWORD=sandbox',
    );
  }
  if (provider.username === undefined || provider.password === undefined) {
    throw new ConfigError(`H2H_USERNAME and H2H_PASSWORD are required to call ${redactUrl(provider.baseUrl)}`);
  }
}
