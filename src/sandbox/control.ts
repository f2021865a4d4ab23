import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, parseFields, readBody, sendEmpty, sendJson } from './http-io.js';
import { toAccount } from './accounts.js';
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
    case 'POST accounts': {
      // {"accounts": [{"bank_code", "account_number", "account_holder", "status"?, "behaviour"?}]}: added or replaced.
      let accounts;
      try {
        const body = parseFields(req, await readBody(req)) ?? {};
        if (!Array.isArray(body.accounts))
          throw new Error('the body needs "accounts": a list of {bank_code, account_number, account_holder, status?, behaviour?}');
        accounts = (body.accounts as unknown[]).map((record, index) => toAccount(asRecord(record), `accounts[${index}]`));
      } catch (err) {
        const status = err instanceof BodyError ? err.statusCode : 400;
        sendJson(res, status, { error: true, message: err instanceof Error ? err.message : String(err) });
        return true;
      }
      server.upsertAccounts(accounts);
      sendJson(res, 200, { accounts: accounts.length });
      return true;
    }
    case 'POST reset-stats':
      server.resetStats();
      sendEmpty(res, 204);
      return true;
    default:
      return false;
  }
}

/** A JSON object's string values, as a fixture CSV row would give them. */
function asRecord(value: unknown): Record<string, string | undefined> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('each account must be an object');
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, typeof field === 'string' ? field : undefined]));
}
