import { describe, expect, it } from 'vitest';
import { describeEndpoint, endpointOf, normaliseBaseAddress } from '../../src/config/endpoint.js';
import { loadConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';
import { inquiryQueueName } from '../../src/queue/inquiry-queue.js';

describe('the endpoint: environment + normalised base address', () => {
  it.each([
    ['https://API.Example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com:443//', 'https://api.example.com'],
    ['HTTP://127.0.0.1:80/h2h/', 'http://127.0.0.1/h2h'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ])('%s is %s', (raw, normalised) => {
    expect(normaliseBaseAddress(raw)).toBe(normalised);
  });

  it('one address written two ways is one queue, hence one endpoint; another environment or address is another', () => {
    const queue = (environment: 'sandbox' | 'production', address: string) =>
      inquiryQueueName(loadConfig({}, { H2H_ENV: environment, H2H_BASE_URL: address }).provider);
    expect(queue('sandbox', 'https://api.example.com/')).toBe(queue('sandbox', 'https://API.EXAMPLE.COM:443'));
    expect(queue('production', 'https://api.example.com')).not.toBe(queue('sandbox', 'https://api.example.com'));
    expect(queue('sandbox', 'https://api.example.com/v2')).not.toBe(queue('sandbox', 'https://api.example.com'));
  });

  it.each(['https://user:secret@api.example.com', 'https://api.example.com/?key=1', 'https://api.example.com/#x'])('refuses %s', (raw) => {
    expect(() => normaliseBaseAddress(raw)).toThrow(ConfigError);
    expect(() => normaliseBaseAddress(raw)).not.toThrow(/secret/);
  });

  it('is named as people read it', () => {
    expect(describeEndpoint(endpointOf({ environment: 'production', baseUrl: 'https://api.example.com' }))).toBe(
      'production https://api.example.com',
    );
    expect(describeEndpoint(endpointOf({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:4000', builtinEmulator: true }))).toBe(
      'sandbox http://127.0.0.1:4000 (the built-in emulator of one run)',
    );
  });
});
