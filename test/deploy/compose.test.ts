import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { HASH_MAX_LISTPACK_VALUE } from '../../src/redis/private-server.js';
import { PROJECT_ROOT } from '../support/cli.js';

/**
 * No Docker engine runs here (and the compose plugin is not installed): docker-compose.yml is checked as
 * YAML, with merge keys resolved as compose resolves them, against the promises of the deploy.
 */
interface Service {
  image?: string;
  command?: string[];
  env_file?: Array<{ path: string; required?: boolean }>;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  restart?: string;
  user?: string;
  profiles?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const read = (name: string) => readFile(join(PROJECT_ROOT, name), 'utf8');
const compose = async () => parse(await read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
/** Services that keep running (the one-shot folder preparation exits). */
const longRunning = (services: Record<string, Service>) => Object.entries(services).filter(([, service]) => service.restart !== 'no');
/** Each shipped example first, then its optional, git-ignored production file. */
const REDIS_ENV_FILES = [
  { path: 'redis.env.example', required: true },
  { path: 'redis.env.production', required: false },
];
const APP_ENV_FILES = [
  { path: '.env.example', required: true },
  { path: '.env.production', required: false },
];
/** What a service's env files set, as shipped (the examples: the production files are the operator's). */
const shippedSettings = async (service: Service) =>
  Object.assign(
    {},
    ...(await Promise.all(service.env_file!.filter((file) => file.required).map(async (file) => parseEnv(await read(file.path))))),
  ) as Record<string, string>;

describe('docker-compose.yml', () => {
  it('states the Compose version its env_file entries (path, required) need, here and in the README', async () => {
    expect((await read('docker-compose.yml')).split('\n').slice(0, 6).join('\n')).toContain('Needs Docker Compose 2.24 or later');
    expect((await read('README.md')).includes('Docker Compose 2.24 or later'), 'README.md states it').toBe(true);
  });

  it("reads Redis's env files on Redis, and Redis's then the app's on every app service", async () => {
    const { services } = await compose();
    expect(services.redis!.env_file).toEqual(REDIS_ENV_FILES);
    for (const [name, service] of longRunning(services).filter(([name, service]) => name !== 'redis' && service.profiles === undefined)) {
      expect(service.env_file, name).toEqual([...REDIS_ENV_FILES, ...APP_ENV_FILES]);
    }
    const gitignore = await read('.gitignore');
    for (const { path } of [...REDIS_ENV_FILES, ...APP_ENV_FILES].filter((file) => !file.required))
      expect(gitignore).toMatch(new RegExp(`^${path.replaceAll('.', '\\.')}$`, 'm'));
  });

  it('gives the Redis container its own settings only: no provider credential, console token or webhook secret', async () => {
    const { services } = await compose();
    const redis = services.redis!;
    expect(redis.environment).toBeUndefined();
    const settings = await shippedSettings(redis);
    expect(Object.keys(settings).sort()).toEqual(['REDIS_MAXMEMORY', 'REDIS_PASSWORD']);
    // Every variable its command and health check read comes from its own files.
    const variables = [...`${redis.command!.join(' ')} ${redis.healthcheck!.test.join(' ')}`.matchAll(/\$\$\{?(\w+)/g)].map(
      ([, name]) => name!,
    );
    expect(new Set(variables)).toEqual(new Set(Object.keys(settings)));
    // The app's own file holds the secrets, and no longer the Redis password.
    const app = parseEnv(await read('.env.example'));
    for (const secret of ['H2H_USERNAME', 'H2H_PASSWORD', 'CONSOLE_TOKEN', 'NOTIFY_WEBHOOK_SECRET'])
      expect(Object.keys(app)).toContain(secret);
    expect(Object.keys(app)).not.toContain('REDIS_PASSWORD');
  });

  it('never overrides a setting of the env files with an `environment:` value', async () => {
    const { services } = await compose();
    const settings = Object.keys(await shippedSettings(services.worker!));
    for (const [name, service] of Object.entries(services)) {
      for (const key of Object.keys(service.environment ?? {})) {
        expect(settings, `${name}: ${key}`).not.toContain(key);
        // What remains are the container paths of the mounted folders, not defaults.
        expect(service.environment![key], `${name}: ${key}`).toMatch(/^\/data\//);
      }
    }
  });

  it('gives every running service a health check, the workers through --metrics-port', async () => {
    const { services } = await compose();
    for (const [name, service] of longRunning(services)) expect(service.healthcheck?.test.length, name).toBeGreaterThan(0);
    for (const name of ['worker', 'watcher', 'scheduler']) {
      expect(services[name]!.command).toEqual(expect.arrayContaining(['--metrics-port', '9464']));
      expect(services[name]!.healthcheck!.test.join(' ')).toContain('127.0.0.1:9464/healthz');
    }
    expect(services.console!.healthcheck!.test.join(' ')).toContain('127.0.0.1:8080/healthz');
  });

  it('runs the console as a service that needs its token, published on the host loopback only', async () => {
    const { services } = await compose();
    expect(services.console!.command).toEqual(['serve', '--host', '0.0.0.0', '--port', '8080']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's own substitution, read from the file as written
    expect(services.console!.ports).toEqual(['127.0.0.1:${CONSOLE_PORT:-8080}:8080']);
    expect(parseEnv(await read('.env.example')).CONSOLE_TOKEN).toBeTruthy();
  });

  it("keeps the account history's buckets compact listpacks, as the private redis-server does", async () => {
    const { services } = await compose();
    expect(services.redis!.command!.join(' ')).toMatch(new RegExp(`--hash-max-listpack-value ${HASH_MAX_LISTPACK_VALUE}$`));
  });

  it('makes Redis require the password of its env file, and gives the app the same one', async () => {
    const { services } = await compose();
    const redis = services.redis!;
    expect(redis.command!.join(' ')).toContain('--requirepass "$${REDIS_PASSWORD:?');
    expect(redis.healthcheck!.test.join(' ')).toContain('REDISCLI_AUTH="$$REDIS_PASSWORD"');
    const password = (await shippedSettings(redis)).REDIS_PASSWORD;
    expect(password).toMatch(/^change-me/);
    const app = await shippedSettings(services.worker!);
    expect(app.REDIS_PASSWORD).toBe(password);
    expect(app.REDIS_URL).toBe('redis://redis:6379');
  });

  it('never starts Redis without a password: an empty REDIS_PASSWORD stops the container with a message', async () => {
    const { services } = await compose();
    const [shell, flag, script] = services.redis!.command!;
    expect([shell, flag]).toEqual(['sh', '-c']);
    // Compose turns $$ into $; the container's shell then expands the password, or stops before redis-server.
    const expanded = script!.replaceAll('$$', '$');
    for (const password of [undefined, '']) {
      const result = spawnSync('/bin/sh', ['-c', expanded], {
        encoding: 'utf8',
        env: { PATH: '/nonexistent', ...(password !== undefined && { REDIS_PASSWORD: password }) },
      });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('REDIS_PASSWORD must be set');
    }
    // With one, it gets as far as starting redis-server (absent from this PATH on purpose).
    const withPassword = spawnSync('/bin/sh', ['-c', expanded], { encoding: 'utf8', env: { PATH: '/nonexistent', REDIS_PASSWORD: 'set' } });
    expect(withPassword.stderr).toMatch(/redis-server.*not found/);
  });

  it('hands the mounted folders to uid 1000 before the app starts', async () => {
    const { services } = await compose();
    expect(services.folders!.user).toBe('0:0');
    for (const [name, service] of longRunning(services).filter(([name]) => !['redis', 'sandbox'].includes(name))) {
      expect(service.depends_on?.folders?.condition, name).toBe('service_completed_successfully');
      expect(service.depends_on?.redis?.condition, name).toBe('service_healthy');
    }
    expect(await read('Dockerfile')).toContain('USER node');
  });

  it('declares the console in the Procfile', async () => {
    expect(await read('Procfile')).toMatch(/^web: node dist\/src\/cli\/main\.js serve --host 0\.0\.0\.0/m);
  });
});
