import { BatchRetention, parseAge, type RemovedBatch } from '../batch/retention.js';
import { openRuntime } from '../app/runtime.js';
import { maskDigitRuns } from '../logging/logger.js';
import type { CommonFlags } from './commands.js';

const isOrphan = (batch: RemovedBatch): boolean => batch.orphanedKeys !== undefined || batch.orphanedJobs !== undefined;

function describeRemoved(batch: RemovedBatch): string {
  if (!isOrphan(batch)) {
    return `removed ${batch.batchId}  ${maskDigitRuns(batch.sourceName)}  ${batch.rows} rows  ${batch.finishedAt === undefined ? 'unfinished' : `finished ${new Date(batch.finishedAt).toISOString()}`}\n`;
  }
  const parts = [
    ...(batch.orphanedKeys === undefined
      ? []
      : [`${batch.orphanedKeys} key(s) left without their batch record (Redis lost the batch while it was worked on)`]),
    ...(batch.orphanedJobs === undefined
      ? []
      : [`${batch.orphanedJobs} queued job(s) left without their batch record (it expired, was lost or deleted)`]),
  ];
  return `removed ${batch.batchId}  orphaned: ${parts.join('; ')}\n`;
}

/**
 * `prune [--older-than 30d]`: removes finished batches whose last report is older than that (default
 * BATCH_RETENTION) from Redis, and the keys of batches whose record is gone; never an unfinished one.
 * Needs only Redis.
 */
export async function pruneCommand(flags: CommonFlags & { olderThan?: string }): Promise<number> {
  // A bad duration is a usage error before anything is opened.
  const olderThanMs = flags.olderThan === undefined ? undefined : parseAge(flags.olderThan);
  const { app, shutdown, guard } = await openRuntime(flags, { provider: 'none' });
  try {
    const age = olderThanMs ?? app.config.retention.batchMs;
    const removed = await guard(new BatchRetention(app.redis, app.keys, app.logger).prune(age, Date.now()));
    for (const batch of removed) process.stdout.write(describeRemoved(batch));
    const finished = removed.filter((batch) => !isOrphan(batch));
    const orphans = removed.length - finished.length;
    const rows = finished.reduce((sum, batch) => sum + batch.rows, 0);
    process.stdout.write(
      `${finished.length} finished batch(es) finished ${flags.olderThan ?? `${age / 86_400_000}d`} ago or more removed (${rows} rows); unfinished batches are never pruned\n`,
    );
    if (orphans > 0) process.stdout.write(`${orphans} orphaned batch(es) removed: keys or queued jobs whose batch record was gone\n`);
    // Decisions are records, not batches: --older-than never removes them; only their own retention does.
    const expired = await guard(app.decisions.sweep());
    if (expired > 0) process.stdout.write(`${expired} decision(s) older than DECISION_RETENTION removed, with their audit entries\n`);
    return 0;
  } finally {
    await shutdown();
  }
}

/** `delete <batch-id> [--force]`: removes one batch from Redis; an unfinished one only with --force. Needs only Redis. */
export async function deleteCommand(batchId: string, flags: CommonFlags & { force?: boolean }): Promise<number> {
  const { app, shutdown, guard } = await openRuntime(flags, { provider: 'none' });
  try {
    const removed = await guard(new BatchRetention(app.redis, app.keys, app.logger).delete(batchId, { force: flags.force === true }));
    process.stdout.write(describeRemoved(removed));
    return 0;
  } finally {
    await shutdown();
  }
}
