import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, rm } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Queue } from 'bullmq';
import type { App } from '../app/app.js';
import { HandedBackError } from '../batch/settle.js';
import { summaryPathFor } from '../batch/summary.js';
import type { ConsoleSettings } from '../config/index.js';
import { BatchNotFoundError, ColumnChoiceError, describeError, SystemicError, UsageError } from '../errors.js';
import { maskDigitRuns } from '../logging/logger.js';
import { reportFormatOf } from '../report/sink.js';
import type { ResultValue } from '../report/row-result.js';
import { noPersonReason, personOf } from './identity.js';
import { DecisionRefusedError, LISTED_RESULTS, ReviewDesk, type DeskFilter } from './review-desk.js';
import { mergeExpositions } from '../metrics/metrics.js';
import { consoleAccess } from './access.js';
import { BatchViews } from './batch-views.js';
import { mountQueueBoard } from './queue-board.js';
import { batchPage, contentSecurityPolicy, indexPage } from './pages.js';
import {
  type BatchRunner,
  checkUploadName,
  chosenColumns,
  columnsByIndex,
  columnsOf,
  prepareUploadFolders,
  saveUpload,
  sweepExpiredUploads,
  UploadRefusedError,
  uploadPaths,
} from './uploads.js';
import { redisHealth } from '../redis/supervisor.js';

export interface ConsoleOptions {
  settings: ConsoleSettings;
  /** Why uploads are refused (no provider settings: `serve` runs read-only); undefined when they are taken. */
  uploadsOff?: string | undefined;
  /** Let the dashboard retry, remove and pause jobs (`serve --queue-actions`); read-only otherwise. */
  queueActions: boolean;
  /** Queues shown in the dashboard and exported to /metrics beside the inquiry queue (the nightly runs, the notices). */
  extraQueues: Queue[];
}

const PROBE_TIMEOUT_MS = 1_000;
const QUEUE_METRICS_TIMEOUT_MS = 3_000;

/**
 * The operations console: health probes, Prometheus metrics, the queue dashboard, the JSON API and the
 * pages. Everything is read from Redis, so any number of consoles can run; uploads are checked by this
 * process (with its in-process workers) through the same batch lifecycle as `run`.
 */
