import { pino, type Logger, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { redactUrls } from './redact-url.js';

export type { Logger } from 'pino';

/**
 * Paths that may carry a secret anywhere in a log object. Pino's redaction is path based, so the
 * common nestings (request options, error objects, response bodies) are listed explicitly.
 */
const REDACTED_PATHS = [
  'password',
  'token',
  'accessToken',
  'access_token',
  'authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.access_token',
  '*.authorization',
  '*.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  '*.*.authorization',
  'data.access_token',
  '*.data.access_token',
];

/**
 * Errors are logged by name, message, code and stack only (and their causes the same way): an HTTP
 * client's error carries the whole request, body and headers included, which is where passwords and
 * tokens live.
 */
export function serialiseError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { code } = error as NodeJS.ErrnoException;
  return {
    type: error.name,
    message: showable(error.message),
    ...(code !== undefined && { code }),
    ...(error.stack !== undefined && { stack: showable(error.stack) }),
    ...(error.cause !== undefined && { cause: serialiseError(error.cause) }),
  };
}

export interface LogOutput {
  /** `auto`: readable lines on a terminal (stderr is a TTY), one JSON object a line elsewhere (files, log shippers). */
  format?: 'auto' | 'json' | 'pretty';
  /** Where the lines go; default stderr. A terminal's progress line hands one in to clear itself around log lines. */
  destination?: DestinationStream;
}

/** Logs go to stderr, so that stdout stays for what a command prints as its result (batch id, summary). */
export function createLogger(level: string, destination: DestinationStream | LogOutput = {}): Logger {
  const output: LogOutput = 'write' in destination ? { format: 'json', destination } : destination;
  const readable = output.format === 'pretty' || (output.format !== 'json' && process.stderr.isTTY === true);
  // Synchronous, in this thread: a command ends with process.exit, and a transport thread would lose the last lines.
  const stream = readable
    ? pretty({
        destination: output.destination ?? 2,
        sync: true,
        colorize: process.stderr.isTTY === true,
        ignore: 'pid,hostname',
        translateTime: 'SYS:HH:MM:ss.l',
      })
    : (output.destination ?? pino.destination(2));
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: serialiseError },
      // Every log line shows its text the same way: file names, paths, reasons and messages are free text.
      formatters: { log: (object) => showableValues(object) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (typeof arg === 'string' ? showable(arg) : arg)) as Parameters<typeof method>);
        },
      },
      base: { pid: process.pid },
    },
    stream,
  );
}

/** Account numbers never reach a log line in full: the last four digits are enough to find a row. */
/** How many last digits of an account number are shown. */
export const VISIBLE_ACCOUNT_DIGITS = 4;

export function maskAccountNumber(accountNumber: string): string {
  const visible = accountNumber.slice(-VISIBLE_ACCOUNT_DIGITS);
  return `${'*'.repeat(Math.max(accountNumber.length - visible.length, 2))}${visible}`;
}

/**
 * What free text may hold that is no account number, though it has digits: this tool's own ids (batch ids,
 * inquiry job ids, watch claim and upload ids), 16-digit hex digests (queue names, folder ids), ISO
 * timestamps and the local times it shows (`2026-11-30 16:40:42 WIB`), IPv4 addresses where they are addresses (after `//` or `@` in a URL, or before a `:port`) and
 * process ids (`pid 4194301`). Each is a fixed shape an account number is not written in; a bare
 * IPv4-shaped group (`payroll 527.012.34.56.csv`) may be an account number written with dots, and is masked.
 */
const NOT_AN_ACCOUNT = [
  String.raw`\bpid \d+`,
  String.raw`b\d{8}-\d{6}-[0-9a-f]{6}(?:\.[0-9a-f]{16}(?:\.r\d+)?)?`,
  String.raw`\d{8}T\d{6}Z-[0-9a-f]{6}`,
  // biome-ignore lint/complexity/noUselessStringRaw: raw like its neighbours, so that an escape added later stays a regex escape
  String.raw`(?<![0-9A-Za-z])(?=[0-9a-f]{0,15}[a-f])[0-9a-f]{16}(?![0-9A-Za-z])`,
  String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?`,
  // A time as this tool shows it to people (localTime: `2026-11-30 16:40:42 WIB`).
  String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?= [A-Z]{3,4}\b)`,
  String.raw`(?:(?<=\/\/|@)(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.]*\d)|(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?=:\d))`,
].join('|');

/**
 * Digits with the separators the product reads in an account number (src/csv/validation.ts) between them:
 * spaces (a spreadsheet's wide ones too), dots or dashes, `5270 1234 56`, `5270-1234-56`. Taken more widely
 * than the product reads them, so that a number typed carelessly in a reference or a file name is hidden
 * too: digits of any script (fullwidth `５２７０`), any space (thin, no-break), any dash (en, em, minus),
 * `/`, `_`, line breaks and tabs, middle dots, and the characters nobody sees (zero-width spaces and joiners,
 * the soft hyphen, invisible operators, variation selectors), up to three of them mixed
 * (`5270  1234–56`, `5270/1234_56`). Masking a little more is the safe side. Not a comma: it separates lists
 * that must stay readable (a cluster's `127.0.0.1:30001,127.0.0.1:30002`, `rows 1203,1204`).
 */
const DIGIT_GROUPS = String.raw`\p{Nd}+(?:[\p{Zs}\t\n\r\u2028\u2029.\u00b7\u30fb\uff0e\p{Pd}\u2212/_\u00ad\u034f\u180e\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f\ufeff]{1,3}\p{Nd}+)*`;

const FREE_TEXT = new RegExp(`(${NOT_AN_ACCOUNT})|${DIGIT_GROUPS}`, 'gu');

/** Fewer digits than this in one group are left as they are: counts, codes, short references. */
const MASKED_FROM_DIGITS = 6;

/**
 * Free text as it may be shown (a file name or path, a cell quoted in a reason, a reference, an error
 * message): every group of 6 or more digits, written plain or with separators as an account number may be
 * (`payroll 5270123456.csv`, `ref 5270 1234 56`), is masked like an account number (`******3456`). The
 * console, its API, the notices and the log lines all show free text through this.
 */
export const maskDigitRuns = (text: string): string =>
  text.replace(FREE_TEXT, (found: string, kept: string | undefined) => {
    if (kept !== undefined) return found;
    const digits = found.replace(/\P{Nd}/gu, '');
    return digits.length < MASKED_FROM_DIGITS ? found : maskAccountNumber(digits);
  });

/** Free text as a log line or a notice may show it: URLs without their secrets, account numbers masked. */
export const showable = (text: string): string => maskDigitRuns(redactUrls(text));

/** A line for the person at the terminal, on stderr beside the logs, `showable` as a log line is (a file's path may hold an account number). */
export const notice = (message: string): void => void process.stderr.write(`${showable(message)}\n`);

/** Plain objects and arrays of a log line, their strings made `showable` (errors have their own serializer). */
function showableValues(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return showable(value);
  if (depth > 3 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => showableValues(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, showableValues(item, depth + 1)]));
}

/** `014:0012345678` -> `014:******5678`. */
export function maskAccountKey(accountKey: string): string {
  const separator = accountKey.indexOf(':');
  return `${accountKey.slice(0, separator)}:${maskAccountNumber(accountKey.slice(separator + 1))}`;
}
