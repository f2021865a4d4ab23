import { resolve } from 'node:path';
import { openRuntime } from '../app/runtime.js';
import { localTime } from '../clock/local-time.js';
import { describeReviewImport } from '../review/review-file.js';
import { exportTrail } from '../review/trail-export.js';
import { columnsFrom, FAIL_ON_EXIT_CODE, type ColumnFlags, type CommonFlags } from './commands.js';
import { notice, showable } from '../logging/logger.js';

/**
 * `review <reviewed-report> --by NAME`: records the decisions written in a report's `decision` column. Needs
 * only Redis. Exit 0 when nothing was refused, 3 when a row was (the others are recorded), 2 for a file it
 * cannot read (nothing recorded).
 */
export async function reviewCommand(file: string, flags: CommonFlags & ColumnFlags & { by: string }): Promise<number> {
  const { app, shutdown, guard } = await openRuntime(flags, { provider: 'none' });
  try {
    const path = resolve(file);
    const result = await guard(app.importReview({ path, reviewer: flags.by, source: `review ${path}`, columns: columnsFrom(flags) }));
    // Masked as the watched folder's review.txt is: a file's name or a reviewer's may hold an account number.
    process.stdout.write(showable(describeReviewImport(path, flags.by.trim(), result, (at) => localTime(at, app.config.displayTimeZone))));
    const warning = await app.decisions.persistenceWarning();
    if (warning !== undefined) notice(warning);
    return result.refused.length > 0 ? FAIL_ON_EXIT_CODE : 0;
  } finally {
    await shutdown();
  }
}

/** `decisions export --out FILE`: the audit trail of every decision and its changes, CSV or XLSX. Needs only Redis. */
export async function decisionsExportCommand(flags: CommonFlags & { out: string }): Promise<number> {
  const { app, shutdown, guard } = await openRuntime(flags, { provider: 'none' });
  try {
    const written = await guard(exportTrail(app.decisions, flags.out, app.config.displayTimeZone));
    process.stdout.write(`${written} audit entr${written === 1 ? 'y' : 'ies'} written to ${resolve(flags.out)}\n`);
    return 0;
  } finally {
    await shutdown();
  }
}
