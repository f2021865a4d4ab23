import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Where a process runs, as far as its pid means anything: a pid names a process only on its own host and
 * in its own pid namespace (every container has one). Undefined namespace: not Linux, nothing is known.
 */
export interface ProcessPlace {
  host: string;
  pidNamespace: string | undefined;
}

function readPidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

export const thisPlace: ProcessPlace = { host: hostname(), pidNamespace: readPidNamespace() };

/** Whether a process of this host (and pid namespace) with that pid exists. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True only when it is certain that the process is gone: it ran here (same host and pid namespace) and no
 * process has its pid. Anything unknown (another machine or container, no namespace) counts as alive.
 */
export function isGoneProcess(place: Partial<ProcessPlace>, pid: number): boolean {
  if (thisPlace.pidNamespace === undefined || place.host !== thisPlace.host || place.pidNamespace !== thisPlace.pidNamespace) return false;
  return pid !== process.pid && !isProcessAlive(pid);
}
