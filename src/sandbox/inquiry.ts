import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, parseFields, readBody, sendJson, sendText } from './http-io.js';
import { answerInquiry } from './inquiry-answer.js';
import { pause, type SandboxState } from './state.js';

const BAD_GATEWAY_HTML = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>\n';
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export async function handleInquiry(state: SandboxState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const now = Date.now();
  state.stats.inquiryReceived(now);

  const retryAfter = rateLimitRetryAfter(state, now);
  if (retryAfter !== null) {
    state.stats.bump('rateLimited');
    sendJson(res, 429, { error: true, message: 'Too Many Attempts.' }, { 'retry-after': String(retryAfter) });
    return;
  }

  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !state.tokens.isValid(token)) {
    state.stats.bump('unauthorized');
    sendJson(res, 401, { error: true, message: 'Unauthenticated.' });
    return;
  }

  let fields: Record<string, unknown> | null = null;
  let bodyError: BodyError | null = null;
  try {
    fields = parseFields(req, await readBody(req));
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    bodyError = err;
  }

  if (injectFault(state, res)) return;

  const { min, max } = state.knobs.latencyMs;
  if (!(await pause(min + state.random() * (max - min), state.shutdown))) return;

  if (bodyError) {
    sendJson(res, bodyError.statusCode, { error: true, message: bodyError.message });
    return;
  }
  const answer = answerInquiry(state, fields);
  state.stats.inquiryAnswered(answer.accountKey);
  sendJson(res, 200, answer.body);
}

/** Seconds until the window admits again, or null when this request is admitted (and recorded). */
function rateLimitRetryAfter(state: SandboxState, now: number): number | null {
  const limit = state.knobs.rateLimit;
  const window = state.limiter;
  if (!limit || !window) return null;
  if (window.count(now) < limit.max) {
    window.add(now);
    return null;
  }
  return Math.max(1, Math.ceil(window.msUntilOldestExpires(now) / 1000));
}

/** Returns true when the request was taken over by a fault (hang or 5xx). */
function injectFault(state: SandboxState, res: ServerResponse): boolean {
  // Both draws happen every time so a seeded run stays reproducible whatever the rates are.
  const hangDraw = state.random();
  const errorDraw = state.random();
  if (hangDraw < state.knobs.hangRate) {
    state.stats.bump('hangs');
    state.hung.add(res);
    res.on('close', () => state.hung.delete(res));
    return true;
  }
  if (errorDraw < state.knobs.serverErrorRate) {
    state.stats.bump('serverErrors');
    sendServerError(res, state.random());
    return true;
  }
  return false;
}

function sendServerError(res: ServerResponse, draw: number): void {
  const pick = Math.floor(draw * 3);
  if (pick === 0) sendJson(res, 500, { error: true, message: 'Server Error' });
  // A gateway in front of the provider answers in HTML, as real proxies do; clients must not need JSON here.
  else if (pick === 1) sendText(res, 502, 'text/html', BAD_GATEWAY_HTML);
  else sendJson(res, 503, { error: true, message: 'Service Unavailable' });
}
