import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionAccountField, redisKeys } from '../../src/redis/keys.js';
import { runCli, startCli, waitForExit } from '../support/cli.js';
import { startServe, stopServe, type ServeProcess } from '../console/console-helpers.js';
import { startWorld, type World } from '../history/world.js';
import { ACCOUNTS, EXPORT, reviewedCopy, summaryOf, trailOf } from './review-helpers.js';

/**
 * The console and a `review` import deciding the same row at the same time: every decision is recorded, in
 * the order made, and one stands: the last. The console keeps deciding from before the import starts until
 * after it ended, so the import's write lands among the console's.
 */
describe('decisions from the console and a review import at once', () => {
  let world: World;
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    world = await startWorld('concurrent', Object.values(ACCOUNTS), { CONSOLE_USER_HEADER: 'X-Forwarded-User' });
  });
  afterAll(async () => {
    await stopServe(serve);
    await world?.close();
  });

  it('records both, in order, and the last one stands', async () => {
    const { folder, env, redis, prefix } = world;
    const input = join(folder, 'payouts.csv');
    await writeFile(input, EXPORT);
    expect((await runCli(['run', input], env)).code).toBe(0);
    const report = join(folder, 'payouts.reconciled.csv');
    const batchId = (await summaryOf(report)).batchId as string;
    const reviewed = join(folder, 'reviewed.csv');
    await reviewedCopy(report, reviewed, { 'B-2': 'REJECTED' }, { 'B-2': 'from the file' });
    serve = await startServe([], env);

    let deciding = true;
    let sent = 0;
    const decideInConsole = async () => {
      while (deciding) {
        sent += 1;
        const response = await fetch(`${serve!.url}/api/batches/${batchId}/rows/2/decision`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-user': 'budi' },
          body: JSON.stringify({ decision: 'APPROVED', note: `console ${sent}` }),
        });
        expect(response.status).toBe(201);
      }
    };
    const consoleDeciding = decideInConsole();
    const importing = startCli(['review', reviewed, '--by', 'ratna'], env);
    const code = await waitForExit(importing);
    const afterImport = sent;
    // A few more from the console once the import is done.
    while (sent < afterImport + 3) await new Promise((resolve) => setTimeout(resolve, 10));
    deciding = false;
    await consoleDeciding;
    expect(code, importing.output().stderr).toBe(0);
    expect(importing.output().stdout).toContain('1 recorded, 0 unchanged, 0 refused');

    const trail = await trailOf(redis, prefix);
    expect(trail).toHaveLength(sent + 1);
    const fromFile = trail.findIndex((entry) => entry.decided_by === 'ratna');
    expect(fromFile).toBeGreaterThan(0);
    expect(fromFile).toBeLessThan(trail.length - 1);
    // In the order made: the console's notes count up around the import's entry, which replaced the one before it.
    const consoleNotes = trail.filter((entry) => entry.decided_by === 'budi').map((entry) => Number(entry.note!.replace('console ', '')));
    expect(consoleNotes).toEqual(Array.from({ length: sent }, (_, index) => index + 1));
    expect(trail[fromFile]).toMatchObject({
      event: 'CHANGED',
      decision: 'REJECTED',
      note: 'from the file',
      previous_decision: 'APPROVED',
      previous_by: 'budi',
    });
    expect(trail[fromFile + 1]).toMatchObject({ decision: 'APPROVED', previous_decision: 'REJECTED', previous_by: 'ratna' });
    const ids = trail.map((entry) => entry.id!);
    expect([...ids].sort(compareStreamIds)).toEqual(ids);

    // One standing decision on the facts: the last one made.
    const standing = JSON.parse(
      (await redis.hget(
        redisKeys(prefix).decisionsStanding(),
        decisionAccountField('sandbox', `${ACCOUNTS.close.bankCode}:${ACCOUNTS.close.accountNumber}`),
      ))!,
    ) as Array<Record<string, unknown>>;
    expect(standing).toHaveLength(1);
    const last = trail[trail.length - 1]!;
    expect(standing[0]).toMatchObject({ d: last.decision, by: last.decided_by, n: last.note, at: Number(last.id!.split('-')[0]) });
  });
});

function compareStreamIds(a: string, b: string): number {
  const [aTime, aSequence] = a.split('-').map(Number);
  const [bTime, bSequence] = b.split('-').map(Number);
  return aTime! - bTime! || aSequence! - bSequence!;
}
