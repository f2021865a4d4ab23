import type { ProviderSettings } from '../config/index.js';
import type { AccountQuery } from '../csv/validation.js';
import { TokenRejectedError } from '../errors.js';
import { maskAccountKey } from '../logging/logger.js';
import { classifyInquiryResponse, type InquiryClassification } from './classify.js';
import { describeNetworkError, type HttpClient, isNetworkError } from './http.js';
import type { SharedTokenSession } from './token.js';

/**
 * What `inquire` returns: a classification of the reply (docs/development.md, "Glossary") once the client has
 * dealt with `unauthorized` itself (a fresh token, asked once more). Not a "decision": that is a person's.
 */
export type ClientClassification = Exclude<InquiryClassification, { kind: 'unauthorized' }>;

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
 * once and asks again. A second 401 is about the account when the provider accepts one of the two tokens
 * for other accounts (a bank these credentials may not ask about): the row is FAILED saying so. Otherwise
 * the provider refuses fresh tokens: systemic (TokenRejectedError, naming the batch and the masked account
 * that met it), never a row result.
 */
export class ProviderClient {
  constructor(
    private readonly http: HttpClient,
    private readonly provider: ProviderSettings,
    private readonly session: SharedTokenSession,
    /** Told each decision's latency: from the call going out (after its turn and the token) to its classified answer. */
    private readonly observeLatency: (seconds: number, kind: ClientClassification['kind']) => void = () => undefined,
  ) {}

  /** `batchId`: the batch the account is asked for, named when its refusal stops that batch. */
  async inquire(account: AccountQuery, hooks: SendHooks, batchId?: string): Promise<ClientClassification> {
    let refused: string | undefined;
    for (;;) {
      // The turn comes first: a token taken before a long wait for a send slot could expire meanwhile.
      await hooks.waitForTurn();
      const token = await this.session.token();
      await hooks.onSend();
      const sentAt = performance.now();
      const classification = await this.send(account, token, hooks);
      const latency = (performance.now() - sentAt) / 1000;
      if (classification.kind === 'answer' && classification.unusable !== true) this.session.accepted(token);
      if (classification.kind !== 'unauthorized') {
        this.observeLatency(latency, classification.kind);
        return classification;
      }
      if (refused === undefined) {
        refused = token;
        await this.session.invalidate(token);
        continue;
      }
      // The second 401 in a row came with a token fetched after the first.
      if (this.session.wasAccepted(refused) || this.session.wasAccepted(token)) {
        this.observeLatency(latency, 'answer');
        return {
          kind: 'answer',
          unusable: true,
          outcome: {
            verdict: 'FAILED',
            reason: `the provider answered HTTP 401 (${classification.message}) for this account with a fresh token too, while it answers other accounts with the same tokens: ask the provider whether these credentials may check this account's bank`,
          },
        };
      }
      const error = new TokenRejectedError(
        `the provider refused a freshly issued token (HTTP 401: ${classification.message}) for account ${maskAccountKey(`${account.bankCode}:${account.accountNumber}`)}${batchId === undefined ? '' : ` of batch ${batchId}`}`,
      );
      await this.session.recordFailure(error, batchId);
      throw error;
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
      return classifyInquiryResponse(account, {
        statusCode: answer.statusCode,
        body: answer.body,
        retryAfter: firstHeader(answer.headers['retry-after']),
        contentType: firstHeader(answer.headers['content-type']),
      });
    } catch (error) {
      if (isNetworkError(error)) return { kind: 'transient', reason: describeNetworkError(error) };
      throw error;
    }
  }
}

const firstHeader = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
