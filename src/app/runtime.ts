import {
  DEFAULT_REDIS_URL,
  loadConfig,
  rateSetting,
  requireProvider,
  type Config,
  type ConfigOverrides,
  type ProviderSettings,
} from '../config/index.js';
import { environmentWithEnvFile } from '../config/env-file.js';
import { ConfigError } from '../errors.js';
import type { DestinationStream } from 'pino';
import { createLogger, notice, type Logger } from '../logging/logger.js';
import { connectRedis, describeRedis, redisAnswers, type RedisTarget } from '../redis/connection.js';
import { startPrivateRedis } from '../redis/private-server.js';
import { superviseRedis, type RedisHealth } from '../redis/supervisor.js';
import { openApp, type App } from './app.js';
import { startBuiltinSandbox } from './builtin-sandbox.js';

export interface RuntimeOptions {
  /**
   * What the command needs of the provider: `builtin` (`run`: the built-in emulator stands in when the
   * sandbox has no H2H_BASE_URL, and a private redis-server when no Redis answers), `required` (it calls
   * the provider), `none` (it only reads Redis: `status`, `export`, `schedule --list`), `optional` (`serve`:
   * with the provider's settings it checks uploads, without them it starts read-only; see Runtime.providerReady).
   */
  provider: 'builtin' | 'required' | 'none' | 'optional';
  /**
   * A service (`worker`, `watch`, `schedule`): when Redis goes away it keeps retrying (and says so) instead
   * of giving up after REDIS_UNAVAILABLE_TIMEOUT like a one-shot command.
   */
  service?: boolean;
  /** Where log lines go instead of stderr (a terminal progress line clears itself around them). */
  logDestination?: DestinationStream;
}

export interface Runtime {
  app: App;
  /** The provider's settings are complete: inquiries can be made (always true for `builtin` and `required`). */
  providerReady: boolean;
  /** Why the provider cannot be called, when it cannot (`optional` without its settings). */
  providerMissing: string | undefined;
  /** true when `run` started its own throw-away redis-server. */
  privateRedis: boolean;
  /** Closes everything that was opened, in reverse order; safe to call more than once. */
  shutdown: () => Promise<void>;
  /**
   * The command's work under the Redis supervisor: it ends with a typed error when Redis stays away past
   * REDIS_UNAVAILABLE_TIMEOUT (one-shot commands) or refuses writes (full), whatever the work awaits.
   */
  guard: <T>(work: Promise<T>) => Promise<T>;
  /** Whether Redis answers, and since when it does not (for health checks). */
  redisHealth: () => RedisHealth;
  /**
   * The environment of a `worker` process that joins this one's work: this process's, with what exists only
   * here (a private redis-server, the built-in emulator and its login) and what the command line set (rate,
   * concurrency, provider environment). Environment, not arguments: a password in arguments shows in `ps`.
   */
  workerEnvironment: () => NodeJS.ProcessEnv;
}

/**
 * The edge: reads and validates the configuration once (environment over the env file), then opens what a
 * command needs. For `run`: without REDIS_URL and with nothing answering on the default address, a private
 * redis-server; in the sandbox without H2H_BASE_URL, the built-in emulator.
 */
