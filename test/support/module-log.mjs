/**
 * A preload (`NODE_OPTIONS=--import <this file>`) that writes every module a process resolves through
 * `import` (its URL, one a line) to the file named by BC_TEST_MODULE_LOG: what a command loads.
 */
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.BC_TEST_MODULE_LOG, `${resolved.url}\n`);
  return resolved;
}
