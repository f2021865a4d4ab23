export { startSandbox } from './server.js';
export { loadSandboxAccounts } from './accounts.js';
export { DEFAULT_BANKS } from './banks.js';
export type {
  SandboxAccount,
  SandboxBank,
  SandboxBehaviour,
  SandboxKnobs,
  SandboxOptions,
  SandboxServer,
  SandboxStats,
} from './types.js';
