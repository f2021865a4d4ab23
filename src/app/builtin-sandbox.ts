import { fileURLToPath } from 'node:url';
import type { ProviderSettings } from '../config/index.js';
import { startSandbox, type SandboxServer } from '../sandbox/index.js';

/** The fixture shipped with the package: the accounts the built-in emulator knows. */
export const SANDBOX_ACCOUNTS_FILE = fileURLToPath(new URL('../../../examples/sandbox-accounts.csv', import.meta.url));

const BUILTIN_CREDENTIALS = { username: 'sandbox', password: 'sandbox' };

/**
 * For the sandbox environment without H2H_BASE_URL: an emulator inside this process, so a newcomer
 * runs the whole job with no credentials. Its settings replace the provider part of the configuration.
 */
export async function startBuiltinSandbox(provider: ProviderSettings): Promise<{ sandbox: SandboxServer; provider: ProviderSettings }> {
  const sandbox = await startSandbox({ accountsFile: SANDBOX_ACCOUNTS_FILE, ...BUILTIN_CREDENTIALS, latencyMs: { min: 20, max: 80 } });
  return { sandbox, provider: { ...provider, baseUrl: sandbox.url, builtinEmulator: true, ...BUILTIN_CREDENTIALS } };
}
