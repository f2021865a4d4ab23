import type { SandboxKnobs } from './types.js';

export const DEFAULT_KNOBS: Readonly<SandboxKnobs> = {
  latencyMs: { min: 0, max: 0 },
  loginLatencyMs: 0,
  rateLimit: null,
  tokenLifetimeSeconds: 3600,
  serverErrorRate: 0,
  hangRate: 0,
  loginFailure: null,
};

const KNOB_NAMES = Object.keys(DEFAULT_KNOBS) as (keyof SandboxKnobs)[];

const nonNegative = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const probability = (v: unknown): v is number => nonNegative(v) && v <= 1;

/**
 * Validates a partial knob set; throws with the offending knob named.
 * Untyped input because the control endpoint feeds it raw JSON from another process.
 */
export function validateKnobs(input: unknown): Partial<SandboxKnobs> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('knobs must be an object');
  const raw = input as Record<string, unknown>;
  const out: Partial<SandboxKnobs> = {};
  for (const key of Object.keys(raw)) {
    if (!KNOB_NAMES.includes(key as keyof SandboxKnobs)) throw new Error(`unknown knob: ${key}`);
  }
  if ('latencyMs' in raw) {
    const l = raw.latencyMs as { min?: unknown; max?: unknown } | null;
    if (!l || !nonNegative(l.min) || !nonNegative(l.max) || l.min > l.max) {
      throw new Error('latencyMs must be { min, max } with 0 <= min <= max');
    }
    out.latencyMs = { min: l.min, max: l.max };
  }
  if ('loginLatencyMs' in raw) {
    if (!nonNegative(raw.loginLatencyMs)) throw new Error('loginLatencyMs must be >= 0');
    out.loginLatencyMs = raw.loginLatencyMs;
  }
  if ('rateLimit' in raw) {
    const r = raw.rateLimit as { max?: unknown; windowMs?: unknown } | null;
    if (r === null) out.rateLimit = null;
    else if (!nonNegative(r.max) || !Number.isInteger(r.max) || r.max < 1 || !nonNegative(r.windowMs) || r.windowMs <= 0) {
      throw new Error('rateLimit must be null or { max: integer >= 1, windowMs > 0 }');
    } else out.rateLimit = { max: r.max, windowMs: r.windowMs };
  }
  if ('tokenLifetimeSeconds' in raw) {
    const t = raw.tokenLifetimeSeconds;
    if (!nonNegative(t) || !Number.isInteger(t) || t < 1) throw new Error('tokenLifetimeSeconds must be an integer >= 1');
    out.tokenLifetimeSeconds = t;
  }
  for (const key of ['serverErrorRate', 'hangRate'] as const) {
    if (key in raw) {
      const v = raw[key];
      if (!probability(v)) throw new Error(`${key} must be between 0 and 1`);
      out[key] = v;
    }
  }
  if ('loginFailure' in raw) {
    const f = raw.loginFailure;
    if (f !== null && f !== 'server_error' && f !== 'unavailable') {
      throw new Error("loginFailure must be null, 'server_error' or 'unavailable'");
    }
    out.loginFailure = f;
  }
  return out;
}

/** Picks knob values out of options that also carry non-knob fields (host, port, ...). */
export function knobsFromOptions(options: Partial<SandboxKnobs> & Record<string, unknown>): Partial<SandboxKnobs> {
  const picked: Record<string, unknown> = {};
  for (const key of KNOB_NAMES) if (options[key] !== undefined) picked[key] = options[key];
  return validateKnobs(picked);
}
