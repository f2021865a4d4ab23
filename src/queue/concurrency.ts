import { ratePerSecond, type ConcurrencyBounds, type Rate } from '../config/index.js';

/**
 * Room above the exact need (rate × work time): the slots spend time the work time does not see (BullMQ
 * fetching the job and completing it), the work time jitters around its average, and the extra slots are
 * the calls queued at the pacer, so that a send slot never comes with no call waiting for it (a slot
 * nobody takes is throughput lost for good).
 */
const MARGIN = 1.25;
/** Weight of each new latency sample in the moving average: about the last 20 answers count. */
const SMOOTHING = 0.1;
/**
 * A sample counts for at most this many times the average: one call that hung until its timeout does not
 * send the concurrency to its bound, while latency that stays high still moves the average (30% a sample).
 */
const OUTLIER_FACTOR = 4;
/** The concurrency changes only when the target is this far off (and at least 2 slots), so it does not flap. */
const MEANINGFUL_CHANGE = 0.1;
/**
 * The most slots one change adds. BullMQ fills new slots with one fetch after another and starts none of
 * the jobs it fetched (nor those its finishing jobs fetched) until every new slot has one: a jump from 16 to
 * 80 slots after the first answers stopped every send for 300-500 ms while 64 fetches went one by one
 * behind the producer's queueing, which a latency-bound run (100 ms, 500/s) paid as 3-6% of its rate.
 * Eight at a time holds the jobs in hand for eight fetches; the next answer raises it again.
 */
export const MAX_RAISE = 8;

/**
 * The work time a process starts from, before any answer has told it: slots for the rate at 100 ms. The
 * pacer, not the slots, decides when calls go, so a slot too many costs a job taken early (and its lock);
 * a slot too few costs the calls it could have sent before the first answers come back. Started at the
 * lower bound (16), a 100 ms provider at 500/s got 16 calls in the first 100 ms instead of 50.
 */
const STARTING_WORK_MS = 100;
/** The most slots a process starts with, unless its lower bound is higher: the first answers say what the rate needs. */
const STARTING_MOST = 64;
/**
 * BullMQ workers per process, the process's slots shared among them. A worker fills its new slots with one
 * fetch after another and starts none of the jobs it fetched until every new slot has one; at a run's start
 * each fetch waits behind the file being queued on the same event loop (2.5-3.3 ms each), so one worker
 * starting with 63 slots sent one call, then nothing for 150 ms. Two workers fetch side by side, each
 * filling half of the slots. Each worker holds a blocking Redis connection of its own: at 500/s against a
 * 100 ms provider one worker reached 0.976-0.977 of the rate, two 0.978-0.980 and four 0.981, for two more
 * connections a process.
 */
const WORKERS_PER_PROCESS = 2;

/** The concurrency a process starts with: the target for STARTING_WORK_MS, at most STARTING_MOST (or the lower bound). */
export function startingConcurrency(rate: Rate, bounds: ConcurrencyBounds): number {
  return Math.min(targetConcurrency(rate, STARTING_WORK_MS, bounds), Math.max(bounds.min, STARTING_MOST));
}

/** How many BullMQ workers share a process's slots: WORKERS_PER_PROCESS, fewer when the lower bound is smaller (every worker keeps a slot). */
export function workerCount(bounds: ConcurrencyBounds): number {
  return Math.max(1, Math.min(WORKERS_PER_PROCESS, bounds.min));
}

/** `total` slots split among `count` workers: the shares differ by one at most and add up to `total`. */
export function shares(total: number, count: number): number[] {
  const each = Math.floor(total / count);
  return Array.from({ length: count }, (_, index) => each + (index < total % count ? 1 : 0));
}

/** Slots needed to keep `rate` calls per second going when each holds its slot `workMs`, within the bounds. */
export function targetConcurrency(rate: Rate, workMs: number, bounds: ConcurrencyBounds, margin = MARGIN): number {
  const needed = Math.ceil(ratePerSecond(rate) * (workMs / 1000) * margin);
  return Math.min(bounds.max, Math.max(bounds.min, needed));
}

/**
 * Little's law for one process: to send `rate` calls a second when a job holds its worker slot W seconds,
 * about rate × W jobs must be in flight. W is the job's whole work, not only its HTTP latency: the
 * pre-call, the token and the outcome's save hold the slot too (sized from the latency alone, a 100 ms
 * provider at 500/s left the pacer's line empty and reached 0.85-0.90 of the rate). The wait in the
 * pacer's line is left out: it is what extra slots cost, and counting it would grow the concurrency
 * with itself up to the bound. The process starts at `startingConcurrency`, keeps a moving average of
 * the work times it observes, and follows the target with hysteresis. Each process adapts on its own
 * observations: with several processes each provisions for the whole rate, and the shared pacer keeps
 * the total at the rate (extra slots wait for their turn, which costs a job lock each, not a call). The
 * process's workers share the figure (see `shares`).
 */
export class AdaptiveConcurrency {
  private averageMs: number | undefined;
  private current: number;
  /** Where the concurrency is going: the last target far enough from it to move (see MEANINGFUL_CHANGE). */
  private goal: number;
  private highest: number;

  constructor(
    private readonly rate: Rate,
    private readonly bounds: ConcurrencyBounds,
  ) {
    this.current = startingConcurrency(rate, bounds);
    this.goal = this.current;
    this.highest = this.current;
  }

  /** One answered job's work time (ms), its wait for a send slot left out. */
  observe(workMs: number): void {
    if (!Number.isFinite(workMs) || workMs < 0) return;
    if (this.averageMs === undefined) {
      this.averageMs = workMs;
      return;
    }
    const sample = Math.min(workMs, Math.max(this.averageMs, 1) * OUTLIER_FACTOR);
    this.averageMs += SMOOTHING * (sample - this.averageMs);
  }

  /** The concurrency to run at now: the target, reached MAX_RAISE slots a call at most when it rises. */
  next(): number {
    if (this.averageMs === undefined) return this.current;
    const target = targetConcurrency(this.rate, this.averageMs, this.bounds);
    if (
      Math.abs(target - this.current) >= Math.max(2, this.current * MEANINGFUL_CHANGE) ||
      target === this.bounds.min ||
      target === this.bounds.max
    )
      this.goal = target;
    this.current = this.goal > this.current ? Math.min(this.goal, this.current + MAX_RAISE) : this.goal;
    this.highest = Math.max(this.highest, this.current);
    return this.current;
  }

  /** The highest concurrency reached so far (the summary and the metrics show it). */
  get peak(): number {
    return this.highest;
  }

  get workMs(): number | undefined {
    return this.averageMs;
  }
}
