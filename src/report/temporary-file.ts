import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isProcessAlive } from '../host/process.js';
import { PRIVATE_FILE_MODE } from '../host/private-files.js';

/** `report.csv.tmp-<pid>-<random>`: whose it is, so a later writer can remove what a dead process left. */
const TEMPORARY = /^(.*)\.tmp-(\d+)-[0-9a-f]+$/;

/**
 * An output written under a temporary name beside its final path and renamed at the end, so nobody opens
 * half a file. `failed` rejects on a stream error (disk full, permission) instead of crashing the process.
 */
export interface TemporaryFile {
  stream: WriteStream;
  failed: Promise<never>;
  /** Renames the finished file into place (after the stream finished). */
  commit(): Promise<void>;
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

export async function openTemporaryFile(path: string): Promise<TemporaryFile> {
  await removeAbandonedTemporaries(path);
  const temporaryPath = `${path}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  // Created private: the renamed file keeps the mode, so a report is never readable by others, not even while written.
  const stream = createWriteStream(temporaryPath, { mode: PRIVATE_FILE_MODE });
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  return {
    stream,
    failed,
    commit: () => rename(temporaryPath, path),
    discard: async () => {
      stream.destroy();
      await rm(temporaryPath, { force: true });
    },
  };
}

/** A small file written whole the same way (the summary): complete under its name, or not there at all (a full disk leaves no 0-byte file). */
export async function writeWholeFile(path: string, content: string): Promise<void> {
  const file = await openTemporaryFile(path);
  try {
    file.stream.end(content);
    await Promise.race([once(file.stream, 'finish'), file.failed]);
    await file.commit();
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/** Temporary files of this output left by a process that died while writing it (same host only: pids are local). */
async function removeAbandonedTemporaries(path: string): Promise<void> {
  const directory = dirname(path);
  for (const name of await readdir(directory)) {
    const match = TEMPORARY.exec(name);
    if (!match || match[1] !== basename(path) || isProcessAlive(Number(match[2]))) continue;
    await rm(join(directory, name), { force: true });
  }
}
