import { ratePerSecond, type Rate } from '../config/index.js';

/**
 * Backpressure: before a slice is queued, the producer waits while the queue holds more than `limit` jobs
 * waiting to run (waiting, delayed, prioritized; every batch's), so that Redis holds a bounded number of
 * jobs whatever the file's size. The wait is asynchronous: workers in the same process keep draining.
 */
export interface Backlog {
  limit: number;
  pollMs: number;
}

export const DEFAULT_BACKLOG: Backlog = { limit: 10_000, pollMs: 200 };

/** Seconds of calls at the configured rate the queue is kept ahead by (see backlogFor). */
const BACKLOG_SECONDS = 2;
const MIN_BACKLOG = 1_000;

/**
 * The backlog for a rate: about two seconds of its calls, at least 1,000 jobs and at most DEFAULT_BACKLOG's.
 * Reading, checking, sealing and queueing a slice costs the event loop the workers share (about 70 µs a
 * row) and Redis its MULTIs of job scripts: with the whole bound queued at once, a 5,000-row file went into
 * the queue in the first 700 ms of a run, and a latency-bound run (100 ms, 500/s) sent nothing for about
 * 500 ms of it. Two seconds ahead keeps the workers fed through a slice's queueing and spreads the
 * queueing over the run; a run as fast as it can go keeps the whole bound.
 */
export function backlogFor(rate: Rate): Backlog {
  const ahead = Math.ceil(ratePerSecond(rate) * BACKLOG_SECONDS);
  return { ...DEFAULT_BACKLOG, limit: Math.min(DEFAULT_BACKLOG.limit, Math.max(MIN_BACKLOG, ahead)) };
}
