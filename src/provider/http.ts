import got, { type Got, RequestError } from 'got';

export interface HttpAnswer {
  statusCode: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A got instance that never throws on an HTTP status and never retries by itself: statuses are
 * classified by the caller, and retries belong to the queue so that they respect the global rate.
 */
export function createHttpClient(timeoutMs: number): Got {
  return got.extend({
    timeout: { request: timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    responseType: 'text',
    headers: { accept: 'application/json', 'user-agent': 'beneficiary-check' },
  });
}

export type PostBody = { json: Record<string, string> } | { form: Record<string, string> };

export async function postForAnswer(http: Got, url: string, body: PostBody, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const response = await http.post(url, { ...body, headers });
  return { statusCode: response.statusCode, body: parseJson(response.body), headers: response.headers };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A short description of a network-level failure (timeout, refused, reset), without the request's headers. */
export function describeNetworkError(error: unknown): string {
  if (error instanceof RequestError) {
    return error.code === 'ETIMEDOUT' ? `no answer within the timeout (${error.message})` : `${error.code}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export const isNetworkError = (error: unknown): boolean => error instanceof RequestError;
