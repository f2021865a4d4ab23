/**
 * A preload (`NODE_OPTIONS=--import <this file>`) that steps this process's wall clock the way an operator,
 * a VM resume or a bad NTP server steps the system clock: `Date` (and `Date.now()`) run
 * BC_TEST_CLOCK_OFFSET_MS ahead from the start, and each SIGUSR2 moves them BC_TEST_CLOCK_STEP_MS further.
 * The monotonic clock (performance.now, process.hrtime) is left alone, as a real step leaves
 * CLOCK_MONOTONIC alone. Each step is acknowledged on stderr (`clock stepped by N ms`).
 */
const RealDate = globalThis.Date;
let offset = Number(process.env.BC_TEST_CLOCK_OFFSET_MS ?? 0);
const step = Number(process.env.BC_TEST_CLOCK_STEP_MS ?? 0);

class SteppedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }

  static now() {
    return RealDate.now() + offset;
  }
}

globalThis.Date = SteppedDate;
process.on('SIGUSR2', () => {
  offset += step;
  process.stderr.write(`clock stepped by ${step} ms\n`);
});
