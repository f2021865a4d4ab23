import { CommanderError } from 'commander';
import { BeneficiaryCheckError } from '../errors.js';
import { showable } from '../logging/logger.js';

const USAGE_EXIT_CODE = 2;

/**
 * The one place an error ends a command: a typed error is one line and its own exit code (1 systemic,
 * 2 usage); commander has printed its usage error already; anything else is a bug in beneficiary-check,
 * shown once with its stack, exit 1.
 */
export function reportError(error: unknown, write: (text: string) => void = (text) => process.stderr.write(text)): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
  }
  if (error instanceof BeneficiaryCheckError) {
    write(`beneficiary-check: ${showable(error.message)}\n`);
    return error.exitCode;
  }
  write(
    `beneficiary-check: unexpected error (a bug in beneficiary-check, please report it with this output): ${showable(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
  );
  return 1;
}
