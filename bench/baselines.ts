/**
 * The anchors bench/compare.ts measures the product against, each run as a process of its own (like the
 * product's CLI), so that none shares an event loop with the emulator. Every one uses undici, the product's
 * HTTP client, straight (`request` over one keep-alive Agent), so that a ratio is the product's own work and
 * not a difference of HTTP clients:
 *
 *   - `bullmq-undici`: raw BullMQ + undici: one Queue, one Worker at the same concurrency, the job does the POST;
 *   - `bullmq-limiter`: the same at the rate, held by BullMQ's own limiter (`max` jobs a second, a fixed window).
 *     Not a rate anchor (a fixed window against a sliding-window provider is answered 429 many times over):
 *     what the product's own stack, BullMQ + Redis + undici, costs in CPU a row when it runs at the rate;
 *   - `paced`: a loop that sends at the rate, evenly spaced and never more than the rate's `max` in any
 *     sliding window of its period (the ring of the last `max` send times): the fair anchor against a
 *     sliding-window provider. No queue, no Redis, no limit on the calls in flight;
 *   - `script`: what a person would write for a small file: read the CSV, log in, ask each row's account
 *     (paced at the rate), print nothing. Timed by the caller as a whole process, start to exit.
 *
 * Every runner logs in once.
 *
 *   node dist/bench/baselines.js <bullmq-undici|paced|script> '{"url":…,"rows":…,"concurrency":…,"rate":…,"prefix":…,"file":…}'
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Queue, Worker } from 'bullmq';
import { parse } from 'csv-parse/sync';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import { syntheticAccounts } from '../src/sandbox/synthetic-accounts.js';

export type BaselineKind = 'bullmq-undici' | 'bullmq-limiter' | 'paced' | 'script';

export interface BaselineOptions {
  url: string;
  rows: number;
  concurrency: number;
  /** Calls per second (the sliding window is one second), or undefined for as fast as it goes. */
  rate: number | undefined;
  /** Redis key prefix of the BullMQ anchor's queue (deleted by the caller). */
  prefix: string;
  /** The input file of `script`. */
  file?: string;
}

interface Account {
  bankCode: string;
  accountNumber: string;
}

const dispatcher = new Agent();

async function post(url: string, body: object, bearer?: string): Promise<unknown> {
  const response = await request(url, {
    method: 'POST',
    dispatcher,
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(bearer !== undefined && { authorization: `Bearer ${bearer}` }),
    },
  });
  return response.body.json();
}

async function login(url: string): Promise<string> {
  const answer = (await post(`${url}/api/login`, { username: 'sandbox', password: 'sandbox' })) as { data: { access_token: string } };
  return answer.data.access_token;
}

const inquire = (url: string, bearer: string, account: Account) =>
  post(`${url}/api/transfer/inquiry`, { bank_code: account.bankCode, account_number: account.accountNumber }, bearer);

/** Waits for the next send time: 1/rate after the last, and at most `rate` sends in any second. */
function slidingWindowPacer(rate: number): () => Promise<void> {
  const max = Math.max(1, Math.floor(rate));
  const ring: number[] = new Array<number>(max).fill(-Infinity);
  let sends = 0;
  let next = performance.now();
  return async () => {
    const at = Math.max(next, ring[sends % max]! + 1000);
    const wait = at - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    ring[sends % max] = performance.now();
    sends += 1;
    // From the time due, not the time the timer fired: a late timer does not slow every later call.
    next = at + 1000 / rate;
  };
}

async function paced(url: string, accounts: Account[], rate: number | undefined): Promise<void> {
  const bearer = await login(url);
  const turn = rate === undefined ? async () => undefined : slidingWindowPacer(rate);
  const inFlight: Promise<unknown>[] = [];
  for (const account of accounts) {
    await turn();
    inFlight.push(inquire(url, bearer, account));
  }
  await Promise.all(inFlight);
}

/** Raw BullMQ + undici at the concurrency; with a rate, held at it by BullMQ's own limiter. */
async function rawBullmq(options: BaselineOptions): Promise<void> {
  const bearer = await login(options.url);
  const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const name = `baseline-${randomBytes(3).toString('hex')}`;
  const queue = new Queue(name, { connection, prefix: options.prefix });
  let answered = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const worker = new Worker(name, async (job) => inquire(options.url, bearer, job.data as Account), {
    connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    ...(options.rate !== undefined && { limiter: { max: options.rate, duration: 1_000 } }),
  });
  worker.on('completed', () => {
    answered += 1;
    if (answered === options.rows) finished();
  });
  const accounts = syntheticAccounts(options.rows);
  for (let from = 0; from < accounts.length; from += 1_000) {
    await queue.addBulk(
      accounts.slice(from, from + 1_000).map((account) => ({
        name: 'inquiry',
        data: { bankCode: account.bankCode, accountNumber: account.accountNumber },
        opts: { removeOnComplete: true },
      })),
    );
  }
  await done;
  await worker.close();
  await queue.close();
  connection.disconnect();
}

/** The rows of the input with an account to ask, each account once. */
async function accountsOfFile(file: string): Promise<Account[]> {
  const rows = parse(await readFile(file), { bom: true, columns: true }) as Record<string, string>[];
  const seen = new Set<string>();
  return rows
    .map((row) => ({ bankCode: row.bank_code ?? '', accountNumber: row.account_number ?? '' }))
    .filter(
      (account) =>
        /^\d{3}$/.test(account.bankCode) &&
        /^\d{6,}$/.test(account.accountNumber) &&
        !seen.has(`${account.bankCode}:${account.accountNumber}`) &&
        seen.add(`${account.bankCode}:${account.accountNumber}`),
    );
}

const RUNNERS: Record<BaselineKind, (options: BaselineOptions) => Promise<void>> = {
  'bullmq-undici': (options) => rawBullmq({ ...options, rate: undefined }),
  'bullmq-limiter': rawBullmq,
  paced: (options) => paced(options.url, syntheticAccounts(options.rows), options.rate),
  script: async (options) => paced(options.url, await accountsOfFile(options.file!), options.rate),
};

const kind = process.argv[2] as BaselineKind;
const options = JSON.parse(process.argv[3] ?? '{}') as BaselineOptions;
if (RUNNERS[kind] === undefined) throw new Error(`unknown baseline ${JSON.stringify(kind)}: ${Object.keys(RUNNERS).join(', ')}`);
await RUNNERS[kind](options);
await dispatcher.close();
