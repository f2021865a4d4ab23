import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { startCli, type CliResult } from '../support/cli.js';
import { waitFor } from '../ops/ops-helpers.js';

export type ServeProcess = ChildProcess & { output: () => CliResult; url: string };

/** Starts `serve` as a real process on a free port and waits for the address it prints. */
export async function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = startCli(['serve', '--port', '0', ...args], env);
  const url = await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${child.output().stderr}`);
      return /operations console at (http:\/\/\S+?)\/? /.exec(child.output().stdout)?.[1];
    },
    30_000,
    'the console to listen',
  );
  return Object.assign(child, { url: url.replace('0.0.0.0', '127.0.0.1') });
}

/** SIGTERM (graceful); `signal: 'SIGKILL'` where a graceful stop cannot finish (its Redis was taken away). */
export async function stopServe(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill(signal);
  await closed;
}

/** Uploads a file as the console's form does (a CSV's text, or a workbook's bytes). */
export async function uploadCsv(
  url: string,
  name: string,
  content: string | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: typeof content === 'string' ? 'text/csv' : 'application/octet-stream' }), name);
  return fetch(`${url}/api/batches`, { method: 'POST', body: form, headers });
}

export async function getJson<T = Record<string, unknown>>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The value of one sample of a Prometheus text exposition (0 when absent). */
export function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/**
 * One HTTP request with what fetch will not send: a Host header of the caller's choice (a DNS-rebound page
 * sends its own name), or a connection from another loopback address (another client, as the console sees it).
 */
export async function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    sent.once('error', reject);
    sent.end(options.body);
  });
}
