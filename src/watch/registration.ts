import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { UsageError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import type { RedisKeys } from '../queue/keys.js';
import { sleep } from './batch-run.js';

const ALIVE_TTL_MS = 5_000;
const ALIVE_RENEW_MS = 1_500;
const FOLDER_ID_FILE = '.beneficiary-check-folder-id';

/**
 * One watcher per folder: a registration in Redis that a live watcher renews and a dead one lets
 * expire within 5 s. A start beside a live watcher is refused; a restart after a crash waits at most that.
 */
export class FolderRegistration {
  private readonly instance = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private folderId = '';
  private aliveTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly root: string,
    private readonly logger: Logger,
  ) {}

  /** Registers as this folder's watcher and keeps the registration alive; returns the folder's id. */
  async acquire(): Promise<string> {
    this.folderId = await this.readFolderId();
    await this.register();
    this.aliveTimer = setInterval(() => {
      this.renewRegistration().catch((error: unknown) => this.logger.warn({ err: error }, 'could not renew the watcher registration'));
    }, ALIVE_RENEW_MS);
    return this.folderId;
  }

  async release(): Promise<void> {
    clearInterval(this.aliveTimer);
    if (this.folderId !== '') await this.unregister();
  }

  /**
   * The folder's identity lives in the folder (a hidden file), so that the same share mounted at
   * different paths on different machines is recognised as one folder.
   */
  private async readFolderId(): Promise<string> {
    const path = join(this.root, FOLDER_ID_FILE);
    try {
      await writeFile(path, `${randomBytes(8).toString('hex')}\n`, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return (await readFile(path, 'utf8')).trim();
  }

  private registrationValue(): string {
    return JSON.stringify({ instance: this.instance, host: hostname(), pid: process.pid, folder: this.root });
  }

  /** SET when absent or ours; returns the holder when somebody else holds it. */
  private async claimRegistration(): Promise<string | undefined> {
    const result = (await this.redis.eval(
      `local current = redis.call('GET', KEYS[1])
       if current == false or current == ARGV[1] then
         redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
         return false
       end
       return current`,
      1,
      this.keys.watchFolder(this.folderId),
      this.registrationValue(),
      ALIVE_TTL_MS,
    )) as string | null;
    return result ?? undefined;
  }

  /** Waits out a registration left by a watcher that died (it expires); refuses to start beside a live one. */
  private async register(): Promise<void> {
    const deadline = Date.now() + ALIVE_TTL_MS + ALIVE_RENEW_MS * 2;
    let said = false;
    for (;;) {
      const holder = await this.claimRegistration();
      if (holder === undefined) return;
      if (Date.now() > deadline) {
        const { host, pid } = JSON.parse(holder) as { host: string; pid: number };
        throw new UsageError(
          `another watcher (pid ${pid} on ${host}) is watching ${this.root}: run one watcher per folder; to check faster, start more \`worker\` processes`,
        );
      }
      if (!said) {
        this.logger.info('this folder was registered to another watcher moments ago: waiting for that registration to expire');
        said = true;
      }
      await sleep(500);
    }
  }

  private async renewRegistration(): Promise<void> {
    const holder = await this.claimRegistration();
    if (holder !== undefined) this.logger.error({ holder }, 'another watcher registered for this folder: run one watcher per folder');
  }

  private async unregister(): Promise<void> {
    await this.redis.eval(
      `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
      1,
      this.keys.watchFolder(this.folderId),
      this.registrationValue(),
    );
  }
}
