import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, maskDigitRuns, showable } from '../../src/logging/logger.js';
import { redactUrl, redactUrls } from '../../src/logging/redact-url.js';

describe('free text is masked the way the product reads an account number', () => {
  it('masks digit groups written with spaces, dots or dashes, and account numbers in file names', () => {
    expect(maskDigitRuns('ref 5270 1234 56')).toBe('ref ******3456');
    expect(maskDigitRuns('ref 5270-1234-56 and 5270.1234.56')).toBe('ref ******3456 and ******3456');
    expect(maskDigitRuns('payroll 5270123456.csv')).toBe('payroll ******3456.csv');
    expect(maskDigitRuns('/data/inbox/payroll 5270 1234 56.csv')).toBe('/data/inbox/payroll ******3456.csv');
    expect(maskDigitRuns('rek\u00A05270\u00A01234\u00A056')).toBe('rek\u00A0******3456');
    expect(maskDigitRuns('acct5270123456x')).toBe('acct******3456x');
    // Typed carelessly: two spaces, separators mixed.
    expect(maskDigitRuns('ref 5270  1234-56.')).toBe('ref ******3456.');
    // Fullwidth digits, thin and other spaces, en/em dashes and the minus sign, slashes and underscores.
    expect(maskDigitRuns('ref \uFF15\uFF12\uFF17\uFF10\uFF11\uFF12\uFF13\uFF14\uFF15\uFF16')).toBe('ref ******\uFF13\uFF14\uFF15\uFF16');
    for (const separator of ['\u2009', '\u2002', '\u3000', '\u2013', '\u2014', '\u2212', '/', '_']) {
      expect(maskDigitRuns(`ref 5270${separator}1234${separator}56.`)).toBe('ref ******3456.');
    }
    expect(maskDigitRuns('payroll_5270_1234_56.csv')).toBe('payroll_******3456.csv');
    // Characters nobody sees between groups (an outside attack); a comma separates a list (a cluster's nodes).
    expect(maskDigitRuns('acct 5270\u200B1234\u200D56')).toBe('acct ******3456');
    expect(maskDigitRuns('rows 1203, 1204 and 1205')).toBe('rows 1203, 1204 and 1205');
    expect(maskDigitRuns('nodes 127.0.0.1:30001,127.0.0.1:30002')).toBe('nodes 127.0.0.1:30001,127.0.0.1:30002');
    for (const separator of ['\u00AD', '\n', '\t', '\u2028', '\u2062', '\uFE0F', '\u00B7', '\u30FB', '\uFF0E', '\u180E']) {
      expect(maskDigitRuns(`ref 5270${separator}1234${separator}56.`)).toBe('ref ******3456.');
    }
    // An account number written as four dot-separated groups, as an IPv4 address is, in a file name.
    expect(maskDigitRuns('payroll 527.012.34.56.csv')).toBe('payroll ******3456.csv');
    expect(maskDigitRuns('/in/10.123.45.67.csv')).toBe('/in/*****4567.csv');
    // Short groups stay: counts, codes, a few digits of a reference.
    expect(maskDigitRuns('SEL-0001, 28 characters, bank 014, row 12 of 345')).toBe('SEL-0001, 28 characters, bank 014, row 12 of 345');
  });

  it("leaves this tool's own ids, digests, timestamps and IPv4 addresses (in a URL, or with a port) whole", () => {
    const kept = [
      'batch b20261121-065203-3f9a1c',
      'job b20261121-065203-3f9a1c.3f9a1c2b4d5e6f70.r2',
      '/reports/inputs/20261121T065203Z-3f9a1c--payouts.csv',
      'queue inquiries-sandbox-1234567890abcdef',
      'received 2026-11-21T06:52:03.120Z, finished 2026-11-21T06:52:09Z',
      'from 192.168.100.200:443 and http://127.0.0.1:6379 and redis://ops@10.0.0.5/0',
      'connect ECONNREFUSED 127.0.0.1:6379',
      'worker process 2 (pid 4194301) exited',
      // A time as the tool shows it to people.
      'decided by ratna (2026-11-30 16:40:42 WIB)',
    ];
    for (const text of kept) expect(maskDigitRuns(text)).toBe(text);
    // An account number beside them is still masked.
    expect(maskDigitRuns('b20261121-065203-3f9a1c: 5270123456 at 2026-11-21T06:52:03Z')).toBe(
      'b20261121-065203-3f9a1c: ******3456 at 2026-11-21T06:52:03Z',
    );
    expect(maskDigitRuns('123.456.789.012')).toBe('********9012');
  });
});

describe('URLs as they may be shown', () => {
  it('hides the password of the userinfo and secret-looking query values', () => {
    expect(redactUrl('https://ops:s3cret-pw@hooks.example/in?token=abc123&batch=1')).toBe(
      'https://ops:***@hooks.example/in?token=***&batch=1',
    );
    expect(redactUrl('https://hooks.example/in?api_key=k&sig=s&code=c')).toBe('https://hooks.example/in?api_key=***&sig=***&code=***');
    expect(redactUrl('https://hooks.example/in')).toBe('https://hooks.example/in');
    expect(redactUrl('https://t0ken-as-user@hooks.example/in')).toBe('https://***@hooks.example/in');
    expect(redactUrl('htp//t0ken-as-user@host')).toBe('htp//***@host');
    expect(redactUrl('htp//ops:s3cret-pw@host')).toBe('htp//ops:***@host');
    expect(redactUrls('Request cannot be constructed from a URL that includes credentials: http://ops:s3cret-pw@127.0.0.1:9/hook')).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://ops:***@127.0.0.1:9/hook',
    );
    expect(showable('failed https://ops:pw@h.example/x?token=t for payroll 5270123456.csv')).toBe(
      'failed https://ops:***@h.example/x?token=*** for payroll ******3456.csv',
    );
  });
});

describe('log lines', () => {
  it('show messages, fields and errors masked and without URL secrets', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', { format: 'json', destination: destination as never });
    logger.warn(
      {
        file: 'payroll 5270 1234 56.csv',
        nested: { report: '/out/payroll 5270123456.reconciled.csv' },
        batchId: 'b20261121-065203-3f9a1c',
        answered: 1234567,
      },
      'refused: /in/payroll 5270123456.csv is empty',
    );
    logger.error({ err: new Error('cannot reach https://ops:s3cret-pw@hooks.example/in?token=abc for 5270-1234-56') }, 'delivery failed');
    const text = lines.join('');
    expect(text).not.toMatch(/5270123456|5270 1234 56|5270-1234-56|s3cret-pw|token=abc/);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({
      file: 'payroll ******3456.csv',
      nested: { report: '/out/payroll ******3456.reconciled.csv' },
      batchId: 'b20261121-065203-3f9a1c',
      answered: 1234567,
      msg: 'refused: /in/payroll ******3456.csv is empty',
    });
    expect((second!.err as { message: string }).message).toBe('cannot reach https://ops:***@hooks.example/in?token=*** for ******3456');
  });
});
