import { loadConfig, DEFAULT_REDIS_URL, type Config, type ConfigOverrides, type ProviderSettings } from '../config/index.js';
import { ConfigError } from '../errors.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { startBuiltinSandbox } from '../pipeline/builtin-sandbox.js';
import { openServices, type Services } from '../pipeline/services.js';
import { connectRedis, displayRedisUrl, redisAnswers } from '../redis/connection.js';
import { startPrivateRedis } from '../redis/private-server.js';

export interface RuntimeOptions {
  /** `run` may start a private redis-server and the built-in emulator; long-running services may not. */
  oneShot: boolean;
}

export interface Runtime {
  services: Services;
  /** true when `run` started its own throw-away redis-server. */
  privateRedis: boolean;
  /** Closes everything that was opened, in reverse order. */
  shutdown: () => Promise<void>;
}

/** Tells the user what was started on their behalf, on stderr beside the logs. */
const notice = (message: string) => process.stderr.write(`${message}\n`);

/**
 * Reads the configuration once and opens what a command needs. For `run`: without REDIS_URL and with
 * nothing answering on the default address, a private redis-server; in the sandbox without
 * H2H_BASE_URL, the built-in emulator.
 */
export async function openRuntime(overrides: ConfigOverrides, options: RuntimeOptions): Promise<Runtime> {
  const config: Config = loadConfig(overrides);
  const logger: Logger = createLogger(config.logLevel);
  const cleanups: Array<() => Promise<void>> = [];
  let closing: Promise<void> | undefined;
  // Idempotent: a signal handler and a `finally` may both ask for it.
  const shutdown = () =>
    (closing ??= (async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    })());
  try {
    let redisUrl = config.redisUrl ?? DEFAULT_REDIS_URL;
    let privateRedis = false;
    if (config.redisUrl === undefined && options.oneShot && !(await redisAnswers(redisUrl))) {
      const privateServer = await startPrivateRedis();
      cleanups.push(() => privateServer.stop());
      redisUrl = privateServer.url;
      privateRedis = true;
      notice(`no Redis at ${DEFAULT_REDIS_URL} and REDIS_URL is not set: started a private redis-server at ${redisUrl} for this run (nothing is kept after it)`);
    }
    const redis = await connectRedis(redisUrl);
    cleanups.push(async () => void redis.disconnect());
    let provider: ProviderSettings = config.provider;
    if (provider.baseUrl === undefined) {
      if (!options.oneShot) {
        throw new ConfigError(
          'H2H_BASE_URL is not set: long-running commands need a provider address. For a local emulator run `beneficiary-check sandbox --port 8080` and set H2H_BASE_URL=http://127.0.0.1:8080 H2H_USERNAME=sandbox H2H_PASSWORD=sandbox',
        );
      }
      const builtin = await startBuiltinSandbox(provider);
      cleanups.push(() => builtin.sandbox.close());
      provider = builtin.provider;
      notice(`sandbox without H2H_BASE_URL: using the built-in provider emulator at ${builtin.sandbox.url} (no real bank is asked)`);
    }
    const services = openServices(config, provider, redis, logger);
    cleanups.push(() => services.close());
    logger.debug({ redis: displayRedisUrl(redisUrl), environment: provider.environment, queue: services.queue.name }, 'runtime ready');
    return { services, shutdown, privateRedis };
  } catch (error) {
    await shutdown();
    throw error;
  }
}
