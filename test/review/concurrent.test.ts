import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionAccountField, redisKeys } from '../../src/redis/keys.js';
import { runCli, startCli, waitForExit } from '../support/cli.js';
import { startServe, stopServe, type ServeProcess } from '../console/console-helpers.js';
import { startWorld, type World } from '../history/world.js';
import { ACCOUNTS, EXPORT, reviewedCopy, summaryOf, trailOf } from './review-helpers.js';

/**
 * The console and a `review` import deciding the same row at the same time. The console keeps deciding from
 * before the import starts until after it ended, each time saying which decision it saw (as the page does):
 * every one of its decisions is recorded, in the order made. The import's report showed no decision on the row,
 * and one stands by the time it writes: it is refused, not recorded over the console's (a copy older than a
 * decision never changes it). One decision stands: the console's last.
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

  it('records every decision of the console in order, refuses the older copy, and the last one stands', async () => {
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
    let seen: string | null = null;
    const decideInConsole = async () => {
      while (deciding) {
        sent += 1;
        const response = await fetch(`${serve!.url}/api/batches/${batchId}/rows/2/decision`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-user': 'budi' },
          body: JSON.stringify({ decision: 'APPROVED', note: `console ${sent}`, seen }),
        });
        expect(response.status).toBe(201);
        seen = ((await response.json()) as { row: { decision: { decidedAt: string } } }).row.decision.decidedAt;
      }
    };
    const consoleDeciding = decideInConsole();
    while (sent < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const importing = startCli(['review', reviewed, '--by', 'ratna'], env);
    const code = await waitForExit(importing);
    const afterImport = sent;
    // A few more from the console once the import is done.
    while (sent < afterImport + 3) await new Promise((resolve) => setTimeout(resolve, 10));
    deciding = false;
    await consoleDeciding;
    expect(code, importing.output().stderr).toBe(3);
    expect(importing.output().stdout).toContain('0 recorded, 0 unchanged, 1 refused');
    expect(importing.output().stdout).toMatch(/refused: the decision changed after this report was written \(now APPROVED by budi, /);

    const trail = await trailOf(redis, prefix);
    expect(trail).toHaveLength(sent);
    expect(trail.some((entry) => entry.decided_by === 'ratna')).toBe(false);
    // In the order made: the console's notes count up.
    expect(trail.map((entry) => Number(entry.note!.replace('console ', '')))).toEqual(
      Array.from({ length: sent }, (_, index) => index + 1),
    );
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
