import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TokenIssuer } from './jwt.js';
import type { Random } from './prng.js';
import type { StatsRecorder } from './stats.js';
import { TimeWindow } from './time-window.js';
import type { SandboxAccount, SandboxBank, SandboxKnobs } from './types.js';

/** Everything the request handlers share for one running emulator. */
export interface SandboxState {
  knobs: SandboxKnobs;
  readonly random: Random;
  readonly stats: StatsRecorder;
  /** Admitted inquiries only: a rejected request must not extend its own lockout. */
  limiter: TimeWindow | null;
  readonly tokens: TokenIssuer;
  /** Changed at runtime by `POST /__sandbox/accounts` (accounts closed, renamed, opened between two runs). */
  readonly accounts: Map<string, SandboxAccount>;
  readonly banks: ReadonlyMap<string, SandboxBank>;
  readonly credentials: { username: string; password: string };
  nextRecordId: number;
  readonly shutdown: AbortSignal;
  /** Responses deliberately never answered; destroyed on close. */
  readonly hung: Set<ServerResponse>;
}

export function applyKnobs(state: SandboxState, changes: Partial<SandboxKnobs>): void {
  const previousWindow = state.knobs.rateLimit?.windowMs;
  state.knobs = { ...state.knobs, ...changes };
  const rateLimit = state.knobs.rateLimit;
  if (!rateLimit) state.limiter = null;
  else if (!state.limiter || rateLimit.windowMs !== previousWindow) state.limiter = new TimeWindow(rateLimit.windowMs);
  state.stats.setWindow(rateLimit?.windowMs);
}

/** Resolves false instead of throwing when the emulator shuts down mid-wait, so handlers just stop. */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
