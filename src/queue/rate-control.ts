/**
 * The pure part of the shared pacer: how fast to send after the provider answered 429 (multiplicative
 * decrease, then a linear climb back towards the configured rate), and how far apart the slots are.
 * Times are milliseconds on Redis's clock; rates are calls per second.
 */

/** A 429 halves the rate: the rate in force was above what the provider allows. */
export const DECREASE = 0.5;
/**
 * After the Retry-After hold the rate climbs linearly by this share of the slowed rate per second of
 * clean answers: it is back at the rate that was refused after (1 / DECREASE - 1) / INCREASE = 5 s.
 * The slope scales with the provider's limit found, not the configured ceiling: with a ceiling of
 * 40/s against a provider allowing 5/s, a climb of 5% of the ceiling (2/s per second) would cross the
 * limit within a second and make every fifth call a 429.
 */
export const INCREASE = 0.2;
/** Never slower than this (calls per second): a stream of 429s still probes the provider now and then. */
export const FLOOR = 0.5;
/**
 * Under a slowed rate (after a 429) slots are spaced 1% wider than it: no guard holds that rate, the
 * spacing is all there is, and the slowed rate may be exactly the sends the provider took in its window.
 */
export const HEADROOM = 0.99;
/**
 * At a configured rate the window guard holds a second at a time (SendPacer.guardHoldsCeiling), slots are
 * spaced 1% closer than it: the guard (the rate's `max` per window plus WINDOW_MARGIN_MS) is what holds
 * that rate, and spaced closer than the guard allows, each slot comes from the guard, `span` after the
 * send `max` slots before it. Spaced wider (1% wider, as before), the spacing came first: a send that left
 * late moved its record, the slot a window later moved with it, and every slot after it followed at the
 * spacing, giving back 0.025 ms a slot, 5 ms a window at 200/s. A run then lost what its latest sends were
 * late by, window after window. Spaced closer, a late send moves
 * its own slot a window later and the ones after it catch up 0.125 ms a slot: a rate-bound run at 200/s
 * went from 0.980 to 0.982 of it, and a latency-bound one at 500/s from 0.964 to 0.968 (alternating runs).
 * The first window's calls go at most 1% faster than the rate; none holds more than its `max`.
 */
export const GUARDED_HEADROOM = 1.01;
/**
 * Slack added to the rate's window by the guard that never lets more than the rate's `max` sends into one
 * window: the guard's records are on Redis's clock, the provider counts arrivals, and two sends `max`
 * apart may reach it closer than they were recorded by the difference of their record-to-arrival delays.
 * This process's part of that delay is bounded by the pacer (a send that leaves more than STALE_RECORD_MS,
 * 8 ms, after it was recorded moves its record to when it left, src/queue/pacer.ts); the rest covers the
 * HTTP client, the network and the provider's own clock. It also bounds the rate reached: `max` sends per
 * window + margin, 0.985 of a per-second rate at 15 ms (25 ms capped it at 0.976; 10 ms, without the
 * stale-reply check, let one 429 through at 10/s on a 2-core machine under a load average of 10).
 */
export const WINDOW_MARGIN_MS = 15;

/**
 * From this rate up the pacer does not space calls: slots 1 ms apart are the resolution of Node's timers,
 * so it could not space them closer anyway, and its Redis round trip per call would be what bounds a
 * worker. The rate is then a ceiling the provider's own 429s enforce: after one, the pacer paces again
 * until its rate climbs back to here.
 */
export const UNPACED_FROM = 1000;

/** Whether calls go out without a slot: the rate in force is too fast to space. */
export const sendsUnpaced = (rateInForce: number): boolean => rateInForce >= UNPACED_FROM;

/** The pacer's rate as Redis holds it: `slowedTo` is unset until the provider first answers 429. */
export interface RateState {
  /** The rate set by the last decrease. */
  slowedTo?: number | undefined;
  /** When the climb from `slowedTo` starts: the end of that 429's hold. */
  climbsFrom?: number | undefined;
  /** The rate that was in force when the last decrease happened: the provider refused it. */
  refused?: number | undefined;
  /** When the last decrease happened; a 429 for a call paced before it does not decrease again. */
  slowedAt?: number | undefined;
}

/** The rate in force at `now`: the ceiling, or the slowed rate climbing back towards it. */
export function rateAt(state: RateState, ceiling: number, now: number): number {
  if (state.slowedTo === undefined) return ceiling;
  const climbedSeconds = Math.max(0, now - (state.climbsFrom ?? now)) / 1000;
  return Math.min(ceiling, state.slowedTo * (1 + INCREASE * climbedSeconds));
}

/**
 * The rate after a 429 for a call sent at `rateInForce`. The slow-down script may go lower still, to the
 * sends the provider's window took before it refused (it keeps them: src/redis/commands/pacer.ts).
 */
export const slowedRate = (rateInForce: number): number => Math.max(FLOOR, rateInForce * DECREASE);

/** Milliseconds between two slots at `rate` calls per second; `guarded`: the window guard holds that rate (see GUARDED_HEADROOM). */
export const slotInterval = (rate: number, guarded: boolean): number => 1000 / (rate * (guarded ? GUARDED_HEADROOM : HEADROOM));

/**
 * What the summary reports as the rate the provider allowed: the configured rate when it never answered
 * 429 since `since`; otherwise the pacer's rate at `now`, but never above the rate it last refused.
 * Undefined when the rate it last refused was one calls go out unpaced at: the pacer kept no record of
 * those sends, so it knows no rate the provider took (the figure was the unpaced rate, `1000000/s`).
 */
export function allowedRate(state: RateState, ceiling: number, since: number, now: number): number | undefined {
  if (state.slowedAt === undefined || state.slowedAt < since) return ceiling;
  const refused = state.refused ?? ceiling;
  if (sendsUnpaced(refused)) return undefined;
  return Math.min(rateAt(state, ceiling, now), refused);
}
