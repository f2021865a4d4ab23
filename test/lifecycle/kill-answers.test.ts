import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticAccounts } from '../../src/sandbox/synthetic-accounts.js';
import { killWhileAnsweringThenRerun, lifecycleSuite, payoutFile } from './lifecycle-helpers.js';

/**
 * `kill -9` of `run` while answers come in, then the same command again. The killed process's in-flight
 * jobs come back only once their lock expires (BullMQ's stalled-job check, 30-60 s): this test waits for
 * that, in a file of its own so that it runs beside the others.
 */
const ACCOUNTS = syntheticAccounts(60);
const CONCURRENCY = 2;

const suite = lifecycleSuite('kill-answers', { accounts: ACCOUNTS, latencyMs: { min: 5, max: 20 } });

describe('kill -9 of run while the answers come in', () => {
  it('the same command again asks only what had no answer: an account is asked twice only if it was in flight at the kill', {
    timeout: 120_000,
  }, async () => {
    const { folder } = suite;
    const { prefix, env } = suite.environment({ INQUIRY_RATE: '20/s', INQUIRY_CONCURRENCY: String(CONCURRENCY) });
    const file = join(folder, 'answers.csv');
    const out = join(folder, 'answers.reconciled.csv');
    const ids = await payoutFile(file, ACCOUNTS, 2, 'A');
    const { batchId, answeredAtKill } = await killWhileAnsweringThenRerun({
      suite,
      prefix,
      env,
      file,
      out,
      ids,
      accounts: ACCOUNTS.length,
      inFlight: CONCURRENCY,
      killWhen: (state) => state.produced && state.answered >= 15,
      rerunTimeoutMs: 110_000,
    });
    const summary = JSON.parse(await readFile(join(folder, 'answers.reconciled.summary.json'), 'utf8'));
    expect(summary).toMatchObject({ continued: true, continuation: 'continue', batchId });
    // This run's calls: one per account without an answer at the kill.
    expect(summary.calls).toBe(ACCOUNTS.length - answeredAtKill.size);
  });
});
