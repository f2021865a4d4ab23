import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, parseFields, readBody, sendEmpty, sendJson } from './http-io.js';
import { validateKnobs } from './knobs.js';
import type { SandboxServer } from './types.js';

export const CONTROL_PREFIX = '/__sandbox/';

/**
 * Not part of the provider: lets demos and tests drive an emulator running in another process.
 * Returns false when the path is not a control route.
 */
export async function handleControl(
  server: Omit<SandboxServer, 'url' | 'port' | 'close'> & { knobs(): unknown },
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<boolean> {
  const route = `${req.method ?? ''} ${path.slice(CONTROL_PREFIX.length)}`;
  switch (route) {
    case 'GET stats':
      sendJson(res, 200, server.stats());
      return true;
    case 'GET knobs':
      sendJson(res, 200, server.knobs());
      return true;
    case 'POST knobs': {
      let changes;
      try {
        changes = validateKnobs(parseFields(req, await readBody(req)) ?? {});
      } catch (err) {
        const status = err instanceof BodyError ? err.statusCode : 400;
        sendJson(res, status, { error: true, message: err instanceof Error ? err.message : String(err) });
        return true;
      }
      server.setKnobs(changes);
      sendEmpty(res, 204);
      return true;
    }
    case 'POST revoke-tokens':
      server.revokeAllTokens();
      sendEmpty(res, 204);
      return true;
    case 'POST reset-stats':
      server.resetStats();
      sendEmpty(res, 204);
      return true;
    default:
      return false;
  }
}
