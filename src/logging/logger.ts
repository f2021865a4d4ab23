import { pino, type Logger, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';

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
  return { type: error.name, message: error.message, ...(code !== undefined && { code }), stack: error.stack, ...(error.cause !== undefined && { cause: serialiseError(error.cause) }) };
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
    ? pretty({ destination: output.destination ?? 2, sync: true, colorize: process.stderr.isTTY === true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' })
    : (output.destination ?? pino.destination(2));
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { err: serialiseError }, base: { pid: process.pid } },
    stream,
  );
}

/** Account numbers never reach a log line in full: the last four digits are enough to find a row. */
export function maskAccountNumber(accountNumber: string): string {
  const visible = accountNumber.slice(-4);
  return `${'*'.repeat(Math.max(accountNumber.length - visible.length, 2))}${visible}`;
}

/**
 * Runs of 6 or more digits in free text (a message about a file, a cell quoted in a reason, a column the
 * mapping does not know) could be account numbers: masked like every account number.
 */
export const maskDigitRuns = (text: string): string => text.replace(/\d{6,}/g, (digits) => maskAccountNumber(digits));

/** `014:0012345678` -> `014:******5678`. */
export function maskAccountKey(accountKey: string): string {
  const separator = accountKey.indexOf(':');
  return `${accountKey.slice(0, separator)}:${maskAccountNumber(accountKey.slice(separator + 1))}`;
}
