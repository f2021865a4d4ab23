/**
 * The baselines bench/compare.ts measures the product against, each run as a process of its own (like
 * the product's CLI), so that none shares an event loop with the emulator:
 *
 *   - `p-limit`: the naive script: every account through `p-limit(concurrency)` and a got POST;
 *   - `bullmq`: raw BullMQ + got: one Queue, one Worker with the same concurrency, the job does the POST;
 *   - `bullmq-undici`: the same with the product's own transport (src/provider/http.ts, undici) instead of
 *     got: what the product's queue, pacing and bookkeeping cost, with the HTTP client out of the ratio;
 *   - `paced`: a bare loop sending at the rate (bench/support.ts pacedBaseline), no queue, no limit.
 *
 * With a rate, `p-limit` starts its calls on an even spacing and `bullmq` uses BullMQ's own limiter.
 * Prints one JSON line: `{ "seconds": n }`, the time from the first call going out to the last answer.
 *
 *   node dist/bench/baselines.js <p-limit|bullmq|bullmq-undici|paced> '{"url":…,"rows":…,"concurrency":…,"rate":…,"prefix":…}'
 */
import { randomBytes } from 'node:crypto';
import got from 'got';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pLimit from 'p-limit';
import { createHttpClient } from '../src/provider/http.js';
import { syntheticAccounts } from '../src/sandbox/synthetic-accounts.js';
import type { SandboxAccount } from '../src/sandbox/types.js';
import { pacedBaseline, REDIS_URL } from './support.js';

export type BaselineKind = 'p-limit' | 'bullmq' | 'bullmq-undici' | 'paced';

export interface BaselineOptions {
  url: string;
  rows: number;
  concurrency: number;
  /** Calls per second, or undefined for as fast as it goes. */
  rate: number | undefined;
  /** Redis key prefix of the BullMQ baseline's queue (deleted by the caller). */
  prefix: string;
}

/** One login, as the product does once per token lifetime. */
async function token(url: string): Promise<string> {
  const { body } = await got.post(`${url}/api/login`, { json: { username: 'sandbox', password: 'sandbox' }, responseType: 'json' });
  return (body as { data: { access_token: string } }).data.access_token;
}

type Inquire = (url: string, bearer: string, account: Pick<SandboxAccount, 'bankCode' | 'accountNumber'>) => Promise<unknown>;

const inquire: Inquire = (url, bearer, account) =>
  got.post(`${url}/api/transfer/inquiry`, {
    json: { bank_code: account.bankCode, account_number: account.accountNumber },
    headers: { authorization: `Bearer ${bearer}` },
    throwHttpErrors: false,
  });

function inquireWithTransport(): Inquire {
  const http = createHttpClient(15_000);
  return (url, bearer, account) => http.post(`${url}/api/transfer/inquiry`, { json: { bank_code: account.bankCode, account_number: account.accountNumber } }, { authorization: `Bearer ${bearer}` });
}

/** Even spacing for the rate-bound scenarios: each call waits for its own slot. */
function spacing(rate: number | undefined): () => Promise<void> {
  if (rate === undefined) return async () => undefined;
  let next = performance.now();
  return async () => {
    const slot = next;
    next += 1000 / rate;
    const wait = slot - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };
}

async function naive(options: BaselineOptions): Promise<number> {
  const bearer = await token(options.url);
  const limit = pLimit(options.concurrency);
  const turn = spacing(options.rate);
  const started = performance.now();
  await Promise.all(
    syntheticAccounts(options.rows).map((account) =>
      limit(async () => {
        await turn();
        return inquire(options.url, bearer, account);
      }),
    ),
  );
  return (performance.now() - started) / 1000;
}

async function rawBullmq(options: BaselineOptions, ask: Inquire): Promise<number> {
  const bearer = await token(options.url);
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const name = `baseline-${randomBytes(3).toString('hex')}`;
  const queue = new Queue(name, { connection, prefix: options.prefix });
  let answered = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const started = performance.now();
  const worker = new Worker(
    name,
    async (job) => {
      await ask(options.url, bearer, job.data as SandboxAccount);
    },
    {
      connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      ...(options.rate !== undefined && { limiter: { max: options.rate, duration: 1000 } }),
    },
  );
  worker.on('completed', () => {
    answered += 1;
    if (answered === options.rows) finished();
  });
  const accounts = syntheticAccounts(options.rows);
  for (let from = 0; from < accounts.length; from += 1_000) {
    await queue.addBulk(
      accounts.slice(from, from + 1_000).map((account) => ({ name: 'inquiry', data: { bankCode: account.bankCode, accountNumber: account.accountNumber }, opts: { removeOnComplete: true } })),
    );
  }
  await done;
  const seconds = (performance.now() - started) / 1000;
  await worker.close();
  await queue.close();
  connection.disconnect();
  return seconds;
}

const RUNNERS: Record<BaselineKind, (options: BaselineOptions) => Promise<number>> = {
  'p-limit': naive,
  bullmq: (options) => rawBullmq(options, inquire),
  'bullmq-undici': (options) => rawBullmq(options, inquireWithTransport()),
  paced: async (options) => options.rows / (await pacedBaseline(options.url, options.rows, options.rate ?? 1_000_000)),
};

const kind = process.argv[2] as BaselineKind;
const options = JSON.parse(process.argv[3] ?? '{}') as BaselineOptions;
if (RUNNERS[kind] === undefined) throw new Error(`unknown baseline ${JSON.stringify(kind)}: p-limit, bullmq, bullmq-undici or paced`);
process.stdout.write(`${JSON.stringify({ seconds: await RUNNERS[kind](options) })}\n`);
