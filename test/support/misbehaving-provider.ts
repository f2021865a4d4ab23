import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One inquiry as the provider received it. */
export interface ReceivedInquiry {
  bankCode: string;
  accountNumber: string;
  /** The bearer token it carried. */
  token: string;
}

/** How the provider answers one inquiry: write the answer on `response` (or never, to hang). */
export type InquiryHandler = (inquiry: ReceivedInquiry, response: ServerResponse) => void;

export interface MisbehavingProvider {
  url: string;
  /** Logins answered and inquiries received, per `bank:account` too. */
  counts: { logins: number; inquiries: number; byAccount: Record<string, number> };
  /** Replaces how inquiries are answered from now on. */
  answerWith(handler: InquiryHandler): void;
  /** Logins from now on are never answered (true) or answered with a token again (false). */
  hangLogins(hang: boolean): void;
  close(): Promise<void>;
}

/** A well-formed SUCCESS answer echoing what was asked, with `holderName`. */
export function answerSuccess(
  response: ServerResponse,
  inquiry: ReceivedInquiry,
  holderName = 'BUDI SANTOSO',
  extra: Record<string, unknown> = {},
): void {
  sendJson(response, 200, {
    error: false,
    message: 'Inquiry success',
    data: {
      id: 1,
      bank_code: inquiry.bankCode,
      account_number: inquiry.accountNumber,
      account_holder: holderName,
      status: 'SUCCESS',
      updated_at: '2026-11-21T06:52:03.123456Z',
      name: 'BANK CENTRAL ASIA',
      fee: '6500',
      ...extra,
    },
  });
}

export function sendJson(response: ServerResponse, statusCode: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(statusCode, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** An unsigned JWT whose claims are `claims` (the client only reads them). */
export const unsignedJwt = (claims: Record<string, unknown>): string =>
  ['{"alg":"HS256","typ":"JWT"}', JSON.stringify(claims)]
    .map((part) => Buffer.from(part).toString('base64url'))
    .concat('signature')
    .join('.');

/**
 * A small provider over real HTTP for the faults the emulator cannot make: it logs in like the documented
 * provider (a JWT with `iat`/`exp` from its own clock, `expires_in` 3600) and answers inquiries the way the
 * test says (by default, SUCCESS for whatever was asked).
 */
export async function startMisbehavingProvider(
  handler: InquiryHandler = (inquiry, response) => answerSuccess(response, inquiry),
): Promise<MisbehavingProvider> {
  let answer = handler;
  let loginsHang = false;
  const counts = { logins: 0, inquiries: 0, byAccount: {} as Record<string, number> };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/api/login') {
        counts.logins += 1;
        if (loginsHang) return;
        const iat = Math.floor(Date.now() / 1000);
        const token = unsignedJwt({ sub: 'client', iat, exp: iat + 3600, n: counts.logins });
        return sendJson(response, 200, {
          error: false,
          message: 'Login success',
          data: { access_token: token, token_type: 'bearer', expires_in: 3600 },
        });
      }
      let fields: Record<string, unknown> = {};
      try {
        fields = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // An inquiry without a JSON body is answered like any other: the handler decides.
      }
      const inquiry: ReceivedInquiry = {
        bankCode: String(fields.bank_code ?? ''),
        accountNumber: String(fields.account_number ?? ''),
        token: (request.headers.authorization ?? '').replace(/^Bearer /, ''),
      };
      counts.inquiries += 1;
      const key = `${inquiry.bankCode}:${inquiry.accountNumber}`;
      counts.byAccount[key] = (counts.byAccount[key] ?? 0) + 1;
      answer(inquiry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    answerWith: (next) => (answer = next),
    hangLogins: (hang) => (loginsHang = hang),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
