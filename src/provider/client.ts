import type { ProviderSettings } from '../config/index.js';
import type { AccountQuery } from '../csv/validation.js';
import { TokenRejectedError } from '../errors.js';
import { classifyInquiryResponse, type InquiryClassification } from './classify.js';
import { describeNetworkError, type HttpClient, isNetworkError } from './http.js';
import type { SharedTokenSession } from './token.js';

export type InquiryDecision = Exclude<InquiryClassification, { kind: 'unauthorized' }>;

/** Told around each HTTP call of an inquiry. */
export interface SendHooks {
  /** Waits for this call's turn (the shared pacing); comes before the token is read. */
  waitForTurn(): Promise<void>;
  /** The call goes out now, with a token: the batch counts what it spent, and only that. */
  onSend(): Promise<void>;
  /** The call has been written to a connection: it left the process (the pacer's record moves here when late). */
  onWritten(): void;
}

/**
 * The provider's inquiry with the shared token: a 401 drops the token that failed, fetches a fresh one
 * once and asks again; a 401 on the fresh one is systemic (TokenRejectedError), never a row result.
 */
export class ProviderClient {
  constructor(
    private readonly http: HttpClient,
    private readonly provider: ProviderSettings,
    private readonly session: SharedTokenSession,
  ) {}

  async inquire(account: AccountQuery, hooks: SendHooks): Promise<InquiryDecision> {
    for (let attempt = 0; ; attempt += 1) {
      // The turn comes first: a token taken before a long wait for a send slot could expire meanwhile.
      await hooks.waitForTurn();
      const token = await this.session.token();
      await hooks.onSend();
      const classification = await this.send(account, token, hooks);
      if (classification.kind !== 'unauthorized') return classification;
      // The second 401 in a row came with a token fetched after the first: fresh tokens are refused.
      if (attempt > 0) {
        const error = new TokenRejectedError(`the provider refused a freshly issued token (HTTP 401: ${classification.message})`);
        await this.session.recordFailure(error);
        throw error;
      }
      await this.session.invalidate(token);
    }
  }

  private async send(account: AccountQuery, token: string, hooks: SendHooks): Promise<InquiryClassification> {
    try {
      const answer = await this.http.post(
        `${this.provider.baseUrl}/api/transfer/inquiry`,
        { json: { bank_code: account.bankCode, account_number: account.accountNumber } },
        { authorization: `Bearer ${token}` },
        () => hooks.onWritten(),
      );
      const retryAfter = answer.headers['retry-after'];
      return classifyInquiryResponse(account, {
        statusCode: answer.statusCode,
        body: answer.body,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      });
    } catch (error) {
      if (isNetworkError(error)) return { kind: 'transient', reason: describeNetworkError(error) };
      throw error;
    }
  }
}