export async function buildConsole(app: App, runner: BatchRunner | undefined, options: ConsoleOptions): Promise<FastifyInstance> {
  const { settings } = options;
  await prepareUploadFolders(settings.reportsDir);
  const stopSweeping = await sweepExpiredUploads(settings.reportsDir, app.config.retention.batchMs, app.logger);
  const server = Fastify({ loggerInstance: quietLogger(app, 'console'), bodyLimit: 64 * 1024 });
  server.addHook('onClose', async () => stopSweeping());
  const views = new BatchViews(app.store, app.decisions, app.config.nameMatching);
  const desk = new ReviewDesk(app.store, app.decisions, app.config.nameMatching, app.config.displayTimeZone, app.knownAnswers);
  const timeZone = app.config.displayTimeZone;
  const queues: Queue[] = [app.queue as Queue, ...options.extraQueues];

  const accessRefusal = consoleAccess(settings.token, (message, client) => app.logger.warn({ component: 'console', client }, message));
  server.addHook('onRequest', async (request, reply) => {
    const refusal = accessRefusal(request);
    if (refusal !== undefined)
      return reply
        .code(refusal.status)
        .headers(refusal.headers ?? {})
        .send({ error: refusal.error });
    // A page of another site must not make a logged-in browser upload files here.
    if (request.method !== 'GET' && request.method !== 'HEAD' && isCrossSite(request)) {
      return reply.code(403).send({ error: 'cross-site request refused' });
    }
    return undefined;
  });
  server.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer').header('x-frame-options', 'DENY');
  });
  server.setErrorHandler((error, request, reply) => {
    const status = statusFor(error);
    if (status >= 500 && !(error instanceof SystemicError)) request.log.error({ err: error }, `console: ${describeError(error)}`);
    return reply.code(status).send({ error: maskDigitRuns(describeError(error)) });
  });

  server.get('/healthz', async () => ({ status: 'ok' }));
  server.get('/readyz', async (_request, reply) => {
    const problem = await readinessProblem(app);
    return problem === undefined ? { status: 'ready' } : reply.code(503).send({ status: 'not ready', reason: problem });
  });
  server.get('/metrics', async (_request, reply) => {
    const texts = [await app.metrics.registry.metrics()];
    for (const queue of queues) {
      try {
        texts.push(await withTimeout(queue.exportPrometheusMetrics(), QUEUE_METRICS_TIMEOUT_MS, `metrics of ${queue.name}`));
      } catch (error) {
        app.logger.warn({ queue: queue.name }, `queue metrics left out: ${describeError(error)}`);
      }
    }
    return reply.type(app.metrics.registry.contentType).send(mergeExpositions(texts));
  });

  await mountQueueBoard(server, queues, { readOnly: !options.queueActions });
  await server.register(multipart, { limits: { fileSize: settings.uploadMaxBytes, files: 1, fields: 4, parts: 6 } });

  server.get<{ Querystring: { limit?: string } }>('/api/batches', async (request) => ({
    batches: await views.list(boundedInteger(request.query.limit, 50, 1, 200)),
  }));
  server.get<{ Params: { id: string } }>('/api/batches/:id', async (request) => views.one(request.params.id));
  server.get<{ Params: { id: string }; Querystring: { from?: string; limit?: string; result?: string; decided?: string; q?: string } }>(
    '/api/batches/:id/review',
    async (request) =>
      desk.list(
        request.params.id,
        boundedInteger(request.query.from, 0, 0, Number.MAX_SAFE_INTEGER),
        boundedInteger(request.query.limit, 100, 1, 500),
        deskFilter(request.query),
      ),
  );
  server.post<{ Params: { id: string; row: string }; Body: { decision?: unknown; note?: unknown; seen?: unknown } | undefined }>(
    '/api/batches/:id/rows/:row/decision',
    async (request, reply) => {
      const person = personOf(request.raw.headersDistinct, settings.userHeader);
      if (person === undefined) throw new DecisionRefusedError(noPersonReason(settings.userHeader), 403);
      const body = request.body ?? {};
      // A row number as written: `0x0b` or `1e1` names no row.
      if (!/^\d{1,9}$/.test(request.params.row))
        throw new DecisionRefusedError(`batch ${request.params.id} has no row ${JSON.stringify(request.params.row.slice(0, 20))}`, 409);
      const row = await desk.decide(
        request.params.id,
        Number(request.params.row),
        { decision: body.decision, note: body.note, seen: body.seen },
        person,
      );
      return reply.code(201).send({ row });
    },
  );
  server.get<{ Params: { id: string } }>('/api/batches/:id/report.csv', async (request, reply) => {
    const report = await reportOf(app, request.params.id);
    const name = report
      .split('/')
      .pop()!
      .replace(/[^\w.-]+/g, '_');
    const type =
      reportFormatOf(report) === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8';
    return reply.type(type).header('content-disposition', `attachment; filename="${name}"`).send(createReadStream(report));
  });
  server.get<{ Params: { id: string } }>('/api/batches/:id/summary.json', async (request, reply) => {
    const summary = summaryPathFor(await reportOf(app, request.params.id));
    await readable(summary, `the summary ${summary} is not on this machine`);
    return reply.type('application/json; charset=utf-8').send(createReadStream(summary));
  });
  server.post<{ Querystring: { then?: string } }>('/api/batches', async (request, reply) => {
    if (runner === undefined)
      throw new UploadRefusedError(
        `this console is read-only: uploads need the provider (${options.uploadsOff ?? 'no provider settings'})`,
        503,
      );
    const part = await request.file();
    if (part === undefined)
      throw new UploadRefusedError('no file: send the CSV or XLSX in the form field "file" (multipart/form-data)', 400);
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw new UploadRefusedError(`the file goes in the form field "file", not ${JSON.stringify(part.fieldname)}`, 400);
    }
    let upload;
    let chosen;
    try {
      upload = uploadPaths(settings.reportsDir, checkUploadName(part.filename), app.config.outputFormat);
      chosen = chosenColumns(part.fields);
    } catch (error) {
      part.file.resume();
      throw error;
    }
    await saveUpload(part.file, upload.inputPath, settings.uploadMaxBytes);
    let batchId: string;
    try {
      batchId = await runner.start(upload, chosen === undefined ? {} : await columnsByIndex(upload.inputPath, chosen));
    } catch (error) {
      // A file whose columns are not recognised: the page asks which is which, and sends the file again with the answer.
      const columns = error instanceof ColumnChoiceError ? await columnsOf(upload.inputPath) : undefined;
      // Nothing was queued for a refused file: it is not kept.
      await rm(upload.inputPath, { force: true });
      if (error instanceof ColumnChoiceError && columns !== undefined) {
        return reply.code(422).send({ error: `${error.choice}: choose which column holds each`, columns });
      }
      throw error;
    }
    if (request.query.then === 'page')
      return reply
        .code(303)
        .header('location', `/batches/${encodeURIComponent(batchId)}`)
        .send();
    return reply.code(202).send({ batchId, report: maskDigitRuns(upload.reportPath) });
  });

  server.get('/', async (_request, reply) => page(reply, (nonce) => indexPageFor(nonce)));
  server.get<{ Params: { id: string } }>('/batches/:id', async (request, reply) => {
    const batch = await views.one(request.params.id);
    const person = personOf(request.raw.headersDistinct, settings.userHeader);
    return page(reply, (nonce) =>
      batchPage(
        { nonce, timeZone },
        batch,
        person === undefined ? { person: undefined, why: noPersonReason(settings.userHeader) } : { person },
      ),
    );
  });

  const indexPageFor = async (nonce: string) =>
    indexPage({ nonce, timeZone }, await views.list(50), {
      maxMb: Math.round((settings.uploadMaxBytes / 1024 / 1024) * 10) / 10,
      off: runner === undefined ? (options.uploadsOff ?? 'no provider settings') : undefined,
    });
  return server;
}

