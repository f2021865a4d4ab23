import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accountKey, indexAccounts, loadSandboxAccounts } from './accounts.js';
import { DEFAULT_BANKS } from './banks.js';
import { CONTROL_PREFIX, handleControl } from './control.js';
import { BodyError, sendJson } from './http-io.js';
import { handleInquiry } from './inquiry.js';
import { TokenIssuer } from './jwt.js';
import { DEFAULT_KNOBS, knobsFromOptions, validateKnobs } from './knobs.js';
import { handleLogin } from './login.js';
import { createRandom } from './prng.js';
import { applyKnobs, type SandboxState } from './state.js';
import { StatsRecorder } from './stats.js';
import type { SandboxAccount, SandboxKnobs, SandboxOptions, SandboxServer } from './types.js';

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const fromFile = options.accountsFile ? await loadSandboxAccounts(options.accountsFile) : [];
  // In-memory accounts come last so a test can override one fixture row.
  const accounts: SandboxAccount[] = [...fromFile, ...(options.accounts ?? [])];
  const shutdown = new AbortController();
  // Every pending latency sleep listens on this one signal: hundreds at a time is the normal case.
  setMaxListeners(0, shutdown.signal);
  const initialKnobs = knobsFromOptions(options as Partial<SandboxKnobs> & Record<string, unknown>);

  const state: SandboxState = {
    knobs: { ...DEFAULT_KNOBS },
    random: createRandom(options.seed),
    stats: new StatsRecorder(undefined),
    limiter: null,
    tokens: new TokenIssuer(),
    accounts: indexAccounts(accounts),
    banks: new Map((options.banks ?? DEFAULT_BANKS).map((b) => [b.bankCode, b])),
    credentials: { username: options.username ?? 'sandbox', password: options.password ?? 'sandbox' },
    nextRecordId: 1,
    shutdown: shutdown.signal,
    hung: new Set(),
  };
  applyKnobs(state, initialKnobs);

  const controls = {
    stats: () => state.stats.snapshot(),
    resetStats: () => state.stats.reset(),
    setKnobs: (k: Partial<SandboxKnobs>) => applyKnobs(state, validateKnobs(k)),
    revokeAllTokens: () => state.tokens.revokeAll(),
    issuedTokens: () => state.tokens.issued(),
    knobs: () => state.knobs,
    upsertAccounts: (changed: SandboxAccount[]) => {
      for (const account of changed) state.accounts.set(accountKey(account.bankCode, account.accountNumber), account);
    },
  };

  const server = createServer((req, res) => {
    route(state, controls, req, res).catch((err: unknown) => {
      const status = err instanceof BodyError ? err.statusCode : 500;
      sendJson(res, status, { error: true, message: err instanceof BodyError ? err.message : 'Server Error' });
    });
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      shutdown.abort();
      server.close(() => resolve());
      // Hung requests and keep-alive sockets would otherwise hold close() open indefinitely.
      for (const res of state.hung) res.socket?.destroy();
      server.closeAllConnections();
    });
    return closing;
  };

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stats: controls.stats,
    resetStats: controls.resetStats,
    setKnobs: controls.setKnobs,
    revokeAllTokens: controls.revokeAllTokens,
    issuedTokens: controls.issuedTokens,
    upsertAccounts: controls.upsertAccounts,
    close,
  };
}

async function route(
  state: SandboxState,
  controls: Parameters<typeof handleControl>[0],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
  if (req.method === 'POST' && path === '/api/login') return handleLogin(state, req, res);
  if (req.method === 'POST' && path === '/api/transfer/inquiry') return handleInquiry(state, req, res);
  if (path.startsWith(CONTROL_PREFIX) && (await handleControl(controls, req, res, path))) return;
  sendJson(res, 404, { error: true, message: 'Not Found' });
}