export async function openRuntime(overrides: ConfigOverrides, options: RuntimeOptions): Promise<Runtime> {
  const config: Config = loadConfig(overrides, environmentWithEnvFile());
  let providerMissing: string | undefined;
  if (options.provider === 'builtin' || options.provider === 'required') requireProvider(config.provider, options.provider === 'builtin');
  else if (options.provider === 'optional') providerMissing = missingProvider(config);
  const logger: Logger = createLogger(config.logLevel, {
    format: config.logFormat,
    ...(options.logDestination !== undefined && { destination: options.logDestination }),
  });
  for (const deprecation of config.deprecations) logger.warn(deprecation);
  const cleanups: Array<() => Promise<void>> = [];
  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    })());
  try {
    let target = configuredRedis(config);
    let privateRedisUrl: string | undefined;
    if (await wantsPrivateRedis(config, options, DEFAULT_REDIS_URL)) {
      const privateServer = await startPrivateRedis();
      cleanups.push(() => privateServer.stop());
      target = { kind: 'server', url: privateServer.url };
      privateRedisUrl = privateServer.url;
      const started = `started a private redis-server for this run on the unix socket ${privateServer.url} (no TCP port: only this user can reach it; nothing is kept after it)`;
      notice(
        config.privateRedis === 'always'
          ? `PRIVATE_REDIS=always: ${started}`
          : `no Redis at ${DEFAULT_REDIS_URL} and REDIS_URL is not set: ${started}`,
      );
    }
    const redis = await connectRedis(target);
    cleanups.push(async () => void redis.disconnect());
    const supervisor = superviseRedis(redis, {
      url: describeRedis(target),
      unavailableTimeoutMs: config.redisUnavailableTimeoutMs,
      whenUnavailable: options.service === true ? 'keep_retrying' : 'give_up',
      logger,
    });
    cleanups.push(async () => supervisor.stop());
    // Closing waits for active work to store its answers; once Redis is gone for good or full, nothing more can be stored.
    const unlessRedisFailed = (close: Promise<void>) => Promise.race([close, supervisor.failure.catch(() => undefined)]);
    let provider: ProviderSettings = config.provider;
    if (provider.baseUrl === undefined && options.provider === 'builtin') {
      const builtin = await startBuiltinSandbox(provider);
      cleanups.push(() => builtin.sandbox.close());
      provider = builtin.provider;
      notice(`sandbox without H2H_BASE_URL: using the built-in provider emulator at ${builtin.sandbox.url} (no real bank is asked)`);
    }
    const app = openApp(config, provider, redis, logger);
    cleanups.push(() => unlessRedisFailed(app.close()));
    logger.debug({ redis: describeRedis(target), environment: provider.environment, queue: app.queue.name }, 'runtime ready');
    const workerEnvironment = (): NodeJS.ProcessEnv => {
      const env: NodeJS.ProcessEnv = { ...process.env, H2H_ENV: provider.environment, INQUIRY_RATE: rateSetting(config.inquiry.rate) };
      if (config.inquiry.concurrencyGiven) env.INQUIRY_CONCURRENCY = String(config.inquiry.concurrency.max);
      // The child's stderr is a pipe into this process's: its lines are written the way this process writes its own.
      if (config.logFormat === 'auto') env.LOG_FORMAT = process.stderr.isTTY === true ? 'pretty' : 'json';
      if (privateRedisUrl !== undefined) {
        // PRIVATE_REDIS=always beside REDIS_URL is refused: the child is told only the server this run started.
        delete env.PRIVATE_REDIS;
        env.REDIS_URL = privateRedisUrl;
      }
      if (provider.builtinEmulator === true)
        Object.assign(env, { H2H_BASE_URL: provider.baseUrl, H2H_USERNAME: provider.username, H2H_PASSWORD: provider.password });
      return env;
    };
    return {
      app,
      providerReady: options.provider !== 'none' && providerMissing === undefined,
      providerMissing,
      shutdown,
      privateRedis: privateRedisUrl !== undefined,
      guard: (work) => supervisor.guard(work),
      redisHealth: () => supervisor.health(),
      workerEnvironment,
    };
  } catch (error) {
    await shutdown();
    throw error;
  }
}

/** What keeps the provider from being called (requireProvider's message), or undefined when nothing does. */
function missingProvider(config: Config): string | undefined {
  try {
    requireProvider(config.provider, false);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

/**
 * The Redis of the configuration: the cluster of REDIS_CLUSTER_NODES, or the server of REDIS_URL (the default
 * address without it). Credentials written in the URL or the nodes win over REDIS_USERNAME/REDIS_PASSWORD.
 */
function configuredRedis(config: Config): RedisTarget {
  const security = { username: config.redisUsername, password: config.redisPassword, tlsCa: config.redisTlsCa };
  const cluster = config.redisCluster;
  if (cluster === undefined) return { kind: 'server', url: config.redisUrl ?? DEFAULT_REDIS_URL, ...security };
  return {
    kind: 'cluster',
    nodes: cluster.nodes,
    tls: cluster.tls,
    ...security,
    username: cluster.username ?? security.username,
    password: cluster.password ?? security.password,
  };
}

/** `run` without REDIS_URL: a private redis-server when PRIVATE_REDIS=always, or (auto) when nothing answers at the default address. */
async function wantsPrivateRedis(config: Config, options: RuntimeOptions, defaultUrl: string): Promise<boolean> {
  if (
    config.redisUrl !== undefined ||
    config.redisCluster !== undefined ||
    options.provider !== 'builtin' ||
    config.privateRedis === 'never'
  )
    return false;
  if (config.privateRedis === 'always') return true;
  // A password was given for the Redis at the default address: that one is meant, answering or not.
  return config.redisPassword === undefined && !(await redisAnswers(defaultUrl));
}
