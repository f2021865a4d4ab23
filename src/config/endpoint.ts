import { ConfigError } from '../errors.js';
import type { ProviderEnvironment } from './index.js';

/**
 * Where answers come from: the provider environment and its base address. A batch, its continuation,
 * answer reuse and the account history belong to one endpoint: the sandbox's answers never stand in a
 * production report, nor one address's answers in another's.
 */
export interface Endpoint {
  environment: ProviderEnvironment;
  /** The normalised base address (see normaliseBaseAddress); undefined only for commands that call no provider. */
  address: string | undefined;
  /** The address is the built-in emulator of one `run`. */
  builtinEmulator?: true;
}

/**
 * H2H_BASE_URL as one spelling per address: scheme and host lower-case, the scheme's default port and
 * trailing slashes dropped, so `https://API.example.com:443/` and `https://api.example.com` are one
 * endpoint. Refused: an address with credentials (they belong in H2H_USERNAME / H2H_PASSWORD, and the address
 * is shown in summaries, the console and logs), and one with a query or fragment (a base address has none:
 * the inquiry path is appended to it).
 */
export function normaliseBaseAddress(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`H2H_BASE_URL must be an http(s) address, not ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`H2H_BASE_URL must be an http(s) address, not ${JSON.stringify(raw)}`);
  if (url.username !== '' || url.password !== '')
    throw new ConfigError(
      'H2H_BASE_URL must not carry credentials: set H2H_USERNAME and H2H_PASSWORD (the address is shown in summaries and logs)',
    );
  if (url.search !== '' || url.hash !== '')
    throw new ConfigError(`H2H_BASE_URL is the provider's base address, without a query or fragment, not ${JSON.stringify(raw)}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export const endpointOf = (provider: {
  environment: ProviderEnvironment;
  baseUrl: string | undefined;
  builtinEmulator?: boolean;
}): Endpoint => ({
  environment: provider.environment,
  address: provider.baseUrl,
  ...(provider.builtinEmulator === true && { builtinEmulator: true as const }),
});

/** `production https://api.example.com`, as summaries, `status` and messages name an endpoint. */
export const describeEndpoint = (endpoint: Endpoint): string =>
  `${endpoint.environment} ${endpoint.address ?? '(no address)'}${endpoint.builtinEmulator === true ? ' (the built-in emulator of one run)' : ''}`;
