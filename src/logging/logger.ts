import { pino, type Logger, type DestinationStream } from 'pino';

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

/** Logs go to stderr, so that stdout stays for what a command prints as its result (batch id, summary). */
export function createLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { pid: process.pid } }, destination);
}

/** Account numbers never reach a log line in full: the last four digits are enough to find a row. */
export function maskAccountNumber(accountNumber: string): string {
  const visible = accountNumber.slice(-4);
  return `${'*'.repeat(Math.max(accountNumber.length - visible.length, 2))}${visible}`;
}

/** `014:0012345678` -> `014:******5678`. */
export function maskAccountKey(accountKey: string): string {
  const separator = accountKey.indexOf(':');
  return `${accountKey.slice(0, separator)}:${maskAccountNumber(accountKey.slice(separator + 1))}`;
}
