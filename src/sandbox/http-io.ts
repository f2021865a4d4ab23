import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;

export class BodyError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyError(413, 'Request body too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Both JSON and form-encoded bodies are seen from real clients of the provider, so both are accepted.
 * Returns null for an empty body; throws BodyError(400) for a body that is not what it claims to be.
 */
export function parseFields(req: IncomingMessage, text: string): Record<string, unknown> | null {
  if (text.trim() === '') return null;
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyError(400, 'Malformed JSON body.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BodyError(400, 'Request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

export function sendJson(res: ServerResponse, statusCode: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  const payload = JSON.stringify(body);
  res.writeHead(statusCode, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

export function sendEmpty(res: ServerResponse, statusCode: number): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(statusCode);
  res.end();
}

export function sendText(res: ServerResponse, statusCode: number, contentType: string, body: string): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(statusCode, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
