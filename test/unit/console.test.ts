import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkBind, checkConsoleToken, isAddressedToLoopback, isAuthorized, isLoopback } from '../../src/console/access.js';
import { clientOf, FailedAttempts, FAILURE_REFILL_MS, FREE_FAILURES } from '../../src/console/failed-attempts.js';
import { escapeHtml, html, scriptJson } from '../../src/console/html.js';
import { maskDigitRuns } from '../../src/logging/logger.js';
import { maskJobData } from '../../src/console/queue-board.js';
import { checkUploadName, safeFileName, uploadPaths } from '../../src/console/uploads.js';
import { signNotice, webhookTarget } from '../../src/notify/notice.js';
import { UsageError } from '../../src/errors.js';

describe('access', () => {
  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'console.example']) expect(isLoopback(host), host).toBe(false);
  });

  it('refuses a non-local bind without a token', () => {
    expect(() => checkBind('0.0.0.0', undefined)).toThrow(UsageError);
    expect(() => checkBind('0.0.0.0', 'secret')).not.toThrow();
    expect(() => checkBind('127.0.0.1', undefined)).not.toThrow();
  });

  it('knows a request addressed to this machine by its Host header, port or not', () => {
    for (const host of ['localhost:8080', 'LOCALHOST', '127.0.0.1:1', '127.9.9.9', '[::1]:8080', '[::1]'])
      expect(isAddressedToLoopback(host), host).toBe(true);
    for (const host of [
      undefined,
      '',
      'attacker.example:8080',
      'localhost.attacker.example',
      '127.0.0.1.nip.io',
      '[::2]:80',
      '0.0.0.0:8080',
    ])
      expect(isAddressedToLoopback(host), String(host)).toBe(false);
  });

  it('takes a CONSOLE_TOKEN of 32 random characters or more, nothing shorter, nothing made up', () => {
    expect(() => checkConsoleToken(undefined)).not.toThrow();
    expect(() => checkConsoleToken('3f9a1c5e8b7d2046aa193f9a1c5e8b7d')).not.toThrow();
    for (const token of ['a', '3f9a1c5e8b7d2046aa193f9a1c5e8b7', 'x'.repeat(64), 'change-me-console-token-0123456789abcdef'])
      expect(() => checkConsoleToken(token), token).toThrow(UsageError);
  });

  it('counts wrong tokens per address: 10 at once, then one every 6 s; IPv6 by its /64', () => {
    let now = 1_000_000;
    const attempts = new FailedAttempts(() => now);
    for (let failure = 1; failure < FREE_FAILURES; failure += 1) expect(attempts.failed('10.0.0.1')).toBe(false);
    expect(attempts.failed('10.0.0.1')).toBe(true);
    expect(attempts.waitFor('10.0.0.1')).toBe(FAILURE_REFILL_MS);
    expect(attempts.waitFor('::ffff:10.0.0.1')).toBe(FAILURE_REFILL_MS);
    expect(attempts.waitFor('10.0.0.2')).toBe(0);
    now += FAILURE_REFILL_MS / 2;
    expect(attempts.waitFor('10.0.0.1')).toBe(FAILURE_REFILL_MS / 2);
    now += FAILURE_REFILL_MS / 2;
    expect(attempts.waitFor('10.0.0.1')).toBe(0);
    expect(attempts.failed('10.0.0.1')).toBe(true);
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe(clientOf('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientOf('2001:db8:1:2::1')).not.toBe(clientOf('2001:db8:1:3::1'));
  });

  it('takes the token as bearer or as basic password, nothing else', () => {
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    expect(isAuthorized('Bearer s3cret', 's3cret')).toBe(true);
    expect(isAuthorized('bearer s3cret', 's3cret')).toBe(true);
    expect(isAuthorized(basic('ops', 's3cret'), 's3cret')).toBe(true);
    expect(isAuthorized(basic('', 's3cret'), 's3cret')).toBe(true);
    expect(isAuthorized(basic('s3cret', 'x'), 's3cret')).toBe(false);
    expect(isAuthorized('Bearer s3cre', 's3cret')).toBe(false);
    expect(isAuthorized('Bearer s3cret2', 's3cret')).toBe(false);
    expect(isAuthorized('s3cret', 's3cret')).toBe(false);
    expect(isAuthorized(undefined, 's3cret')).toBe(false);
    expect(isAuthorized('Bearer ', '')).toBe(false);
  });
});

