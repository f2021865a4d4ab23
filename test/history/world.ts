import type { Redis } from 'ioredis';
import { startSandbox, type SandboxAccount, type SandboxServer } from '../../src/sandbox/index.js';
import { cliEnvironment } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis } from '../support/redis.js';
import { opsEnvironment, removeTempFolders, tempFolder } from '../ops/ops-helpers.js';

/** One emulator (one provider address, so history applies across runs), a key prefix, a folder and the CLI's environment. */
export interface World {
  sandbox: SandboxServer;
  redis: Redis;
  prefix: string;
  folder: string;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startWorld(label: string, accounts: SandboxAccount[], settings: Record<string, string> = {}): Promise<World> {
  const sandbox = await startSandbox({ accounts, latencyMs: { min: 0, max: 2 } });
  const redis = testRedis();
  const prefix = testKeyPrefix();
  const folder = await tempFolder(label);
  return {
    sandbox,
    redis,
    prefix,
    folder,
    env: cliEnvironment(opsEnvironment(prefix, sandbox.url, { INQUIRY_RATE: '100/s', ...settings })),
    close: async () => {
      await deleteKeys(redis, prefix);
      redis.disconnect();
      await sandbox.close();
      await removeTempFolders();
    },
  };
}
