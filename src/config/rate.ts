import { ConfigError } from '../errors.js';

/** A ceiling of `max` inquiries per `perMs` milliseconds, across every worker. */
export interface Rate {
  max: number;
  perMs: number;
}

const UNIT_MS: Record<string, number> = { s: 1000, sec: 1000, second: 1000, min: 60_000, m: 60_000, minute: 60_000 };

/** Parses `20/s`, `1200/min` or a bare `20` (per second). */
export function parseRate(text: string): Rate {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*([a-z]+))?\s*$/i.exec(text);
  const unit = (match?.[2] ?? 's').toLowerCase();
  const perMs = UNIT_MS[unit];
  const max = Number(match?.[1]);
  if (!match || perMs === undefined || !(max > 0)) {
    throw new ConfigError(`invalid rate ${JSON.stringify(text)}: use a positive number per second or minute, e.g. 20/s or 600/min`);
  }
  return { max, perMs };
}

export const ratePerSecond = (rate: Rate): number => (rate.max * 1000) / rate.perMs;

export const formatRate = (rate: Rate): string => `${Number(ratePerSecond(rate).toFixed(3))}/s`;

/** The rate as INQUIRY_RATE takes it, exactly (per second or per minute, as it was given). */
export const rateSetting = (rate: Rate): string => `${rate.max}/${rate.perMs === UNIT_MS.min ? 'min' : 's'}`;
