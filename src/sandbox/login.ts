import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, parseFields, readBody, sendJson } from './http-io.js';
import { pause, type SandboxState } from './state.js';

export async function handleLogin(state: SandboxState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const text = await readBody(req);
  if (!(await pause(state.knobs.loginLatencyMs, state.shutdown))) return;

  const failure = state.knobs.loginFailure;
  if (failure) {
    state.stats.bump('failedLogins');
    if (failure === 'server_error') sendJson(res, 500, { error: true, message: 'Server Error' });
    else sendJson(res, 503, { error: true, message: 'Service Unavailable' });
    return;
  }

  let fields: Record<string, unknown> | null;
  try {
    fields = parseFields(req, text);
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    state.stats.bump('failedLogins');
    sendJson(res, err.statusCode, { error: true, message: err.message });
    return;
  }

  const { username, password } = state.credentials;
  if (fields?.username !== username || fields?.password !== password) {
    state.stats.bump('failedLogins');
    // Shape copied from the provider's docs: no `error` field, on purpose.
    sendJson(res, 401, { status: 'error', message: 'Invalid username or password', data: null });
    return;
  }

  const issued = state.tokens.issue(username, state.knobs.tokenLifetimeSeconds);
  state.stats.bump('logins');
  sendJson(res, 200, {
    error: false,
    message: 'Login success',
    data: { access_token: issued.token, token_type: 'bearer', expires_in: issued.expiresIn },
  });
}
