import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { appEnvExample, redisEnvExample, withSettingsTables } from '../../src/config/settings-docs.js';
import { readSettings, SETTINGS, type SettingSpec } from '../../src/config/settings.js';
import { ConfigError } from '../../src/errors.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const declared = Object.entries(SETTINGS) as Array<[string, SettingSpec<unknown>]>;
const FIX = 'run `npm run build && npm run config:docs` and commit what it writes';

describe('the settings, declared once in src/config/settings.ts', () => {
  it(`give docs/configuration.md its tables (${FIX})`, () => {
    const page = read('docs/configuration.md');
    expect(page).toBe(withSettingsTables(page));
  });

  it(`give .env.example and redis.env.example (${FIX})`, () => {
    expect(read('.env.example')).toBe(appEnvExample());
    expect(read('redis.env.example')).toBe(redisEnvExample());
  });

  it('name every variable the docs table lists, and every variable the code reads from the environment is declared', () => {
    const documented = [...read('docs/configuration.md').matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(declared.map(([name]) => name).sort());
    // The examples set only declared settings.
    for (const name of [...Object.keys(parse(read('.env.example'))), ...Object.keys(parse(read('redis.env.example')))])
      expect(SETTINGS).toHaveProperty(name);
  });

  it('parse their own defaults and examples', () => {
    for (const [name, spec] of declared) {
      if (spec.default !== undefined) expect(() => spec.parse(spec.default!, name), name).not.toThrow();
      if (spec.example !== undefined && spec.example !== '') expect(() => spec.parse(spec.example!, name), name).not.toThrow();
      expect(spec.help, name).not.toMatch(/\n/);
    }
  });

  it('read an empty environment as the defaults', () => {
    const { settings, deprecations } = readSettings({});
    expect(deprecations).toEqual([]);
    expect(settings.H2H_TIMEOUT).toBe(15_000);
    expect(settings.BATCH_RETENTION).toBe(30 * 86_400_000);
    expect(settings.REDIS_URL).toBeUndefined();
    expect(settings.RUN_WORKER_PROCESSES).toEqual({ kind: 'auto' });
  });
});

describe('command-line flags', () => {
  it('replace their settings, which are then not read', () => {
    const config = loadConfig(
      { env: 'Production', rate: '5/s', concurrency: '4', reuseAnswers: '1h' },
      { H2H_ENV: 'staging', INQUIRY_RATE: 'fast', INQUIRY_CONCURRENCY: 'many', REUSE_ANSWERS: 'yesterday' },
    );
    expect(config.provider.environment).toBe('production');
    expect(config.inquiry.rate).toEqual({ max: 5, perMs: 1000 });
    expect(config.inquiry.concurrency).toEqual({ min: 4, max: 4 });
    expect(config.history.reuseAnswersMs).toBe(3_600_000);
    expect(() => loadConfig({ env: 'staging' }, {})).toThrow('--env must be "sandbox" or "production", not "staging"');
  });
});

describe('durations', () => {
  it('take one syntax in every time setting', () => {
    const config = loadConfig(
      {},
      { H2H_TIMEOUT: '500ms', INQUIRY_OUTAGE_BUDGET: '5m', WATCH_DUPLICATE_WINDOW: '12h', BATCH_RETENTION: '7d', SHUTDOWN_TIMEOUT: '0' },
    );
    expect(config.provider.requestTimeoutMs).toBe(500);
    expect(config.inquiry.outageBudgetMs).toBe(300_000);
    expect(config.watch.duplicateWindowMs).toBe(12 * 3_600_000);
    expect(config.retention.batchMs).toBe(7 * 86_400_000);
    expect(config.history.keepMs).toBe(7 * 86_400_000);
    expect(config.shutdownTimeoutMs).toBe(0);
    expect(config.deprecations).toEqual([]);
  });

  it.each(['15000', '15 seconds', '-1s', 'soon'])('refuse %j, naming the setting and the forms', (value) => {
    expect(() => loadConfig({}, { H2H_TIMEOUT: value })).toThrow(ConfigError);
    expect(() => loadConfig({}, { H2H_TIMEOUT: value })).toThrow(
      `H2H_TIMEOUT must be a duration, a number and a unit ms, s, m, h or d (500ms, 30s, 5m, 12h, 30d), not ${JSON.stringify(value)}`,
    );
  });

  it('refuse 0 where a setting must be above it', () => {
    expect(() => loadConfig({}, { WATCH_POLL: '0s' })).toThrow('WATCH_POLL must be above 0');
  });
});

describe('the old names of renamed settings', () => {
  it('are read in their old unit, with a warning naming the new setting', () => {
    const config = loadConfig(
      {},
      {
        H2H_TIMEOUT_MS: '2500',
        WATCH_STABLE_SECONDS: '0.5',
        WATCH_DUPLICATE_WINDOW_HOURS: '48',
        BATCH_RETENTION_DAYS: '7',
        DECISION_RETENTION_DAYS: '0',
      },
    );
    expect(config.provider.requestTimeoutMs).toBe(2500);
    expect(config.watch.stableMs).toBe(500);
    expect(config.watch.duplicateWindowMs).toBe(48 * 3_600_000);
    expect(config.retention.batchMs).toBe(7 * 86_400_000);
    expect(config.decisions.keepMs).toBe(0);
    expect(config.deprecations).toEqual([
      'H2H_TIMEOUT_MS is deprecated: write H2H_TIMEOUT=2500ms',
      'WATCH_STABLE_SECONDS is deprecated: write WATCH_STABLE=500ms',
      'WATCH_DUPLICATE_WINDOW_HOURS is deprecated: write WATCH_DUPLICATE_WINDOW=2d',
      'BATCH_RETENTION_DAYS is deprecated: write BATCH_RETENTION=7d',
      'DECISION_RETENTION_DAYS is deprecated: write DECISION_RETENTION=0',
    ]);
  });

  it('a time a timer waits for is at most 24 days (Node fires a longer timer at once); a retention may be longer', () => {
    expect(() => loadConfig({}, { H2H_TIMEOUT: '99999999d' })).toThrow(
      'H2H_TIMEOUT must be at most 24d (a timer waits no longer), not "99999999d"',
    );
    expect(() => loadConfig({}, { SHUTDOWN_TIMEOUT_SECONDS: '2592000' })).toThrow('SHUTDOWN_TIMEOUT_SECONDS must be at most 24d');
    expect(loadConfig({}, { H2H_TIMEOUT: '24d' }).provider.requestTimeoutMs).toBe(24 * 86_400_000);
    expect(loadConfig({}, { BATCH_RETENTION: '365d' }).retention.batchMs).toBe(365 * 86_400_000);
  });

  it('a batch is kept at least an hour after its last write: shorter, it vanished mid-run and the run blamed Redis', () => {
    expect(() => loadConfig({}, { BATCH_RETENTION: '1ms' })).toThrow(
      'BATCH_RETENTION must be at least 1h, not "1ms": a batch\'s keys expire that long after its last write',
    );
    expect(() => loadConfig({}, { BATCH_RETENTION: '59m' })).toThrow(ConfigError);
    expect(loadConfig({}, { BATCH_RETENTION: '1h' }).retention.batchMs).toBe(3_600_000);
  });

  it('keep their old limits, and give way to the new name', () => {
    expect(() => loadConfig({}, { BATCH_RETENTION_DAYS: '0' })).toThrow('BATCH_RETENTION_DAYS must be above 0');
    expect(() => loadConfig({}, { INQUIRY_BACKOFF_MS: 'fast' })).toThrow('INQUIRY_BACKOFF_MS (now INQUIRY_BACKOFF) must be a number of ms');
    const config = loadConfig({}, { SHUTDOWN_TIMEOUT: '5s', SHUTDOWN_TIMEOUT_SECONDS: '60' });
    expect(config.shutdownTimeoutMs).toBe(5000);
    expect(config.deprecations).toEqual([
      'SHUTDOWN_TIMEOUT_SECONDS is ignored: SHUTDOWN_TIMEOUT is set (SHUTDOWN_TIMEOUT_SECONDS is its old name)',
    ]);
  });
});
