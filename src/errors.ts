/**
 * Every error a user can meet has its own type, a message that says what to do, and the exit code
 * PRODUCT.md promises for `run`: 2 for usage errors, 1 for systemic failures.
 */
export abstract class BeneficiaryCheckError extends Error {
  abstract readonly exitCode: 1 | 2;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The user asked for something impossible: bad flag, unreadable file, missing column. Exit 2. */
export class UsageError extends BeneficiaryCheckError {
  readonly exitCode = 2 as const;
}

export class ConfigError extends UsageError {}

export class InputFileError extends UsageError {}

/** The report cannot be written where it was asked for: found before the first inquiry whenever possible. */
export class OutputPathError extends UsageError {}

/** Which column holds what is for a person to say (the flags, or the console's choice of columns): `choice` says why, for the console. */
export class ColumnChoiceError extends UsageError {
  constructor(
    message: string,
    private choiceText: string,
  ) {
    super(message);
  }

  /** What the person is to choose, short, for a place that then offers the choice (the console's column form). */
  get choice(): string {
    return this.choiceText;
  }

  /** Said after both the message and the choice: what the reader of the file knows and the columns do not (a workbook's other sheets). */
  addContext(text: string): void {
    this.message += ` ${text}`;
    this.choiceText += `. ${text}`;
  }
}

export class MissingColumnsError extends ColumnChoiceError {
  /** `header`: the header's columns as they may be shown (masked and cut by the caller). */
  constructor(
    readonly missing: string[],
    header: string,
    /** Said after the usual fix, when the header row itself looks wrong (a title above the real header). */
    hint = '',
  ) {
    super(
      `required column(s) missing: ${missing.join(', ')}; the header has: ${header}. Rename the column or map it with --bank-column / --account-column / --name-column.${hint}`,
      `required column(s) missing: ${missing.join('; ')}`,
    );
  }
}

/** Something outside the row failed: Redis, the provider, the login. Exit 1. */
export class SystemicError extends BeneficiaryCheckError {
  readonly exitCode = 1 as const;
}

/** Redis cannot be reached (at the start, or for longer than REDIS_UNAVAILABLE_TIMEOUT during work). */
export class RedisUnavailableError extends SystemicError {}

/** Redis refuses writes because it reached its `maxmemory` (policy `noeviction`): nothing can be stored until it has room. */
export class RedisFullError extends SystemicError {}

/** Redis refuses new connections because it has `maxclients` of them: a worker's own connection cannot open. */
export class RedisClientLimitError extends SystemicError {}

/**
 * A batch this process was working on is gone from Redis (a restart without persistence, FLUSHALL, eviction):
 * not the user's mistake (exit 1, not 2), and the next start makes it anew.
 */
export class BatchVanishedError extends SystemicError {
  constructor(
    readonly batchId: string,
    options?: { cause?: unknown },
  ) {
    super(
      `batch ${batchId} vanished from Redis while it was being checked: Redis lost its data (restarted without persistence, flushed, or evicting keys under maxmemory). ` +
        'Check that Redis persists its data (appendonly yes) and that maxmemory-policy is noeviction; then run the same command again: it starts the file over',
      options,
    );
  }
}

/** The provider refused the credentials (or answered login in a way that cannot succeed by retrying). */
export class LoginRejectedError extends SystemicError {
  constructor(
    providerMessage: string,
    readonly statusCode: number | undefined,
  ) {
    super(`login failed: ${providerMessage}`);
  }
}

/** Login could not be completed for a reason that may pass (network, 5xx, timeout). */
export class LoginUnavailableError extends SystemicError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`login failed: ${reason}`, options);
  }
}

/** A fresh token was refused straight away: retrying rows cannot help. */
export class TokenRejectedError extends SystemicError {}

/** A finished batch was expected (export): its answers are not all in yet. */
export class BatchUnfinishedError extends SystemicError {}

/** Another process took over work this one was doing (its lease expired): this process stops it. */
export class WorkTakenOverError extends SystemicError {}

export class BatchNotFoundError extends UsageError {
  constructor(readonly batchId: string) {
    super(`no batch with id ${JSON.stringify(batchId)}; \`beneficiary-check status\` lists the known batches`);
  }
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
