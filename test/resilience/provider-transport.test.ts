import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { errors } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnswerTooLargeError,
  createHttpClient,
  describeNetworkError,
  isNetworkError,
  MAX_ANSWER_BYTES,
  NoAnswerError,
} from '../../src/provider/http.js';

/**
 * The provider transport over real sockets: what it sends, what it gives back whatever the status, and
 * which failures are the network's (a transient row, retried by the queue) rather than a bug.
 */
const run = promisify(execFile);
const servers: Server[] = [];
let workDir: string;

interface Received {
  method: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const scheme = 'cert' in server ? 'https' : 'http';
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server that records each request and answers it with `answer`. */
async function provider(answer: (received: Received, res: ServerResponse) => void): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createHttpServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method, headers: req.headers, body };
      received.push(request);
      answer(request, res);
    });
  });
  return { url: await listen(server), received };
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'bc-transport-'));
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    join(workDir, 'key.pem'),
    '-out',
    join(workDir, 'cert.pem'),
  ]);
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('provider transport', () => {
  it('posts JSON with the given headers and returns the parsed answer of any status, with its headers', async () => {
    const { url, received } = await provider((_request, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
      res.end(JSON.stringify({ error: true, message: 'Too Many Attempts.' }));
    });
    const answer = await createHttpClient(5_000).post(
      `${url}/api/transfer/inquiry`,
      { json: { bank_code: '014', account_number: '0012345678' } },
      { authorization: 'Bearer T' },
    );
    expect(answer).toMatchObject({ statusCode: 429, body: { error: true, message: 'Too Many Attempts.' } });
    expect(answer.headers['retry-after']).toBe('2');
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    expect(JSON.parse(received[0]!.body)).toEqual({ bank_code: '014', account_number: '0012345678' });
    expect(received[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer T',
      accept: 'application/json',
      'user-agent': 'beneficiary-check',
    });
  });

  it('posts a form body as application/x-www-form-urlencoded', async () => {
    const { url, received } = await provider((_request, res) => res.end(JSON.stringify({ data: { access_token: 'A' } })));
    const answer = await createHttpClient(5_000).post(`${url}/api/login`, { form: { username: 'ops user', password: 'p&ss=1' } });
    expect(answer).toMatchObject({ statusCode: 200, body: { data: { access_token: 'A' } } });
    expect(received[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ username: 'ops user', password: 'p&ss=1' });
  });

  it('gives an answer that is not JSON (a proxy error page) as an undefined body, not an error', async () => {
    const { url } = await provider((_request, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
    });
    expect(await createHttpClient(5_000).post(url, { json: {} })).toMatchObject({ statusCode: 502, body: undefined });
  });

  it('reuses one connection for calls one after another (keep-alive)', async () => {
    const { url, received } = await provider((_request, res) => res.end('{}'));
    let connections = 0;
    servers.at(-1)!.on('connection', () => (connections += 1));
    const http = createHttpClient(5_000);
    for (let call = 0; call < 50; call += 1) await http.post(url, { json: {} });
    expect(received).toHaveLength(50);
    // undici's pool may open a second connection while the first answer is being released; never one per call.
    expect(connections).toBeLessThanOrEqual(2);
  });

  it('tells each call when it was written to a connection: once, before its answer, never for a call that could not connect', async () => {
    const { url, received } = await provider((request, res) => res.end(request.body));
    const http = createHttpClient(5_000);
    const written: number[] = [];
    const answers = await Promise.all(
      [0, 1, 2, 3, 4].map(async (call) => {
        const answer = await http.post(url, { json: { call: String(call) } }, {}, () => written.push(call));
        // Written before answered: by now this call's own callback has run, once.
        expect(written.filter((each) => each === call)).toHaveLength(1);
        return answer.body;
      }),
    );
    expect(answers).toEqual([0, 1, 2, 3, 4].map((call) => ({ call: String(call) })));
    expect(received).toHaveLength(5);
    expect([...written].sort()).toEqual([0, 1, 2, 3, 4]);
    // A call without a callback, and one that is refused, call nobody.
    await http.post(url, { json: {} });
    const closed = createHttpServer();
    const closedUrl = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const refused = await http.post(closedUrl, { json: {} }, {}, () => written.push(99)).catch((failure: unknown) => failure);
    expect(isNetworkError(refused)).toBe(true);
    expect(written).toHaveLength(5);
  });

  it('ends a request that gets no answer at the timeout, as a network failure that says so', async () => {
    const { url } = await provider(() => undefined);
    const error = await createHttpClient(200)
      .post(url, { json: {} })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(NoAnswerError);
    expect(isNetworkError(error)).toBe(true);
    expect(describeNetworkError(error)).toBe('no answer within the timeout (200 ms, H2H_TIMEOUT)');
  });

  it('bounds the whole request: an answer whose body stops half-way times out too', async () => {
    const { url } = await provider((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"error":false,');
    });
    const error = await createHttpClient(200)
      .post(url, { json: {} })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(NoAnswerError);
  });

  it.each([
    ['streamed', false],
    ['declared in Content-Length', true],
  ])(
    'drops an answer larger than MAX_ANSWER_BYTES (%s) without reading it: a network failure that says so; one at the limit is read',
    async (_, declared) => {
      const huge = 32 * 1024 * 1024;
      let written = 0;
      const { url } = await provider((request, res) => {
        if (request.body === '{"size":"limit"}') return res.end(`"${'x'.repeat(MAX_ANSWER_BYTES - 2)}"`);
        res.writeHead(200, { 'content-type': 'application/json', ...(declared && { 'content-length': String(huge) }) });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed && written < huge) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      });
      const http = createHttpClient(10_000);
      const error = await http.post(url, { json: {} }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(AnswerTooLargeError);
      expect(isNetworkError(error)).toBe(true);
      expect(describeNetworkError(error)).toBe(
        "the provider's answer is larger than 64 KB, where an inquiry or login answer is a few hundred bytes: a provider or proxy error; the rest was not read (connection dropped)",
      );
      // What got out is what the socket buffers took before the drop, not the 32 MB.
      expect(written).toBeLessThan(huge / 4);
      expect((await http.post(url, { json: { size: 'limit' } })).body).toHaveLength(MAX_ANSWER_BYTES - 2);
    },
  );

  it('sees a refused connection and a reset one as network failures, named by their code', async () => {
    const closed = createHttpServer();
    const closedUrl = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const refused = await createHttpClient(5_000)
      .post(closedUrl, { json: {} })
      .catch((failure: unknown) => failure);
    expect(isNetworkError(refused)).toBe(true);
    expect(describeNetworkError(refused)).toContain('ECONNREFUSED');

    const { url } = await provider((_request, res) => res.socket?.destroy());
    const reset = await createHttpClient(5_000)
      .post(url, { json: {} })
      .catch((failure: unknown) => failure);
    expect(isNetworkError(reset)).toBe(true);
    expect(describeNetworkError(reset)).not.toContain('Bearer');
  });

  it('refuses a provider whose certificate is not trusted, as a network failure naming the reason', async () => {
    const server = createHttpsServer(
      { key: await readFile(join(workDir, 'key.pem')), cert: await readFile(join(workDir, 'cert.pem')) },
      (_req, res) => res.end('{}'),
    );
    const url = await listen(server);
    const error = await createHttpClient(5_000)
      .post(url, { json: {} })
      .catch((failure: unknown) => failure);
    expect(isNetworkError(error)).toBe(true);
    expect(describeNetworkError(error)).toContain('SELF_SIGNED');
  });

  it('talks HTTPS to a provider whose certificate authority is trusted (NODE_EXTRA_CA_CERTS)', async () => {
    const server = createHttpsServer(
      { key: await readFile(join(workDir, 'key.pem')), cert: await readFile(join(workDir, 'cert.pem')) },
      (_req, res) => res.end('{"error":false}'),
    );
    const url = await listen(server);
    // The CA store is read when a process starts: a child process with the certificate trusted.
    const transport = fileURLToPath(new URL('../../dist/src/provider/http.js', import.meta.url));
    const script = `const { createHttpClient } = await import(${JSON.stringify(transport)}); const answer = await createHttpClient(5000).post(${JSON.stringify(url)}, { json: {} }); console.log(JSON.stringify(answer.body));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: join(workDir, 'cert.pem') },
    });
    expect(JSON.parse(stdout)).toEqual({ error: false });
  });

  it('sees a programming error as a bug, never as the network', () => {
    expect(isNetworkError(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isNetworkError(new errors.InvalidArgumentError('invalid method'))).toBe(false);
    expect(isNetworkError(new Error('plain bug'))).toBe(false);
    expect(isNetworkError(new errors.SocketError('other side closed'))).toBe(true);
  });
});
