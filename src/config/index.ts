import { readFileSync, existsSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { parseRate, type Rate } from './rate.js';

export type { Rate } from './rate.js';
export { parseRate, ratePerSecond, formatRate } from './rate.js';

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
  username: string | undefined;
  password: string | undefined;
  requestTimeoutMs: number;
  login: LoginSettings;
}

export interface InquirySettings {
  rate: Rate;
  concurrency: number;
  /** Attempts per row for transient failures (network, timeout, 5xx); 429s do not count. */
  attempts: number;
  /** First retry delay; doubles each attempt, with jitter. */
  backoffMs: number;
}

export interface Config {
  /** Undefined when REDIS_URL is not set: `run` may then start a private redis-server. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key this tool writes, so that several deployments or test runs can share one Redis. */
  keyPrefix: string;
  provider: ProviderSettings;
  inquiry: InquirySettings;
  logLevel: string;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Command-line flags that override the environment. */
export interface ConfigOverrides {
  rate?: string | undefined;
  concurrency?: string | number | undefined;
  env?: string | undefined;
}

type Environment = Record<string, string | undefined>;

/**
 * Reads and validates the configuration once. `.env` in the working directory is read when present;
 * variables already set in the environment win over it.
 */
export function loadConfig(overrides: ConfigOverrides = {}, environment: Environment = process.env): Config {
  const env = { ...readDotEnv(), ...environment };
  const environmentName = (overrides.env ?? env.H2H_ENV ?? 'sandbox').trim().toLowerCase();
  if (environmentName !== 'sandbox' && environmentName !== 'production') {
    throw new ConfigError(`H2H_ENV / --env must be "sandbox" or "production", not ${JSON.stringify(environmentName)}`);
  }
  const baseUrl = optional(env.H2H_BASE_URL);
  if (environmentName === 'production' && baseUrl === undefined) {
    throw new ConfigError('production needs H2H_BASE_URL: the provider gives each client its production address');
  }
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/i.test(baseUrl)) {
    throw new ConfigError(`H2H_BASE_URL must be an http(s) address, not ${JSON.stringify(baseUrl)}`);
  }
  const username = optional(env.H2H_USERNAME);
  const password = optional(env.H2H_PASSWORD);
  if (baseUrl !== undefined && (username === undefined || password === undefined)) {
    throw new ConfigError(`H2H_USERNAME and H2H_PASSWORD are required to call ${baseUrl}`);
  }
  const bodyFormat = (env.H2H_LOGIN_BODY ?? 'json').toLowerCase();
  if (bodyFormat !== 'json' && bodyFormat !== 'form') {
    throw new ConfigError(`H2H_LOGIN_BODY must be "json" or "form", not ${JSON.stringify(bodyFormat)}`);
  }
  return {
    redisUrl: optional(env.REDIS_URL),
    keyPrefix: optional(env.BC_KEY_PREFIX) ?? 'bc',
    provider: {
      environment: environmentName,
      baseUrl: baseUrl?.replace(/\/+$/, ''),
      username,
      password,
      requestTimeoutMs: positiveInteger('H2H_TIMEOUT_MS', env.H2H_TIMEOUT_MS, 15_000),
      login: {
        bodyFormat,
        usernameField: optional(env.H2H_LOGIN_USERNAME_FIELD) ?? 'username',
        passwordField: optional(env.H2H_LOGIN_PASSWORD_FIELD) ?? 'password',
        tokenPath: optional(env.H2H_LOGIN_TOKEN_PATH) ?? 'data.access_token',
        expiresInPath: optional(env.H2H_LOGIN_EXPIRES_PATH) ?? 'data.expires_in',
        refreshMarginSeconds: positiveInteger('H2H_TOKEN_REFRESH_MARGIN_S', env.H2H_TOKEN_REFRESH_MARGIN_S, 600, true),
      },
    },
    inquiry: {
      rate: parseRate(overrides.rate ?? env.INQUIRY_RATE ?? '20/s'),
      concurrency: positiveInteger('--concurrency / INQUIRY_CONCURRENCY', overrides.concurrency ?? env.INQUIRY_CONCURRENCY, 16),
      attempts: positiveInteger('INQUIRY_ATTEMPTS', env.INQUIRY_ATTEMPTS, 5),
      backoffMs: positiveInteger('INQUIRY_BACKOFF_MS', env.INQUIRY_BACKOFF_MS, 2000),
    },
    logLevel: optional(env.LOG_LEVEL) ?? 'info',
  };
}

function optional(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function positiveInteger(name: string, value: string | number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < (allowZero ? 0 : 1)) {
    throw new ConfigError(`${name} must be a whole number${allowZero ? '' : ' above 0'}, not ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** Minimal `.env` reader: KEY=VALUE lines, `#` comments, optional quotes. */
function readDotEnv(path = '.env'): Environment {
  if (!existsSync(path)) return {};
  const values: Environment = {};
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    values[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return values;
}
