/** How fast the two clocks may drift apart at most between replies: 1,000 ppm, twice what NTP slews a clock by. */
const DRIFT = 0.001;

/**
 * The latest Redis time a moment of this process (performance.now()) can be, from replies that carried
 * Redis's TIME: a command asked at `askedAt` was run by Redis after that moment, so `askedAt - now` is never
 * more than the clocks' offset, and the largest such value seen (relaxed by the drift allowed since) is the
 * tightest bound of it. A round trip delayed on the way back, or a reply left waiting on a busy event loop,
 * does not move the bound; a quick one makes it exact to a fraction of a millisecond. A reply that shows
 * Redis's time past the bound (its clock stepped forward, a failover to a server whose clock is ahead, this
 * machine suspended) sets it afresh from that reply.
 */
export class RedisClockBound {
  /** A lower bound of (local time - Redis time) at `boundAt` (local); -Infinity before any reply. */
  private offset = Number.NEGATIVE_INFINITY;
  private boundAt = 0;

  /** A command asked at `askedAt` and answered at `repliedAt` (performance.now()) was run at Redis's `redisNow` (ms). */
  observe(askedAt: number, repliedAt: number, redisNow: number): void {
    const observed = askedAt - redisNow;
    const known = this.latest(repliedAt);
    if (known === undefined || redisNow > known || observed >= this.offsetAt(askedAt)) {
      this.offset = observed;
      this.boundAt = askedAt;
    }
  }

  /** The latest Redis time (ms) the local moment `local` can be; undefined before any reply. */
  latest(local: number): number | undefined {
    return this.offset === Number.NEGATIVE_INFINITY ? undefined : local - this.offsetAt(local);
  }

  private offsetAt(local: number): number {
    return this.offset - Math.abs(local - this.boundAt) * DRIFT;
  }
}
