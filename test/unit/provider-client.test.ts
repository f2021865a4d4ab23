import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { LoginUnavailableError } from '../../src/errors.js';
import { ProviderClient } from '../../src/provider/client.js';
import type { HttpClient } from '../../src/provider/http.js';
import type { SharedTokenSession } from '../../src/provider/token.js';

const provider = { ...loadConfig({}, { H2H_BASE_URL: 'http://provider.invalid', H2H_USERNAME: 'u', H2H_PASSWORD: 'p' }).provider };
const SUCCESS = {
  error: false,
  message: 'ok',
  data: { id: 'inq-1', bank_code: '014', account_number: '0012345678', account_holder: 'BUDI SANTOSO', name: 'BCA', fee: '6500', status: 'SUCCESS', updated_at: '2026-11-22T02:00:00.000000Z' },
};

/** An HTTP client that answers every inquiry with `statusCodes` in turn, recording the tokens sent. */
function fakeHttp(statusCodes: number[]) {
  const tokens: string[] = [];
  const http: HttpClient = {
    post: async (_url, _body, headers = {}) => {
      tokens.push(headers.authorization!);
      const statusCode = statusCodes.shift() ?? 200;
      return { statusCode, body: statusCode === 200 ? SUCCESS : { message: 'Unauthorized' }, headers: {} };
    },
  };
  return { http, tokens };
}

/** A session holding one token at a time: a refused token is replaced by the next fresh one; an Error is login trouble. */
function fakeSession(tokens: Array<string | Error>) {
  const invalidated: string[] = [];
  let current = tokens.shift()!;
  const session = {
    token: async () => {
      if (current instanceof Error) throw current;
      return current;
    },
    invalidate: async (token: string) => {
      invalidated.push(token);
      if (token === current) current = tokens.shift()!;
    },
    recordFailure: async () => undefined,
  };
  return { session: session as unknown as SharedTokenSession, invalidated };
}

const ACCOUNT = { bankCode: '014', accountNumber: '0012345678' };

describe('ProviderClient.inquire', () => {
  it('counts a call only when it is sent: login trouble (also after the wait for a turn) makes no call and counts none', async () => {
    const { http, tokens } = fakeHttp([]);
    const { session } = fakeSession([new LoginUnavailableError('provider answered HTTP 503')]);
    let counted = 0;
    const hooks = { waitForTurn: async () => undefined, onSend: async () => void (counted += 1) };
    await expect(new ProviderClient(http, provider, session).inquire(ACCOUNT, hooks)).rejects.toThrow(LoginUnavailableError);
    expect(counted).toBe(0);
    expect(tokens).toEqual([]);
  });

  it('a 401 drops the refused token and asks once more with a fresh one: two calls, two counted', async () => {
    const { http, tokens } = fakeHttp([401, 200]);
    const { session, invalidated } = fakeSession(['old', 'fresh']);
    let counted = 0;
    const hooks = { waitForTurn: async () => undefined, onSend: async () => void (counted += 1) };
    const decision = await new ProviderClient(http, provider, session).inquire(ACCOUNT, hooks);
    expect(decision.kind).toBe('answer');
    expect(invalidated).toEqual(['old']);
    expect(tokens).toEqual(['Bearer old', 'Bearer fresh']);
    expect(counted).toBe(2);
  });
});
