/**
 * Timestamps inside a sliding window (now - windowMs, now].
 * A head index instead of Array.shift keeps pruning cheap when benchmarks push thousands per second.
 */
export class TimeWindow {
  private stamps: number[] = [];
  private head = 0;

  constructor(public windowMs: number) {}

  count(now: number): number {
    this.prune(now);
    return this.stamps.length - this.head;
  }

  add(now: number): number {
    this.prune(now);
    this.stamps.push(now);
    return this.stamps.length - this.head;
  }

  /** Milliseconds until the oldest stamp leaves the window; 0 when empty. */
  msUntilOldestExpires(now: number): number {
    this.prune(now);
    const oldest = this.stamps[this.head];
    return oldest === undefined ? 0 : Math.max(0, oldest + this.windowMs - now);
  }

  clear(): void {
    this.stamps = [];
    this.head = 0;
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    while (this.head < this.stamps.length && (this.stamps[this.head] ?? Infinity) <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > this.stamps.length) {
      this.stamps = this.stamps.slice(this.head);
      this.head = 0;
    }
  }
}
