import { readdir, stat } from 'node:fs/promises';
import { sep } from 'node:path';

/** A CSV file in the inbox that is complete and may be taken. */
export interface ReadyFile {
  /** Its name as text (a name that is no valid UTF-8 has U+FFFD where its odd bytes are). */
  name: string;
  /** Its path as the file system knows it: bytes, so that a name that is no valid UTF-8 still reaches the file. */
  path: Buffer;
  size: number;
  mtimeMs: number;
  /** Why it counts as complete: it stayed unchanged long enough, or it was renamed from a .part/.tmp name; or it is a symbolic link, never taken. */
  reason: 'stable' | 'renamed' | 'link';
}

interface Observation {
  size: number;
  mtimeMs: number;
  /** When the watcher first saw the file with this size and mtime (the watcher's clock, not the file server's). */
  since: number;
  /** Scans that saw these same values. */
  observations: number;
  renamed: boolean;
}

const STAGING = /\.(part|tmp)$/i;
/** The inputs taken: CSV files and XLSX workbooks (ops drop the workbook they have). */
const INPUT = /\.(csv|xlsx)$/i;

/** `payouts.csv.part`, `payouts.part`, `payouts.csv.tmp` -> `payouts`; `payouts.csv`, `payouts.xlsx` -> `payouts`. */
const stemOf = (name: string): string => name.replace(STAGING, '').replace(INPUT, '').toLowerCase();

/** Files the watcher never touches: hidden ones (rsync and editors write `.name.xyz` first, Excel `~$name.xlsx`), anything not `.csv`/`.xlsx`. */
export const isCandidateName = (name: string): boolean =>
  !name.startsWith('.') && !name.startsWith('~$') && INPUT.test(name) && !STAGING.test(name);

/**
 * Decides which inbox files are complete. The inbox is listed and every CSV stat()ed on each scan
 * (a polling loop rather than inotify/chokidar: inbox folders are often SMB/NFS shares or SFTP landing
 * folders, where change events are missing or late, and a size/mtime check is needed anyway).
 *
 * A file is complete when either:
 * - two scans or more saw the same size and mtime, the first of them at least `stableMs` ago
 *   (measured on the watcher's monotonic clock, so neither a file server whose clock is off nor a step of
 *   this machine's wall clock can make a file look old);
 * - it appeared under a name whose `.part`/`.tmp` form (`x.csv.part`, `x.csv.tmp`, `x.part`, `x.tmp`)
 *   was in the inbox at the previous scan and is gone now: the writer finished and renamed it.
 *   A writer that renames within one poll interval is not seen as staging: its file then waits
 *   the normal stability time.
 * Hidden files, names ending in .part/.tmp and files not ending in .csv are never taken. A symbolic link
 * with a file's name is no file: it is returned at once, as `link`, for the watcher to refuse.
 */
export class InboxScanner {
  private readonly tracked = new Map<string, Observation>();
  private stagingStems = new Set<string>();

  constructor(
    private readonly directory: string,
    private readonly stableMs: number,
    /** The monotonic clock: a step of the wall clock (NTP, a VM resume) must not make a file look unchanged for long. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  async scan(): Promise<ReadyFile[]> {
    // Listed as bytes: a name written by a client in another encoding (Latin-1 over SMB) cannot be reached
    // through its UTF-8 reading, and would be skipped for ever as "gone between the listing and the stat".
    const listed = await readdir(this.directory, { withFileTypes: true, encoding: 'buffer' });
    const entries = listed.map((entry) => ({ entry, name: entry.name.toString('utf8') }));
    const staging = new Set(entries.filter(({ name }) => !name.startsWith('.') && STAGING.test(name)).map(({ name }) => stemOf(name)));
    const present = new Set<string>();
    const ready: ReadyFile[] = [];
    const folder = Buffer.from(`${this.directory}${sep}`);
    for (const { entry, name } of entries) {
      if (!isCandidateName(name)) continue;
      const path = Buffer.concat([folder, entry.name]);
      if (entry.isSymbolicLink()) {
        ready.push({ name, path, size: 0, mtimeMs: 0, reason: 'link' });
        continue;
      }
      if (!entry.isFile()) continue;
      let info;
      try {
        info = await stat(path);
      } catch {
        continue; // gone between the listing and the stat
      }
      // Tracked by the exact bytes: two names that read the same as text are two files.
      const key = path.toString('latin1');
      present.add(key);
      const now = this.now();
      const stem = stemOf(name);
      const renamedNow = this.stagingStems.has(stem) && !staging.has(stem);
      const previous = this.tracked.get(key);
      let observation: Observation;
      if (previous === undefined || previous.size !== info.size || previous.mtimeMs !== info.mtimeMs) {
        observation = { size: info.size, mtimeMs: info.mtimeMs, since: now, observations: 1, renamed: renamedNow };
      } else {
        observation = { ...previous, observations: previous.observations + 1, renamed: previous.renamed || renamedNow };
      }
      this.tracked.set(key, observation);
      if (observation.renamed) {
        ready.push({ name, path, size: info.size, mtimeMs: info.mtimeMs, reason: 'renamed' });
      } else if (observation.observations >= 2 && now - observation.since >= this.stableMs) {
        ready.push({ name, path, size: info.size, mtimeMs: info.mtimeMs, reason: 'stable' });
      }
    }
    for (const name of [...this.tracked.keys()]) if (!present.has(name)) this.tracked.delete(name);
    this.stagingStems = staging;
    // Oldest first: files are taken in the order they were dropped.
    return ready.sort((a, b) => a.mtimeMs - b.mtimeMs || a.name.localeCompare(b.name));
  }

  /** The file was taken (or vanished): a new file under the same name starts from scratch. */
  forget(file: Pick<ReadyFile, 'path'>): void {
    this.tracked.delete(file.path.toString('latin1'));
  }
}
