import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What an inquiry call ended as, for the latency histogram: the kinds of the provider client's decision. */
export type InquiryOutcomeKind = 'answer' | 'rate_limited' | 'transient';

/**
 * The product's own Prometheus metrics, one registry per process. The places that count get narrow
 * callbacks from the composition root (src/app), never this module as a global: the pure core stays pure.
 *
 * Every counter counts what this process did: a Prometheus scrape of several processes is summed across
 * instances (`sum without (instance, pid) (...)`) to get the deployment's figure.
 */
export interface ProductMetrics {
  readonly registry: Registry;
  /** Rows written to a reconciliation report, by `result` (a report written again counts again). */
  rowsReported(counts: Record<string, number>): void;
  /** One inquiry HTTP call sent (retries included). */
  inquiryCall(): void;
  /** The provider answered 429. */
  rateLimited(): void;
  /** A transient failure (network, timeout, 5xx) sent back to the queue for another attempt. */
  inquiryRetry(): void;
  /** An inquiry job met a bug in this tool (its row is FAILED saying so). */
  internalError(): void;
  /** How long one inquiry call took, from the send slot to the classified answer. */
  inquiryLatency(seconds: number, outcome: InquiryOutcomeKind): void;
  login(outcome: 'success' | 'failure'): void;
  /** A token replaced before it expired (`expiring`), or dropped after the provider refused it (`refused`, a 401). */
  tokenRefresh(reason: 'expiring' | 'refused'): void;
  /** Reads the circuit breakers of this process at every scrape: 1 while any of them is open. */
  watchBreaker(isOpen: () => boolean): void;
  /** Reads the inquiry concurrency of a worker of this process at every scrape (summed over its workers). */
  watchConcurrency(read: () => number): void;
  /** A batch this process waits on (settles); call the returned function when the wait ends. */
  batchRunning(): () => void;
  /** A completion notice delivered, or an attempt that failed (it is retried with backoff). */
  notice(outcome: 'delivered' | 'attempt_failed'): void;
}

const PREFIX = 'beneficiary_check_';

export function createMetrics(): ProductMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const rows = new Counter({
    name: `${PREFIX}rows_total`,
    help: 'Rows written to reconciliation reports, by result',
    labelNames: ['result'],
    registers,
  });
  const calls = new Counter({
    name: `${PREFIX}inquiry_calls_total`,
    help: 'Inquiry HTTP calls sent to the provider (retries included)',
    registers,
  });
  const limited = new Counter({
    name: `${PREFIX}inquiry_rate_limited_total`,
    help: 'Inquiry calls the provider answered with HTTP 429',
    registers,
  });
  const retries = new Counter({
    name: `${PREFIX}inquiry_retries_total`,
    help: 'Inquiry jobs sent back for another attempt after a transient failure (a job of several accounts counts once)',
    registers,
  });
  const bugs = new Counter({
    name: `${PREFIX}inquiry_internal_errors_total`,
    help: 'Inquiry jobs that met a bug in beneficiary-check',
    registers,
  });
  const latency = new Histogram({
    name: `${PREFIX}inquiry_duration_seconds`,
    help: 'Inquiry call latency, by outcome (answer, rate_limited, transient)',
    labelNames: ['outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
    registers,
  });
  const logins = new Counter({ name: `${PREFIX}logins_total`, help: 'Provider logins by outcome', labelNames: ['outcome'], registers });
  const refreshes = new Counter({
    name: `${PREFIX}token_refreshes_total`,
    help: 'Access tokens replaced: expiring (before expiry) or refused (after a 401)',
    labelNames: ['reason'],
    registers,
  });
  const notices = new Counter({
    name: `${PREFIX}completion_notices_total`,
    help: 'Completion notice deliveries: delivered, or an attempt that failed',
    labelNames: ['outcome'],
    registers,
  });
  const breakers: Array<() => boolean> = [];
  new Gauge({
    name: `${PREFIX}circuit_breaker_open`,
    help: '1 while a circuit breaker of this process holds inquiries because the provider keeps failing',
    registers,
    collect() {
      this.set(breakers.some((isOpen) => isOpen()) ? 1 : 0);
    },
  });
  const concurrencies: Array<() => number> = [];
  new Gauge({
    name: `${PREFIX}inquiry_concurrency`,
    help: 'Inquiries this process may run at once now: adapted to the provider latency so that the rate is reached, within the configured bounds',
    registers,
    collect() {
      this.set(concurrencies.reduce((sum, read) => sum + read(), 0));
    },
  });
  const running = new Gauge({ name: `${PREFIX}batches_running`, help: 'Batches this process is waiting on (settling) now', registers });
  // Labelled series exist from the start, so a dashboard shows 0 rather than no data.
  for (const outcome of ['success', 'failure']) logins.inc({ outcome }, 0);
  for (const reason of ['expiring', 'refused']) refreshes.inc({ reason }, 0);

  return {
    registry,
    rowsReported: (counts) => {
      for (const [result, count] of Object.entries(counts)) rows.inc({ result }, count);
    },
    inquiryCall: () => calls.inc(),
    rateLimited: () => limited.inc(),
    inquiryRetry: () => retries.inc(),
    internalError: () => bugs.inc(),
    inquiryLatency: (seconds, outcome) => latency.observe({ outcome }, seconds),
    login: (outcome) => logins.inc({ outcome }),
    tokenRefresh: (reason) => refreshes.inc({ reason }),
    watchBreaker: (isOpen) => void breakers.push(isOpen),
    watchConcurrency: (read) => void concurrencies.push(read),
    batchRunning: () => {
      running.inc();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        running.dec();
      };
    },
    notice: (outcome) => notices.inc({ outcome }),
  };
}

/**
 * Joins Prometheus text expositions (ours and BullMQ's, one per queue) into one: a metric family's HELP and
 * TYPE lines appear once, its samples together, as the text format requires.
 */
export function mergeExpositions(texts: string[]): string {
  const families = new Map<string, { meta: string[]; samples: string[] }>();
  const family = (name: string) => {
    let entry = families.get(name);
    if (entry === undefined) families.set(name, (entry = { meta: [], samples: [] }));
    return entry;
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const meta = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (meta) {
        const entry = family(meta[2]!);
        if (!entry.meta.some((known) => known.startsWith(`# ${meta[1]} `))) entry.meta.push(line);
        continue;
      }
      if (line.startsWith('#')) continue;
      const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? line;
      family(familyOf(name, families)).samples.push(line);
    }
  }
  return `${[...families.values()].flatMap((entry) => [...entry.meta, ...entry.samples]).join('\n')}\n`;
}

/** `x_bucket`, `x_sum`, `x_count` belong to the family `x` when it was declared. */
function familyOf(sample: string, families: Map<string, unknown>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (sample.endsWith(suffix) && families.has(sample.slice(0, -suffix.length))) return sample.slice(0, -suffix.length);
  }
  return sample;
}
