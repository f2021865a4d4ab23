import { readFileSync } from 'node:fs';
import type { BankCodeMap } from '../csv/validation.js';
import { ConfigError } from '../errors.js';
import { redactUrl } from '../logging/redact-url.js';
import { readBankCodeMap } from './bank-code-map.js';
import type { NameMatching } from '../matching/compare-names.js';
import { BUILT_IN_KNOWLEDGE } from '../matching/knowledge.js';
import { readNameRules } from './name-rules-file.js';
import type { Rate } from './rate.js';
import { readSettings, SETTINGS, type RunWorkerProcesses, type SettingName, type Settings } from './settings.js';

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
  /** A file must keep the same size and mtime for this long before it is taken (WATCH_STABLE). */
  stableMs: number;
  /** How often the inbox is listed (WATCH_POLL). */
  pollMs: number;
  /** The same content dropped again within this window is not validated again (WATCH_DUPLICATE_WINDOW). */
  duplicateWindowMs: number;
  /** Who decided, for a reviewed report dropped into `reviews/` whose name does not say (WATCH_REVIEWER). */
  reviewer: string | undefined;
}

/** The nightly run (`schedule`). */
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
  /** How long a decision stands and its audit entries are kept (DECISION_RETENTION); 0 = for ever (the default). */
  keepMs: number;
}

/** Completion notices: a signed POST to a webhook when a batch finishes. */
export interface NotifySettings {
  /** NOTIFY_WEBHOOK_URL; notices are off without it. */
  webhookUrl: string | undefined;
  /** NOTIFY_WEBHOOK_SECRET: the HMAC-SHA256 key of the signature header (required with the URL). */
  secret: string | undefined;
  /** Per delivery attempt (NOTIFY_WEBHOOK_TIMEOUT). */
  timeoutMs: number;
  /** Delivery attempts before the notice is given up, kept as a failed job (NOTIFY_WEBHOOK_ATTEMPTS, default 10). */
  attempts: number;
  /** First retry delay, doubled per attempt (NOTIFY_WEBHOOK_BACKOFF). */
  backoffMs: number;
  /** How long `run` waits for its own notice before it exits and leaves it to a running worker (NOTIFY_RUN_WAIT). */
  runWaitMs: number;
}

export type LogFormat = 'auto' | 'json' | 'pretty';
/** Batch working state in Redis (BATCH_RETENTION). */
export interface RetentionSettings {
  /** How long a finished batch (rows, answers) is kept in Redis (BATCH_RETENTION). */
  batchMs: number;
}

/** The last definitive answer per account, across batches (see src/history). */
export interface HistorySettings {
  /** How long an account's last answer is kept after it was given (ACCOUNT_HISTORY_RETENTION, default BATCH_RETENTION). */
  keepMs: number;
  /** Reuse a definitive answer at most this old instead of asking again (--reuse-answers / REUSE_ANSWERS); 0 = never. */
  reuseAnswersMs: number;
}

/** The report's file format for entry points that choose the name themselves (OUTPUT_FORMAT). */
export type OutputFormat = 'csv' | 'xlsx';

export type { RunWorkerProcesses } from './settings.js';

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
  /** How long Redis may be unreachable during work before a command gives up (REDIS_UNAVAILABLE_TIMEOUT). */
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
  /** Long-running commands: how long a SIGTERM/SIGINT waits for active work before handing it back (SHUTDOWN_TIMEOUT). */
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
  /** Deprecated setting names read (or ignored beside their new names): the edge logs each once. */
  deprecations: string[];
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
 * env file into it: see env-file.ts). Each setting is read as settings.ts declares it; what is checked here is
 * what involves two settings or a flag. The provider's address and credentials (production's address too) are
 * required by `requireProvider`, only for the commands that call the provider: `status`, `export` and
 * `schedule --list/--remove` need nothing but Redis.
 */
