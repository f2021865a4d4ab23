import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { LoginUnavailableError, TokenRejectedError } from '../../src/errors.js';
import { ProviderClient } from '../../src/provider/client.js';
import type { HttpClient } from '../../src/provider/http.js';
import type { SharedTokenSession } from '../../src/provider/token.js';

const provider = { ...loadConfig({}, { H2H_BASE_URL: 'http://provider.invalid', H2H_USERNAME: 'u', H2H_PASSWORD: 'p' }).provider };
const SUCCESS = {
  error: false,
  message: 'ok',
  data: {
    id: 'inq-1',
    bank_code: '014',
    account_number: '0012345678',
    account_holder: 'BUDI SANTOSO',
    name: 'BCA',
    fee: '6500',
    status: 'SUCCESS',
    updated_at: '2026-11-22T02:00:00.000000Z',
  },
};

/** An HTTP client that answers every inquiry with `statusCodes` in turn, recording the tokens sent. */
function fakeHttp(statusCodes: number[]) {
  const tokens: string[] = [];
  const http: HttpClient = {
    post: async (_url, _body, headers = {}) => {
      tokens.push(headers.authorization!);
      const statusCode = statusCodes.shift() ?? 200;
      return { statusCode, body: statusCode === 200 ? SUCCESS : { message: 'Unauthenticated.' }, headers: {} };
    },
  };
  return { http, tokens };
}

/**
 * A session holding one token at a time: a refused token is replaced by the next fresh one; an Error is login
 * trouble. `accepted`: tokens the provider answered other accounts with.
 */
function fakeSession(tokens: Array<string | Error>, accepted: string[] = []) {
  const invalidated: string[] = [];
  const failures: Array<{ message: string; batchId: string | undefined }> = [];
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
    accepted: (token: string) => void accepted.push(token),
    wasAccepted: (token: string) => accepted.includes(token),
    recordFailure: async (error: Error, batchId?: string) => void failures.push({ message: error.message, batchId }),
  };
  return { session: session as unknown as SharedTokenSession, invalidated, accepted, failures };
}

const ACCOUNT = { bankCode: '014', accountNumber: '0012345678' };

describe('ProviderClient.inquire', () => {
  it('counts a call only when it is sent: login trouble (also after the wait for a turn) makes no call and counts none', async () => {
    const { http, tokens } = fakeHttp([]);
    const { session } = fakeSession([new LoginUnavailableError('provider answered HTTP 503')]);
    let counted = 0;
    const hooks = { waitForTurn: async () => undefined, onSend: async () => void (counted += 1), onWritten: () => undefined };
    await expect(new ProviderClient(http, provider, session).inquire(ACCOUNT, hooks)).rejects.toThrow(LoginUnavailableError);
    expect(counted).toBe(0);
    expect(tokens).toEqual([]);
  });

  it('a 401 drops the refused token and asks once more with a fresh one: two calls, two counted', async () => {
    const { http, tokens } = fakeHttp([401, 200]);
    const { session, invalidated } = fakeSession(['old', 'fresh']);
    let counted = 0;
    const hooks = { waitForTurn: async () => undefined, onSend: async () => void (counted += 1), onWritten: () => undefined };
    const decision = await new ProviderClient(http, provider, session).inquire(ACCOUNT, hooks);
    expect(decision.kind).toBe('answer');
    expect(invalidated).toEqual(['old']);
    expect(tokens).toEqual(['Bearer old', 'Bearer fresh']);
    expect(counted).toBe(2);
  });

  it('a token that got an answer is remembered as accepted', async () => {
    const { http } = fakeHttp([200]);
    const { session, accepted } = fakeSession(['good']);
    await new ProviderClient(http, provider, session).inquire(ACCOUNT, {
      waitForTurn: async () => undefined,
      onSend: async () => undefined,
      onWritten: () => undefined,
    });
    expect(accepted).toEqual(['good']);
  });

  it('a fresh token refused too, and accepted for no other account: systemic, naming the batch and the masked account', async () => {
    const { http } = fakeHttp([401, 401]);
    const { session, failures } = fakeSession(['old', 'fresh']);
    const hooks = { waitForTurn: async () => undefined, onSend: async () => undefined, onWritten: () => undefined };
    const asking = new ProviderClient(http, provider, session).inquire(ACCOUNT, hooks, 'b20261122-020000-abcdef');
    await expect(asking).rejects.toThrow(TokenRejectedError);
    await expect(asking).rejects.toThrow(
      'the provider refused a freshly issued token (HTTP 401: Unauthenticated.) for account 014:******5678 of batch b20261122-020000-abcdef',
    );
    expect(failures).toEqual([
      { message: expect.stringContaining('of batch b20261122-020000-abcdef'), batchId: 'b20261122-020000-abcdef' },
    ]);
    expect(failures[0]!.message).not.toContain('0012345678');
  });

  it.each([
    ['the token refused first', 'old'],
    ['the fresh token', 'fresh'],
  ])(
    "a 401 for this account with a token the provider answers others with (%s): the account's FAILED row, nothing systemic",
    async (_, acceptedToken) => {
      const { http } = fakeHttp([401, 401]);
      const { session, failures } = fakeSession(['old', 'fresh'], [acceptedToken]);
      const hooks = { waitForTurn: async () => undefined, onSend: async () => undefined, onWritten: () => undefined };
      const decision = await new ProviderClient(http, provider, session).inquire(ACCOUNT, hooks, 'b1');
      expect(decision).toMatchObject({
        kind: 'answer',
        unusable: true,
        outcome: { verdict: 'FAILED', reason: expect.stringContaining('HTTP 401 (Unauthenticated.) for this account') },
      });
      expect(failures).toEqual([]);
    },
  );
});
