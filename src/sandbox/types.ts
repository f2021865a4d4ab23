export type SandboxBehaviour = 'normal' | 'not_found' | 'echo_mismatch' | 'closed';

export interface SandboxAccount {
  bankCode: string;
  accountNumber: string;
  holderName: string;
  /** 'SUCCESS' normally; any other value is returned as-is in data.status. */
  status: string;
  behaviour?: SandboxBehaviour;
}

export interface SandboxBank {
  bankCode: string;
  name: string;
  /** Numeric string, as the provider writes it. */
  fee: string;
}

export interface SandboxKnobs {
  latencyMs: { min: number; max: number };
  loginLatencyMs: number;
  /** Sliding window over all inquiry requests, whatever token they carry. */
  rateLimit: { max: number; windowMs: number } | null;
  tokenLifetimeSeconds: number;
  serverErrorRate: number;
  hangRate: number;
  loginFailure: null | 'server_error' | 'unavailable';
}

export interface SandboxOptions extends Partial<SandboxKnobs> {
  host?: string;
  port?: number;
  accounts?: SandboxAccount[];
  accountsFile?: string;
  username?: string;
  password?: string;
  banks?: SandboxBank[];
  seed?: number;
}

export interface SandboxStats {
  logins: number;
  failedLogins: number;
  inquiries: number;
  answeredInquiries: number;
  unauthorized: number;
  rateLimited: number;
  serverErrors: number;
  hangs: number;
  inquiriesByAccount: Record<string, number>;
  maxInquiriesInAnyWindow: number;
  firstInquiryAt: number | null;
  lastInquiryAt: number | null;
}

export interface SandboxServer {
  url: string;
  port: number;
  stats(): SandboxStats;
  resetStats(): void;
  setKnobs(k: Partial<SandboxKnobs>): void;
  revokeAllTokens(): void;
  /** Access tokens issued and still valid. */
  issuedTokens(): string[];
  /** Adds accounts, or replaces those with the same bank code and account number (to close one: behaviour `closed`). */
  upsertAccounts(accounts: SandboxAccount[]): void;
  close(): Promise<void>;
}