async function page(reply: FastifyReply, render: (nonce: string) => string | Promise<string>): Promise<FastifyReply> {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', contentSecurityPolicy(nonce))
    .header('cache-control', 'no-store')
    .send(await render(nonce));
}

/** The report of a batch, readable on this machine (the download is the full report: the user's own file). */
async function reportOf(app: App, batchId: string): Promise<string> {
  const batch = await app.store.get(batchId);
  if (batch.lastReport === undefined)
    throw new ReportNotFoundError(`batch ${batchId} has no report yet: it is written when every account is answered`);
  await readable(
    batch.lastReport,
    `the report ${batch.lastReport} is not on this machine (written by another process); use \`export ${batchId} --out PATH\` there`,
  );
  return batch.lastReport;
}

class ReportNotFoundError extends Error {
  override name = 'ReportNotFoundError';
}

class BadQueryError extends Error {
  override name = 'BadQueryError';
  readonly statusCode = 400;
}

async function readable(path: string, message: string): Promise<void> {
  try {
    await access(path);
  } catch {
    throw new ReportNotFoundError(message);
  }
}

/** Redis answers and the inquiry queue is reachable, each within a second; the reason when not. */
async function readinessProblem(app: App): Promise<string | undefined> {
  const health = redisHealth(app.redis);
  if (health !== undefined && !health.up)
    return `Redis not answering since ${new Date(health.lastAnsweredAt).toISOString()}${health.reason === undefined ? '' : ` (${health.reason})`}`;
  if (app.redis.status !== 'ready') return `Redis connection is ${app.redis.status}`;
  try {
    await withTimeout(app.redis.ping(), PROBE_TIMEOUT_MS, 'Redis PING');
    await withTimeout(app.queue.getJobCounts('wait'), PROBE_TIMEOUT_MS, `the queue ${app.queue.name}`);
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}

function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

function statusFor(error: unknown): number {
  if (error instanceof UploadRefusedError || error instanceof DecisionRefusedError) return error.statusCode;
  if (error instanceof BatchNotFoundError || error instanceof ReportNotFoundError) return 404;
  if (error instanceof UsageError) return 422;
  // The console is stopping: the upload is not checked now (nothing of it was stored before its batch started).
  if (error instanceof SystemicError || error instanceof HandedBackError) return 503;
  const code = (error as { statusCode?: number }).statusCode;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : 500;
}

/** The review list's filters from the query: `result=CLOSE_MATCH,NO_MATCH`, `decided=undecided`, `q=ratna`. */
function deskFilter(query: { result?: string; decided?: string; q?: string }): DeskFilter {
  const results = (query.result ?? '')
    .split(',')
    .map((value) => value.trim().toUpperCase())
    .filter((value) => value !== '');
  const unknown = results.filter((value) => !(LISTED_RESULTS as readonly string[]).includes(value));
  if (unknown.length > 0) throw new BadQueryError(`result takes ${LISTED_RESULTS.join(', ')}, not ${JSON.stringify(unknown.join(','))}`);
  const decided = query.decided ?? 'all';
  if (decided !== 'all' && decided !== 'decided' && decided !== 'undecided')
    throw new BadQueryError(`decided takes all, decided or undecided, not ${JSON.stringify(decided)}`);
  return {
    results: new Set((results.length === 0 ? LISTED_RESULTS : results) as ResultValue[]),
    decided,
    search: (query.q ?? '').slice(0, 100),
  };
}

function boundedInteger(value: string | undefined, fallback: number, min: number, max: number): number {
  const parsed = value === undefined ? fallback : Number.parseInt(value, 10);
  return Number.isFinite(parsed) ? Math.min(Math.max(parsed, min), max) : fallback;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Fastify's per-request lines are at info: polling pages and scrapers would flood the log, so only warnings and errors pass. */
const quietLogger = (app: App, component: string): FastifyBaseLogger =>
  app.logger.child({ component }, { level: app.logger.isLevelEnabled('warn') ? 'warn' : app.logger.level }) as FastifyBaseLogger;

/** `worker --metrics-port`: this process's metrics and a liveness probe, nothing else. */
export async function buildMetricsServer(app: App): Promise<FastifyInstance> {
  const server = Fastify({ loggerInstance: quietLogger(app, 'metrics') });
  server.get('/healthz', async () => ({ status: 'ok' }));
  server.get('/metrics', async (_request, reply) =>
    reply.type(app.metrics.registry.contentType).send(await app.metrics.registry.metrics()),
  );
  return server;
}
