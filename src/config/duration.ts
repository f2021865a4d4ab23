/** The one way every time setting and flag is written: a number and a unit, `500ms`, `30s`, `5m`, `12h`, `30d`. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

export const DURATION_FORMS = 'a number and a unit ms, s, m, h or d (500ms, 30s, 5m, 12h, 30d)';

/**
 * The duration in milliseconds (rounded), or undefined when the text is not one. A bare `0` needs no unit
 * (nothing is ambiguous about it); any other bare number does, since its unit would be a guess.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d)$/i.exec(trimmed);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]!);
}

/** The shortest exact way to write `ms` in the setting's syntax: 2000 is `2s`, 86400000 is `1d`, 1500 is `1500ms`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0';
  for (const unit of ['d', 'h', 'm', 's'] as const) if (ms % UNIT_MS[unit]! === 0) return `${ms / UNIT_MS[unit]!}${unit}`;
  return `${ms}ms`;
}

/** The old unit of a setting renamed to a duration: its bare numbers are read in it. */
export type LegacyUnit = 'ms' | 's' | 'h' | 'd';

/** A deprecated setting's value: a bare number in its old unit, or (accepted too) a duration. */
export function parseLegacyDuration(text: string, unit: LegacyUnit): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * UNIT_MS[unit]!);
  return parseDuration(trimmed);
}
