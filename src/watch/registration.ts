import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RedisClient } from '../redis/connection.js';
import { sleep } from '../clock/clock.js';
import { UsageError } from '../errors.js';
import type { Logger } from '../logging/logger.js';
import type { RedisKeys } from '../redis/keys.js';
import { Lease, type LeaseLostError } from '../redis/lease.js';

const ALIVE_TTL_MS = 5_000;
const FOLDER_ID_FILE = '.beneficiary-check-folder-id';

/**
 * One watcher per folder: a lease in Redis that a live watcher renews and a dead one lets expire within
 * 5 s. A start beside a live watcher is refused; a restart after a crash waits at most that. A watcher that
 * loses its lease (another one took the folder over after this one stalled) is told, and must stop.
 */
export class FolderRegistration {
  private lease: Lease | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly root: string,
    private readonly logger: Logger,
  ) {}

  /** Registers as this folder's watcher and keeps the registration alive; returns the folder's id. */
  async acquire(onLost: (error: LeaseLostError) => void): Promise<string> {
    const folderId = await this.readFolderId();
    const lease = new Lease(this.redis, this.keys.watchFolder(folderId), { ttlMs: ALIVE_TTL_MS, details: { folder: this.root } });
    // A registration left by a watcher that died expires: wait for that, refuse to start beside a live one.
    const deadline = Date.now() + ALIVE_TTL_MS * 1.5;
    let said = false;
    for (;;) {
      const holder = await lease.acquire();
      if (holder === undefined) break;
      if (Date.now() > deadline) {
        throw new UsageError(
          `another watcher (pid ${holder.pid} on ${holder.host}) is watching ${this.root}: run one watcher per folder; to check faster, start more \`worker\` processes`,
        );
      }
      if (!said) {
        this.logger.info('this folder was registered to another watcher moments ago: waiting for that registration to expire');
        said = true;
      }
      await sleep(500);
    }
    lease.keepAlive(onLost);
    this.lease = lease;
    return folderId;
  }

  async release(): Promise<void> {
    await this.lease?.release();
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
}
