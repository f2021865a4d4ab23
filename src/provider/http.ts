import diagnostics from 'node:diagnostics_channel';
import { Agent, errors, request } from 'undici';
import { timerDelay } from '../clock/clock.js';

/** One reply of the provider (docs/development.md, "Glossary"): whatever its status. */
export interface HttpReply {
  statusCode: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export type PostBody = { json: Record<string, string> } | { form: Record<string, string> };

/** The provider's transport: one POST, one reply. */
export interface HttpClient {
  /** `onWritten`: called once the request has been written to a connection (after connecting, when it needed one). */
  post(url: string, body: PostBody, headers?: Record<string, string>, onWritten?: () => void): Promise<HttpReply>;
}

/** No complete answer (headers and body) came within the request timeout. */
export class NoAnswerError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within the timeout (${timeoutMs} ms, H2H_TIMEOUT)`);
    this.name = 'NoAnswerError';
  }
}

/**
 * The most of an answer that is read (64 KB). An inquiry or login answer is a few hundred bytes; a body past
 * this is a provider (or proxy) error, and reading it would only fill memory: 300 MB answers took `run` to
 * 3 GB. The connection is dropped as soon as it is known (a Content-Length above it, or the byte past it).
 */
export const MAX_ANSWER_BYTES = 64 * 1024;

export class AnswerTooLargeError extends Error {
  constructor() {
    super(
      `the provider's answer is larger than ${MAX_ANSWER_BYTES / 1024} KB, where an inquiry or login answer is a few hundred bytes: a provider or proxy error; the rest was not read (connection dropped)`,
    );
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * A keep-alive HTTP client (undici) that never throws on an HTTP status and never retries by itself:
 * statuses are classified by the caller, and retries belong to the queue so that they respect the
 * global rate. undici, not got: on the inquiry hot path got cost about 620 µs of CPU per request
 * against about 180 µs for undici (bench: the same emulator, 20k requests at 64 in flight), and at
 * 500 calls a second on two cores that difference is the rate. `timeoutMs` bounds the whole request,
 * from sending to the last byte of the answer; MAX_ANSWER_BYTES bounds the answer.
 */
export function createHttpClient(timeoutMs: number): HttpClient {
  // undici drops the connection at the byte past the bound (ResponseExceededMaxSizeError), as it reads.
  const dispatcher = new Agent({ maxResponseSize: MAX_ANSWER_BYTES });
  return {
    async post(url, body, headers = {}, onWritten) {
      const [contentType, payload] =
        'json' in body
          ? ['application/json', JSON.stringify(body.json)]
          : ['application/x-www-form-urlencoded', new URLSearchParams(body.form).toString()];
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new NoAnswerError(timeoutMs)), timerDelay(timeoutMs));
      try {
        const response = await toldWhenWritten(onWritten, () =>
          request(url, {
            method: 'POST',
            dispatcher,
            signal: deadline.signal,
            body: payload,
            headers: { accept: 'application/json', 'user-agent': 'beneficiary-check', 'content-type': contentType, ...headers },
          }),
        );
        if (Number(response.headers['content-length']) > MAX_ANSWER_BYTES) {
          const error = new AnswerTooLargeError();
          deadline.abort(error);
          throw error;
        }
        const text = await response.body.text().catch((error: unknown) => {
          throw error instanceof errors.ResponseExceededMaxSizeError ? new AnswerTooLargeError() : error;
        });
        return { statusCode: response.statusCode, body: parseJson(text), headers: response.headers };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * When a request leaves: undici publishes the creation of its request object synchronously inside
 * `request()` (so `creating` names whose it is) and the writing of its headers when a connection takes
 * it, which can be much later: a new connection first connects (and, with TLS, shakes hands).
 */
let creating: (() => void) | undefined;
const onWrittenOf = new WeakMap<object, () => void>();
diagnostics.subscribe('undici:request:create', (message) => {
  if (creating !== undefined) onWrittenOf.set((message as { request: object }).request, creating);
});
diagnostics.subscribe('undici:client:sendHeaders', (message) => onWrittenOf.get((message as { request: object }).request)?.());

function toldWhenWritten<T>(onWritten: (() => void) | undefined, start: () => T): T {
  creating = onWritten;
  try {
    return start();
  } finally {
    creating = undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** undici's errors that mean the request itself was wrong (a bug here), not that the network failed. */
const MISUSE_ERRORS = [errors.InvalidArgumentError, errors.InvalidReturnValueError, errors.NotSupportedError];

/**
 * A failure of the network or of the provider's connection (timeout, refused, reset, TLS), which may
 * pass: undici's own errors, Node's socket and TLS errors (they carry a string `code`), the request
 * timeout and an answer too large to read. A TypeError, a RangeError or a misuse of undici is a bug, never an outage.
 */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof NoAnswerError || error instanceof AnswerTooLargeError) return true;
  if (error instanceof errors.UndiciError) return !MISUSE_ERRORS.some((misuse) => error instanceof misuse);
  return (
    error instanceof Error &&
    !(error instanceof TypeError) &&
    !(error instanceof RangeError) &&
    typeof (error as NodeJS.ErrnoException).code === 'string'
  );
}

/** A short description of a network-level failure (timeout, refused, reset), without the request's headers. */
export function describeNetworkError(error: unknown): string {
  if (error instanceof NoAnswerError || error instanceof AnswerTooLargeError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
