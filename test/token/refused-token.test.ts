import { createServer, type Server } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, runCli } from '../support/cli.js';
import { deleteKeys, testKeyPrefix, testRedis, TEST_REDIS_URL } from '../support/redis.js';

/**
 * A provider that logs in fine but refuses every token on the inquiry: the emulator cannot do that,
 * so this test has its own small HTTP server.
 */
const counts = { logins: 0, inquiries: 0 };
let server: Server;
let url: string;
const prefix = testKeyPrefix();
const redis = testRedis();

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/api/login') {
        counts.logins += 1;
        response.end(
          JSON.stringify({
            error: false,
            message: 'Login success',
            data: { access_token: `opaque-${counts.logins}`, token_type: 'bearer', expires_in: 3600 },
          }),
        );
      } else {
        counts.inquiries += 1;
        response.statusCode = 401;
        response.end(JSON.stringify({ error: true, message: 'Unauthenticated.' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('a provider that refuses fresh tokens', () => {
  it('stops run with exit 1 and the reason after one refresh, without a FAILED row per account', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'bc-refused-'));
    const file = join(directory, 'one.csv');
    await writeFile(file, 'bank_code,account_number,name\n014,0012345678,Budi Santoso\n');
    const result = await runCli(
      ['run', file, '--out', join(directory, 'out.csv')],
      cliEnvironment({ REDIS_URL: TEST_REDIS_URL, BC_KEY_PREFIX: prefix, H2H_BASE_URL: url, H2H_USERNAME: 'u', H2H_PASSWORD: 'p' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the provider refused a freshly issued token (HTTP 401: Unauthenticated.)');
    expect(counts).toEqual({ logins: 2, inquiries: 2 });
  });
});
