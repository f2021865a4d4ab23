#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { reportError } from './report-error.js';

/** dist/src/cli/main.js -> the package's own package.json. */
const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Each command loads its modules when it runs, not when the program starts: `--version`, `--help` and a
 * small `run` do not pay for the console (Fastify, bull-board), the workbook reader (exceljs) or BullMQ
 * where they do not use them (loading every command's modules cost a small file about 470 ms).
 */
const commands = () => import('./commands.js');

/** Set by the command that ran; commands return their exit code instead of exiting themselves. */
let exitCode = 0;
const exitWith = (code: number) => void (exitCode = code);

function buildProgram(): Command {
  const program = new Command('beneficiary-check')
    .description('Validates payout beneficiaries in bulk: a CSV in, a bank-account inquiry per row, a reconciliation CSV out.')
    .version(version, '-V, --version', 'print the version and exit')
    .exitOverride()
    .showHelpAfterError();

  const common = (command: Command) =>
    command
      .option('--rate <rate>', 'inquiries ceiling across all workers, e.g. 20/s or 600/min (INQUIRY_RATE)')
      .option(
        '--concurrency <n>',
        'most concurrent inquiries per process (INQUIRY_CONCURRENCY; default: 16 to 256, adapted to the provider latency)',
      )
      // Read as H2H_ENV is (any case), and checked with it: one rule, one message.
      .addOption(new Option('--env <environment>', 'provider environment, sandbox or production, in any case (H2H_ENV)'));
  const columns = (command: Command) =>
    command
      .option('--bank-column <name>', 'the bank code column, when its name is no known alias or several columns could be it')
      .option('--account-column <name>', 'the account number column (likewise)')
      .option('--name-column <name>', 'the expected holder name column (likewise; none: check the accounts alone)');
  const metrics = (command: Command) =>
    command
      .option('--metrics-port <n>', "serve this process's Prometheus /metrics and /healthz on this port")
      .option('--metrics-host <address>', 'address of the metrics endpoint', '127.0.0.1');
  const reuse = (command: Command) =>
    command.option(
      '--reuse-answers <age>',
      'take an account answered (definitively) within this age, e.g. 24h, in any batch at the same provider address, from history instead of asking again (REUSE_ANSWERS)',
    );

  reuse(common(columns(program.command('run <file>'))))
    .description('check a CSV or XLSX file end to end: enqueue, process, wait, write the reconciliation report')
    .option(
      '--out <path>',
      'the reconciliation report: CSV, or a workbook when it ends in .xlsx (default: <file>.reconciled.csv beside the input; OUTPUT_FORMAT)',
    )
    .option('--json', 'print the summary as one JSON document on stdout (progress and logs stay on stderr)')
    .option(
      '--fail-on <results>',
      'exit 3 when rows of these results exist, e.g. FAILED,NO_MATCH; NEEDS_REVIEW: rows a person has not decided yet; REJECTED: rows a person said not to pay',
    )
    .action(async (file: string, flags) => exitWith(await (await commands()).runCommand(file, flags)));
  reuse(common(columns(program.command('enqueue <file>'))))
    .description('queue a CSV or XLSX file for the workers; prints the batch id')
    .action(async (file: string, flags) => exitWith(await (await commands()).enqueueCommand(file, flags)));
  metrics(common(program.command('worker')))
    .description('run inquiry workers until stopped (start more processes to scale)')
    .action(async (flags) => exitWith(await (await commands()).workerCommand(flags)));
  reuse(common(program.command('resume <batch-id>')))
    .description('ask what a batch is missing (unanswered or FAILED rows), then write its report')
    .option('--out <path>', 'the reconciliation report, CSV or .xlsx (default: beside the source file)')
    .option('--json', 'print the summary as one JSON document on stdout')
    .option(
      '--fail-on <results>',
      'exit 3 when rows of these results exist, e.g. FAILED,NO_MATCH; NEEDS_REVIEW: rows a person has not decided yet; REJECTED: rows a person said not to pay',
    )
    .action(async (batchId: string, flags) => exitWith(await (await commands()).resumeCommand(batchId, flags)));
  common(program.command('export <batch-id>'))
    .description("write (or re-write) a finished batch's reconciliation CSV")
    .requiredOption('--out <path>', 'the reconciliation report: CSV, or a workbook when it ends in .xlsx')
    .action(async (batchId: string, flags) => exitWith(await (await commands()).exportCommand(batchId, flags)));
  common(program.command('status [batch-id]'))
    .description('progress of one batch, or of the most recent ones')
    .option('--json', 'one JSON document on stdout')
    .action(async (batchId: string | undefined, flags) => exitWith(await (await commands()).statusCommand(batchId, flags)));
  program
    .command('prune')
    .description(
      'remove finished batches (rows, answers, kept failed jobs), and keys of batches whose record is gone, from Redis; reports on disk stay; unfinished batches are never pruned',
    )
    .option('--older-than <age>', 'only batches finished at least this long ago: 0s, 12h, 30d (default: BATCH_RETENTION)')
    .action(async (flags) => exitWith(await (await import('./retention-commands.js')).pruneCommand(flags)));
  program
    .command('delete <batch-id>')
    .description('remove one batch from Redis (its report on disk stays)')
    .option('--force', 'remove an unfinished batch too, with its queued jobs (it cannot be resumed afterwards)')
    .action(async (batchId: string, flags) => exitWith(await (await import('./retention-commands.js')).deleteCommand(batchId, flags)));
  columns(program.command('review <reviewed-report>'))
    .description("record the decisions (APPROVED / REJECTED) a person wrote in a reconciliation report's decision column, CSV or XLSX")
    .requiredOption('--by <name>', 'the person who decided (recorded with every decision)')
    .action(async (file: string, flags) => exitWith(await (await import('./review-commands.js')).reviewCommand(file, flags)));
  program
    .command('decisions')
    .description("people's decisions on CLOSE_MATCH / NO_MATCH rows")
    .command('export')
    .description('write the audit trail of every decision and its changes (CSV, or XLSX by the name)')
    .requiredOption('--out <path>', 'the file to write: .csv or .xlsx')
    .action(async (flags) => exitWith(await (await import('./review-commands.js')).decisionsExportCommand(flags)));
  metrics(common(columns(program.command('watch <folder>'))))
    .description(
      'watched folder: CSV or XLSX files dropped into <folder>/inbox are checked; reports and changes in outbox/, inputs in archive/, refused files in failed/; reviewed reports dropped into <folder>/reviews are recorded',
    )
    .action(async (folder: string, flags) => exitWith(await (await import('./watch-command.js')).watchCommand(folder, flags)));
  metrics(common(columns(program.command('schedule'))))
    .description('register the nightly run and carry it out (SCHEDULE_CRON, SCHEDULE_TZ, SCHEDULE_SOURCE, SCHEDULE_OUTBOX)')
    .option('--list', 'show the schedule, the run in progress and the last runs, then exit')
    .option('--remove', 'remove the schedule, then exit')
    .action(async (flags) => exitWith(await (await import('./schedule-command.js')).scheduleCommand(flags)));
  common(program.command('serve'))
    .description('the operations console: web page, JSON API, queue dashboard (/queues), /metrics, /healthz, /readyz')
    .option('--port <n>', 'port to listen on', '8080')
    .option('--host <address>', 'address to listen on (any but loopback needs CONSOLE_TOKEN)', '127.0.0.1')
    .option('--queue-actions', 'let the queue dashboard retry, remove and pause jobs (read-only otherwise)')
    .action(async (flags) => exitWith(await (await import('./serve-command.js')).serveCommand(flags)));
  program
    .command('sandbox')
    .description('run the local provider emulator (login + inquiry) with knobs for latency, limits and faults')
    .option('--port <n>', 'port to listen on', '8080')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--accounts <file>', 'fixture CSV: bank_code,account_number,account_holder[,status,behaviour]')
    .option('--latency <ms>', 'inquiry latency in ms, or a range like 50-150')
    .option('--rate-limit <rate>', 'answer 429 above this rate, e.g. 50/s')
    .option('--token-lifetime <seconds>', 'access token lifetime')
    .option('--error-rate <share>', 'share of inquiries answered 5xx, 0..1')
    .option('--hang-rate <share>', 'share of inquiries never answered, 0..1')
    .option('--username <name>', 'login username', 'sandbox')
    .option('--password <secret>', 'login password', 'sandbox')
    .action(async (flags) => exitWith(await (await commands()).sandboxCommand(flags)));
  return program;
}

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error);
  }
}

const code = await main(process.argv);
// Exit explicitly: a library's idle socket or timer must not keep a finished command alive.
process.stdout.write('', () => process.exit(code));
