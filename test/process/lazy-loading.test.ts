import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, PROJECT_ROOT, runCli } from '../support/cli.js';
import { deleteKeys, TEST_REDIS_URL, testKeyPrefix, testRedis } from '../support/redis.js';

const MODULE_LOG = fileURLToPath(new URL('../support/module-log.mjs', import.meta.url));
const HEAVY = ['fastify', '@bull-board', 'exceljs', 'bullmq'];

let directory: string;
beforeAll(async () => (directory = await mkdtemp(join(tmpdir(), 'bc-lazy-'))));
afterAll(async () => rm(directory, { recursive: true, force: true }));

/** The packages a command loaded, of those a command loads only when it uses them. */
async function heavyPackagesLoaded(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const log = join(directory, `${args[0]!.replace(/\W/g, '')}.log`);
  const result = await runCli(args, cliEnvironment({ ...env, NODE_OPTIONS: `--import ${MODULE_LOG}`, BC_TEST_MODULE_LOG: log }));
  expect(result.code).toBe(0);
  const loaded = await readFile(log, 'utf8');
  return HEAVY.filter((name) => loaded.includes(`/node_modules/${name}/`));
}

describe('each command loads its modules when it runs', () => {
  it('--version and --help load neither the console (Fastify, bull-board), nor exceljs, nor BullMQ', async () => {
    expect(await heavyPackagesLoaded(['--version'])).toEqual([]);
    expect(await heavyPackagesLoaded(['--help'])).toEqual([]);
  });

  it('run on a small CSV file loads neither the console nor exceljs', async () => {
    const prefix = testKeyPrefix();
    try {
      const loaded = await heavyPackagesLoaded(
        ['run', join(PROJECT_ROOT, 'examples/beneficiaries.csv'), '--out', join(directory, 'report.csv'), '--rate', '1000/s'],
        { REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix },
      );
      expect(loaded).toEqual(['bullmq']);
    } finally {
      const redis = testRedis();
      await deleteKeys(redis, prefix);
      redis.disconnect();
    }
  });
});
