import { TimeWindow } from './time-window.js';
import type { SandboxStats } from './types.js';

const DEFAULT_WINDOW_MS = 1000;

/**
 * Counters the tests and benchmarks assert on. The peak window counts every inquiry received,
 * rejected ones included, because its purpose is to prove how fast clients actually send.
 */
export class StatsRecorder {
  private counters = emptyStats();
  private readonly window: TimeWindow;

  constructor(windowMs: number | undefined) {
    this.window = new TimeWindow(windowMs ?? DEFAULT_WINDOW_MS);
  }

  setWindow(windowMs: number | undefined): void {
    const next = windowMs ?? DEFAULT_WINDOW_MS;
    if (next === this.window.windowMs) return;
    this.window.windowMs = next;
    this.window.clear();
  }

  inquiryReceived(now: number): void {
    const c = this.counters;
    c.inquiries++;
    c.firstInquiryAt ??= now;
    c.lastInquiryAt = now;
    c.maxInquiriesInAnyWindow = Math.max(c.maxInquiriesInAnyWindow, this.window.add(now));
  }

  inquiryAnswered(accountKey: string | null): void {
    this.counters.answeredInquiries++;
    if (accountKey === null) return;
    const byAccount = this.counters.inquiriesByAccount;
    byAccount[accountKey] = (byAccount[accountKey] ?? 0) + 1;
  }

  bump(counter: 'logins' | 'failedLogins' | 'unauthorized' | 'rateLimited' | 'serverErrors' | 'hangs'): void {
    this.counters[counter]++;
  }

  snapshot(): SandboxStats {
    return { ...this.counters, inquiriesByAccount: { ...this.counters.inquiriesByAccount } };
  }

  reset(): void {
    this.counters = emptyStats();
    this.window.clear();
  }
}

function emptyStats(): SandboxStats {
  return {
    logins: 0,
    failedLogins: 0,
    inquiries: 0,
    answeredInquiries: 0,
    unauthorized: 0,
    rateLimited: 0,
    serverErrors: 0,
    hangs: 0,
    // Null prototype: account keys come from request bodies and must not collide with Object.prototype.
    inquiriesByAccount: Object.create(null) as Record<string, number>,
    maxInquiriesInAnyWindow: 0,
    firstInquiryAt: null,
    lastInquiryAt: null,
  };
}