describe('pages', () => {
  it('escapes every interpolated value, in text and attributes', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&\``)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;&#96;');
    const name = '"><script>alert(1)</script>';
    expect(html`<td title="${name}">${name}</td>`.value).toBe(
      '<td title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>',
    );
    expect(html`<tr>${['<a>', '<b>'].map((value) => html`<td>${value}</td>`)}</tr>`.value).toBe(
      '<tr><td>&lt;a&gt;</td><td>&lt;b&gt;</td></tr>',
    );
  });

  it('writes JSON into a script element without a way out of it', () => {
    const text = scriptJson('</script><script>alert(1)</script>').value;
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toBe('</script><script>alert(1)</script>');
  });

  it('masks digit runs that could be account numbers in free text', () => {
    expect(maskDigitRuns('account number "0012345678AB" contains characters other than digits')).toBe(
      'account number "******5678AB" contains characters other than digits',
    );
    expect(maskDigitRuns('SEL-0001, 28 characters')).toBe('SEL-0001, 28 characters');
  });

  it('shows job data of the dashboard with the account masked', () => {
    expect(maskJobData({ batchId: 'b1', accountKey: '014:0012345678' })).toEqual({ batchId: 'b1', accountKey: '014:******5678' });
    expect(maskJobData({ batchId: 'b1', body: '{}' })).toEqual({ batchId: 'b1', body: '{}' });
    expect(maskJobData(null)).toBeNull();
  });
});

describe('uploads', () => {
  it('accepts CSV and XLSX names only and keeps them inside the reports folder', () => {
    expect(checkUploadName('Payouts.CSV')).toBe('Payouts.CSV');
    expect(checkUploadName('payouts.xlsx')).toBe('payouts.xlsx');
    expect(() => checkUploadName('payouts.xls')).toThrow('only CSV (.csv) and Excel workbooks (.xlsx)');
    expect(() => checkUploadName('')).toThrow('no file name');
    expect(safeFileName('../../etc/passwd.csv')).toBe('passwd.csv');
    expect(safeFileName('C:\\Users\\ops\\<evil>.csv')).toBe('_evil_.csv');
    const paths = uploadPaths('/srv/reports', '../x/partners.csv');
    expect(paths.inputPath).toMatch(/^\/srv\/reports\/inputs\/\d{8}T\d{6}Z-[0-9a-f]{6}--partners\.csv$/);
    expect(paths.reportPath).toMatch(/^\/srv\/reports\/\d{8}T\d{6}Z-[0-9a-f]{6}--partners\.reconciled\.csv$/);
    expect(uploadPaths('/srv/reports', 'partners.xlsx', 'xlsx').reportPath).toMatch(/--partners\.reconciled\.xlsx$/);
  });
});

describe('completion notice signature', () => {
  it('is the hex HMAC-SHA256 of "<timestamp>.<exact body>"', () => {
    const body = '{"event":"batch.finished","batchId":"b1"}';
    expect(signNotice(body, 'k', 1_800_000_000)).toBe(`sha256=${createHmac('sha256', 'k').update(`1800000000.${body}`).digest('hex')}`);
    expect(signNotice(`${body} `, 'k', 1_800_000_000)).not.toBe(signNotice(body, 'k', 1_800_000_000));
    expect(signNotice(body, 'k', 1_800_000_001)).not.toBe(signNotice(body, 'k', 1_800_000_000));
  });

  it('sends the userinfo of the webhook URL as HTTP basic credentials, never in the URL', () => {
    expect(webhookTarget('https://hooks.example/in?x=1')).toEqual({ url: 'https://hooks.example/in?x=1', authorization: undefined });
    expect(webhookTarget('https://ops:p%40ss@hooks.example/in')).toEqual({
      url: 'https://hooks.example/in',
      authorization: `Basic ${Buffer.from('ops:p@ss').toString('base64')}`,
    });
  });
});