export function loadConfig(overrides: ConfigOverrides = {}, env: Environment = process.env): Config {
  // A flag replaces its setting: the environment's value is then neither used nor checked.
  const flags: Array<[SettingName, unknown]> = [
    ['H2H_ENV', overrides.env],
    ['INQUIRY_RATE', overrides.rate],
    ['INQUIRY_CONCURRENCY', overrides.concurrency],
    ['REUSE_ANSWERS', overrides.reuseAnswers],
  ];
  const { settings, deprecations } = readSettings(
    env,
    flags.filter(([, value]) => value !== undefined).map(([name]) => name),
  );
  const environment = overrides.env === undefined ? settings.H2H_ENV : SETTINGS.H2H_ENV.parse(overrides.env.trim(), '--env');
  const redisUrl = settings.REDIS_URL;
  const redisCluster = clusterSettings(settings.REDIS_CLUSTER_NODES, redisUrl);
  const concurrencyText = String(overrides.concurrency ?? settings.INQUIRY_CONCURRENCY ?? '').trim();
  return {
    redisUrl,
    privateRedis: privateRedisChoice(settings.PRIVATE_REDIS, redisUrl !== undefined || redisCluster !== undefined),
    redisUnavailableTimeoutMs: settings.REDIS_UNAVAILABLE_TIMEOUT,
    redisPassword: settings.REDIS_PASSWORD,
    redisUsername: settings.REDIS_USERNAME,
    redisCluster,
    redisTlsCa: tlsCa(settings.REDIS_TLS_CA_FILE, redisCluster?.tls ?? /^rediss:\/\//i.test(redisUrl ?? '')),
    keyPrefix: settings.BC_KEY_PREFIX,
    provider: {
      environment,
      baseUrl: settings.H2H_BASE_URL,
      username: settings.H2H_USERNAME,
      password: settings.H2H_PASSWORD,
      requestTimeoutMs: settings.H2H_TIMEOUT,
      login: {
        bodyFormat: settings.H2H_LOGIN_BODY,
        usernameField: settings.H2H_LOGIN_USERNAME_FIELD,
        passwordField: settings.H2H_LOGIN_PASSWORD_FIELD,
        tokenPath: settings.H2H_LOGIN_TOKEN_PATH,
        expiresInPath: settings.H2H_LOGIN_EXPIRES_PATH,
        refreshMarginSeconds: settings.H2H_TOKEN_REFRESH_MARGIN / 1000,
      },
    },
    inquiry: {
      rate: overrides.rate === undefined ? settings.INQUIRY_RATE : SETTINGS.INQUIRY_RATE.parse(overrides.rate),
      concurrency: concurrencyBounds(concurrencyText),
      concurrencyGiven: concurrencyText !== '',
      attempts: settings.INQUIRY_ATTEMPTS,
      backoffMs: settings.INQUIRY_BACKOFF,
      outageBudgetMs: settings.INQUIRY_OUTAGE_BUDGET,
    },
    logLevel: settings.LOG_LEVEL,
    logFormat: settings.LOG_FORMAT,
    console: {
      token: settings.CONSOLE_TOKEN,
      reportsDir: settings.CONSOLE_REPORTS_DIR,
      uploadMaxBytes: Math.round(settings.CONSOLE_UPLOAD_MAX_MB * 1024 * 1024),
      userHeader: settings.CONSOLE_USER_HEADER,
    },
    notify: notifySettings(settings),
    watch: {
      stableMs: settings.WATCH_STABLE,
      pollMs: settings.WATCH_POLL,
      duplicateWindowMs: settings.WATCH_DUPLICATE_WINDOW,
      reviewer: settings.WATCH_REVIEWER,
    },
    schedule: {
      cron: settings.SCHEDULE_CRON,
      timeZone: settings.SCHEDULE_TZ,
      source: settings.SCHEDULE_SOURCE,
      outbox: settings.SCHEDULE_OUTBOX,
    },
    retention: { batchMs: settings.BATCH_RETENTION },
    history: {
      // An account's last answer lives as long as the batches that hold it, unless ACCOUNT_HISTORY_RETENTION says otherwise.
      keepMs: settings.ACCOUNT_HISTORY_RETENTION ?? settings.BATCH_RETENTION,
      reuseAnswersMs: overrides.reuseAnswers === undefined ? settings.REUSE_ANSWERS : reuseAge(overrides.reuseAnswers),
    },
    outputFormat: settings.OUTPUT_FORMAT,
    runWorkerProcesses: settings.RUN_WORKER_PROCESSES,
    shutdownTimeoutMs: settings.SHUTDOWN_TIMEOUT,
    nameMatching: {
      policy: settings.NAME_MATCH_POLICY,
      knowledge: settings.NAME_RULES_FILE === undefined ? BUILT_IN_KNOWLEDGE : readNameRules(settings.NAME_RULES_FILE),
    },
    bankCodes: settings.BANK_CODE_MAP === undefined ? new Map() : readBankCodeMap(settings.BANK_CODE_MAP),
    displayTimeZone: settings.DISPLAY_TZ,
    decisions: { keepMs: settings.DECISION_RETENTION },
    deprecations,
  };
}

function notifySettings(settings: Settings): NotifySettings {
  const webhookUrl = settings.NOTIFY_WEBHOOK_URL;
  const secret = settings.NOTIFY_WEBHOOK_SECRET;
  // An unsigned notice could be forged by anyone who can reach the receiver: the secret comes with the URL.
  if (webhookUrl !== undefined && secret === undefined)
    throw new ConfigError('NOTIFY_WEBHOOK_URL needs NOTIFY_WEBHOOK_SECRET: every notice is signed');
  return {
    webhookUrl,
    secret,
    timeoutMs: settings.NOTIFY_WEBHOOK_TIMEOUT,
    attempts: settings.NOTIFY_WEBHOOK_ATTEMPTS,
    backoffMs: settings.NOTIFY_WEBHOOK_BACKOFF,
    runWaitMs: settings.NOTIFY_RUN_WAIT,
  };
}

/** `24h`, `90m`, `2d`, `0` (never): how old a reused answer may be (`--reuse-answers`, REUSE_ANSWERS). */
export function reuseAge(value: string | undefined): number {
  const text = value?.trim();
  return text === undefined || text === '' ? 0 : SETTINGS.REUSE_ANSWERS.parse(text, '--reuse-answers / REUSE_ANSWERS');
}

function privateRedisChoice(choice: PrivateRedisChoice, redisUrlSet: boolean): PrivateRedisChoice {
  if (choice === 'always' && redisUrlSet) {
    throw new ConfigError(
      'PRIVATE_REDIS=always and REDIS_URL (or REDIS_CLUSTER_NODES) are both set: choose one (a private redis-server, or the Redis configured)',
    );
  }
  return choice;
}

/**
 * REDIS_CLUSTER_NODES: one or more seed nodes (the client discovers the rest). Every node is written alike:
 * `rediss://` on one and `redis://` or a bare `host:port` on another is refused, since TLS is all or nothing.
 */
function clusterSettings(value: string | undefined, redisUrl: string | undefined): RedisClusterSettings | undefined {
  if (value === undefined) return undefined;
  if (redisUrl !== undefined)
    throw new ConfigError('REDIS_URL and REDIS_CLUSTER_NODES are both set: choose one (a single Redis, or the nodes of a Redis Cluster)');
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const shown = (entry: string) => JSON.stringify(entry.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@'));
  const nodes = entries.map((entry) => {
    const match = /^(?:(rediss?):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?)?([^:/@\s]+|\[[0-9a-f:]+\]):(\d{1,5})\/?$/i.exec(entry);
    const port = Number(match?.[5]);
    if (!match || port < 1 || port > 65535) {
      throw new ConfigError(
        `REDIS_CLUSTER_NODES must be host:port entries separated by commas (or redis://, rediss:// URLs), not ${shown(entry)}`,
      );
    }
    const [, scheme, user, password, host] = match;
    return {
      scheme: scheme?.toLowerCase() ?? 'redis',
      user: decode(user),
      password: decode(password),
      host: host!.replace(/^\[|\]$/g, ''),
      port,
    };
  });
  if (nodes.length === 0)
    throw new ConfigError('REDIS_CLUSTER_NODES is set but names no node: write host:port entries separated by commas');
  const tls = nodes[0]!.scheme === 'rediss';
  if (nodes.some((node) => (node.scheme === 'rediss') !== tls))
    throw new ConfigError('REDIS_CLUSTER_NODES mixes rediss:// (TLS) and plain nodes: write every node alike');
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
  if (!tls)
    throw new ConfigError(
      'REDIS_TLS_CA_FILE is set but the Redis address is not TLS: write REDIS_URL (or REDIS_CLUSTER_NODES) as rediss://',
    );
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `REDIS_TLS_CA_FILE ${JSON.stringify(file)} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError(`REDIS_TLS_CA_FILE ${JSON.stringify(file)} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pem;
}

/** Without --concurrency: the adaptive range. */
export const DEFAULT_CONCURRENCY: ConcurrencyBounds = { min: 16, max: 256 };

/**
 * `--concurrency N` is a hard cap: the process never runs more than N inquiries at once; below 16 it also
 * fixes the figure (a user who asks for 2 gets 2), above it the concurrency still adapts from 16 up to N.
 */
function concurrencyBounds(given: string): ConcurrencyBounds {
  if (given === '') return DEFAULT_CONCURRENCY;
  const cap = SETTINGS.INQUIRY_CONCURRENCY.parse(given, '--concurrency / INQUIRY_CONCURRENCY');
  return { min: Math.min(DEFAULT_CONCURRENCY.min, cap), max: cap };
}

/** For the commands that call the provider: an address (unless the built-in emulator may stand in) and credentials. */
export function requireProvider(provider: ProviderSettings, builtinAllowed: boolean): void {
  if (provider.baseUrl === undefined) {
    if (provider.environment === 'production')
      throw new ConfigError('production needs H2H_BASE_URL: the provider gives each client its production address');
    if (builtinAllowed) return;
    throw new ConfigError(
      'H2H_BASE_URL is not set: this command calls the provider. For a local emulator run `beneficiary-check sandbox --port 8080` and set H2H_BASE_URL=http://127.0.0.1:8080 H2H_USERNAME=sandbox H2H_PASSWORD=sandbox',
    );
  }
  if (provider.username === undefined || provider.password === undefined) {
    throw new ConfigError(`H2H_USERNAME and H2H_PASSWORD are required to call ${redactUrl(provider.baseUrl)}`);
  }
}
