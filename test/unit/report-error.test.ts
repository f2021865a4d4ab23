import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { reportError } from '../../src/cli/report-error.js';
import { BatchNotFoundError, BatchVanishedError, RedisFullError } from '../../src/errors.js';

function reported(error: unknown): { code: number; text: string } {
  let text = '';
  const code = reportError(error, (chunk) => (text += chunk));
  return { code, text };
}

describe('how an error ends a command', () => {
  it('a typed error is one line with its own exit code', () => {
    expect(reported(new RedisFullError('Redis at redis://h:6379 is full'))).toEqual({
      code: 1,
      text: 'beneficiary-check: Redis at redis://h:6379 is full\n',
    });
    expect(reported(new BatchNotFoundError('b1')).code).toBe(2);
    // Lost by Redis mid-run is systemic, not the usage error of an unknown id.
    expect(reported(new BatchVanishedError('b1')).code).toBe(1);
  });

  it('anything else is a bug: said so, its stack shown once, exit 1', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'rowCount')");
    const { code, text } = reported(bug);
    expect(code).toBe(1);
    expect(text).toMatch(
      /^beneficiary-check: unexpected error \(a bug in beneficiary-check, please report it with this output\): TypeError: Cannot read properties/,
    );
    expect(text.split(bug.message)).toHaveLength(2);
    expect(text).toContain('report-error.test.ts');
    expect(reported('a string thrown').text).toContain(
      'unexpected error (a bug in beneficiary-check, please report it with this output): a string thrown',
    );
  });

  it('commander has printed its own message: exit 2 for a usage error, 0 for --help and --version', () => {
    expect(reported(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"))).toEqual({ code: 2, text: '' });
    expect(reported(new CommanderError(0, 'commander.version', '0.1.0'))).toEqual({ code: 0, text: '' });
  });
});
