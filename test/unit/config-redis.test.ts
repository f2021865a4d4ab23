import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';
import { describeRedis, displayRedisUrl } from '../../src/redis/connection.js';

const load = (env: Record<string, string>) => loadConfig({}, env);
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('REDIS_CLUSTER_NODES', () => {
  it('reads host:port seeds, with credentials and TLS from node URLs', () => {
    expect(load({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7001,' }).redisCluster).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
      tls: false,
      username: undefined,
      password: undefined,
    });
    expect(
      load({ REDIS_CLUSTER_NODES: 'rediss://checker:p%40ss@a.cache.example:6379,rediss://b.cache.example:6379' }).redisCluster,
    ).toEqual({
      nodes: [
        { host: 'a.cache.example', port: 6379 },
        { host: 'b.cache.example', port: 6379 },
      ],
      tls: true,
      username: 'checker',
      password: 'p@ss',
    });
    expect(load({}).redisCluster).toBeUndefined();
  });

  it('refuses what cannot be meant, without echoing a password', () => {
    expect(() => load({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_URL: 'redis://a:6379' })).toThrow(
      /REDIS_URL and REDIS_CLUSTER_NODES are both set/,
    );
    expect(() => load({ REDIS_CLUSTER_NODES: 'a:7000', PRIVATE_REDIS: 'always' })).toThrow(ConfigError);
    expect(() => load({ REDIS_CLUSTER_NODES: 'a' })).toThrow(/host:port entries/);
    expect(() => load({ REDIS_CLUSTER_NODES: 'a:99999' })).toThrow(/host:port entries/);
    expect(() => load({ REDIS_CLUSTER_NODES: ' , ' })).toThrow(/names no node/);
    expect(() => load({ REDIS_CLUSTER_NODES: 'rediss://a:7000,redis://b:7000' })).toThrow(/mixes rediss/);
    expect(() => load({ REDIS_CLUSTER_NODES: 'redis://u:secret@a' })).toThrow(/"redis:\/\/u:\*\*\*@a"/);
  });
});

describe('Redis credentials and TLS', () => {
  it('takes REDIS_USERNAME and REDIS_PASSWORD', () => {
    expect(load({ REDIS_USERNAME: 'checker', REDIS_PASSWORD: 'pw' })).toMatchObject({ redisUsername: 'checker', redisPassword: 'pw' });
  });

  it('reads REDIS_TLS_CA_FILE once, only for a TLS address', () => {
    const directory = mkdtempSync(join(tmpdir(), 'bc-ca-'));
    try {
      writeFileSync(join(directory, 'ca.crt'), PEM);
      writeFileSync(join(directory, 'not.crt'), 'hello');
      expect(load({ REDIS_URL: 'rediss://h:6380', REDIS_TLS_CA_FILE: join(directory, 'ca.crt') }).redisTlsCa).toBe(PEM);
      expect(load({ REDIS_CLUSTER_NODES: 'rediss://h:6380', REDIS_TLS_CA_FILE: join(directory, 'ca.crt') }).redisTlsCa).toBe(PEM);
      expect(() => load({ REDIS_URL: 'redis://h:6379', REDIS_TLS_CA_FILE: join(directory, 'ca.crt') })).toThrow(
        /not TLS: write REDIS_URL .* as rediss:\/\//,
      );
      expect(() => load({ REDIS_URL: 'rediss://h:6380', REDIS_TLS_CA_FILE: join(directory, 'missing.crt') })).toThrow(
        /cannot be read: ENOENT/,
      );
      expect(() => load({ REDIS_URL: 'rediss://h:6380', REDIS_TLS_CA_FILE: join(directory, 'not.crt') })).toThrow(/no PEM certificate/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('never shows a password in a Redis address', () => {
    expect(displayRedisUrl('rediss://checker:s3cret@h:6380/0')).toBe('rediss://checker:***@h:6380/0');
    expect(describeRedis({ kind: 'server', url: 'redis://:s3cret@h:6379', password: 'other' })).toBe('redis://:***@h:6379');
    expect(
      describeRedis({
        kind: 'cluster',
        nodes: [
          { host: 'a', port: 1 },
          { host: 'b', port: 2 },
        ],
        tls: true,
        password: 's3cret',
      }),
    ).toBe('rediss://a:1,b:2 (cluster)');
  });
});
