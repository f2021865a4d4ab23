import { chmod, mkdir } from 'node:fs/promises';

/**
 * Files that hold personal data (uploads, reports, their summaries): readable and writable by the owner
 * alone, whatever the umask.
 */
export const PRIVATE_FILE_MODE = 0o600;

/** Folders made for such files: listed by the owner alone (a file's name can hold an account number). */
export const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Makes a folder (and its missing parents) for private files, mode 0700. A folder that exists keeps its
 * mode unless `own` says it is this tool's alone (the console's `inputs/`): a reports folder the user chose
 * may be shared on purpose, and the files in it are 0600 anyway.
 */
export async function makePrivateFolder(path: string, own = false): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (own) await chmod(path, PRIVATE_FOLDER_MODE);
}
