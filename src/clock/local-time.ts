/**
 * Times as people read them: in one configured time zone (DISPLAY_TZ, default Asia/Jakarta), named the way
 * Indonesians name their zones (WIB, WITA, WIT) rather than `GMT+7`.
 *
 * `localTime` is self-contained (no imports, no outer names) on purpose: the console's pages put its source
 * into their script, so a time written by the browser and one written by the server read the same.
 */
export function localTime(at: number | string, timeZone: string): string {
  const labels: Record<string, string> = {
    'Asia/Jakarta': 'WIB',
    'Asia/Pontianak': 'WIB',
    'Asia/Makassar': 'WITA',
    'Asia/Jayapura': 'WIT',
    UTC: 'UTC',
    'Etc/UTC': 'UTC',
  };
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return '';
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${labels[timeZone] ?? parts.timeZoneName ?? timeZone}`;
}

/**
 * ISO 8601 with the zone's offset and milliseconds, `2026-11-21T09:15:07.123+07:00`: exact (it reads back to
 * the same instant, to the millisecond) and readable where the zone is the reader's. A spreadsheet leaves it
 * as text (a `T` and an offset are not a date to Excel), so it survives a round trip through one.
 */
export function isoInZone(at: number, timeZone: string): string {
  const offsetMinutes = zoneOffsetMinutes(at, timeZone);
  const local = new Date(at + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}

/** Minutes the zone is ahead of UTC at that instant (daylight saving included). */
function zoneOffsetMinutes(at: number, timeZone: string): number {
  const wall = wallClockIn(at, timeZone);
  const asUtc = Date.UTC(
    Number(wall.year),
    Number(wall.month) - 1,
    Number(wall.day),
    Number(wall.hour),
    Number(wall.minute),
    Number(wall.second),
  );
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / 60_000);
}

/** What a clock on the wall in the zone shows at that instant: each field as two digits (the year four). */
export interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

export function wallClockIn(at: number, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  for (const part of format.formatToParts(new Date(at))) parts[part.type] = part.value;
  const { year = '', month = '', day = '', hour = '', minute = '', second = '' } = parts;
  return { year, month, day, hour, minute, second };
}

/** An IANA zone name Intl knows; anything else is refused where the setting is read. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
