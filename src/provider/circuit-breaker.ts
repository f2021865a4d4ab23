export interface CircuitBreakerSettings {
  /** How many recent calls are looked at. */
  windowSize: number;
  /** The breaker opens only once this many calls are in the window. */
  minimumCalls: number;
  /** Share of transient failures in the window that opens the breaker. */
  failureRatio: number;
  /** First pause; doubles each time a probe fails, up to maxOpenMs. */
  openMs: number;
  maxOpenMs: number;
}

export const DEFAULT_BREAKER: CircuitBreakerSettings = {
  windowSize: 20,
  minimumCalls: 10,
  failureRatio: 0.5,
  openMs: 2_000,
  maxOpenMs: 30_000,
};

/** `probe`: this call is the one let through to see whether the provider is back; its verdict must be recorded, or the probe abandoned. */
export type BreakerGate = { allowed: true; probe: boolean } | { allowed: false; waitMs: number };

/**
 * Stops sending when most recent calls failed transiently, lets one probe through after a pause,
 * and resumes when the probe is answered. A value in, a decision out: the clock is passed in, so
 * the state machine is tested without waiting. Times are on the monotonic clock (performance.now): a
 * step of the wall clock neither ends a pause early nor makes one last for hours.
 */
export class CircuitBreaker {
  private outcomes: boolean[] = [];
  private openUntil = 0;
  private currentOpenMs: number;
  private probing = false;
  private openedAt: number | undefined;

  constructor(private readonly settings: CircuitBreakerSettings = DEFAULT_BREAKER) {
    this.currentOpenMs = settings.openMs;
  }

  /** Since when (monotonic ms) the breaker has been open without a successful probe, if it is. */
  get outageSince(): number | undefined {
    return this.openedAt;
  }

  allowRequest(now = performance.now()): BreakerGate {
    if (this.openedAt === undefined) return { allowed: true, probe: false };
    if (now < this.openUntil) return { allowed: false, waitMs: this.openUntil - now };
    if (this.probing) return { allowed: false, waitMs: Math.min(this.settings.openMs, 1_000) };
    this.probing = true;
    return { allowed: true, probe: true };
  }

  /**
   * The probe ended without saying anything about the provider (the login failed, or a bug): the next call
   * may probe. Without this a probe that never records a verdict would hold every call for good.
   */
  abandonProbe(): void {
    this.probing = false;
  }

  /** `answered` is true for any definitive answer (a business rejection too); false for a transient failure. */
  record(answered: boolean, now = performance.now()): void {
    if (this.openedAt !== undefined) {
      if (!this.probing) return;
      this.probing = false;
      if (answered) {
        this.reset();
      } else {
        this.currentOpenMs = Math.min(this.currentOpenMs * 2, this.settings.maxOpenMs);
        this.openUntil = now + this.currentOpenMs;
      }
      return;
    }
    this.outcomes.push(answered);
    if (this.outcomes.length > this.settings.windowSize) this.outcomes.shift();
    const failures = this.outcomes.filter((ok) => !ok).length;
    if (this.outcomes.length >= this.settings.minimumCalls && failures / this.outcomes.length >= this.settings.failureRatio) {
      this.openedAt = now;
      this.openUntil = now + this.currentOpenMs;
    }
  }

  private reset(): void {
    this.outcomes = [];
    this.openedAt = undefined;
    this.openUntil = 0;
    this.currentOpenMs = this.settings.openMs;
  }
}
