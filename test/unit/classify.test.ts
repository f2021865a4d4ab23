import { describe, expect, it } from 'vitest';
import { classifyInquiryResponse, MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../src/provider/classify.js';

const sent = { bankCode: '014', accountNumber: '0012345678' };
const record = {
  id: 7,
  bank_code: '014',
  account_number: '0012345678',
  account_holder: 'BUDI SANTOSO',
  status: 'SUCCESS',
  updated_at: '2026-11-21T06:52:03.123456Z',
  name: 'BCA',
  fee: '6500',
};
const ok = (data: unknown, extra: Record<string, unknown> = {}) => ({
  statusCode: 200,
  body: { error: false, message: 'Inquiry success', data, ...extra },
  retryAfter: undefined,
});

describe('classifyInquiryResponse', () => {
  it('verifies SUCCESS with the echo equal to what was sent, keeping every field', () => {
    expect(classifyInquiryResponse(sent, ok(record))).toEqual({
      kind: 'answer',
      outcome: {
        verdict: 'VERIFIED',
        reason: '',
        holderName: 'BUDI SANTOSO',
        bankName: 'BCA',
        fee: '6500',
        inquiryStatus: 'SUCCESS',
        inquiryId: '7',
        checkedAt: '2026-11-21T06:52:03.123456Z',
      },
    });
  });

  it('accepts SUCCESS in any case', () => {
    expect(classifyInquiryResponse(sent, ok({ ...record, status: 'success' }))).toMatchObject({ outcome: { verdict: 'VERIFIED' } });
  });

  it.each([
    ['another account number echoed', { ...record, account_number: '0012345679' }, 'echoed a different'],
    ['leading zero dropped in the echo', { ...record, account_number: '12345678' }, 'echoed a different'],
    ['another bank echoed', { ...record, bank_code: '009' }, 'echoed a different'],
    ['a bank code of another case echoed (codes are opaque)', { ...record, bank_code: 'bca' }, 'echoed a different'],
    ['unknown status', { ...record, status: 'PENDING' }, 'status PENDING is not SUCCESS'],
    ['no status', { ...record, status: undefined }, 'no status'],
    ['no holder name', { ...record, account_holder: '' }, 'no account holder name'],
  ])('never verifies when %s', (_, data, reason) => {
    const result = classifyInquiryResponse(sent, ok(data));
    expect(result).toMatchObject({ kind: 'answer', outcome: { verdict: 'FAILED' } });
    expect(result.kind === 'answer' && result.outcome.reason).toContain(reason);
  });

  it('compares the echoed bank code exactly, trimming only', () => {
    const lower = { bankCode: 'bank_jatim', accountNumber: '0012345678' };
    expect(classifyInquiryResponse(lower, ok({ ...record, bank_code: ' bank_jatim ' }))).toMatchObject({
      kind: 'answer',
      outcome: { verdict: 'VERIFIED' },
    });
    expect(classifyInquiryResponse(lower, ok({ ...record, bank_code: 'BANK_JATIM' }))).toMatchObject({
      kind: 'answer',
      outcome: { verdict: 'FAILED' },
    });
    expect(classifyInquiryResponse({ bankCode: 'BCA', accountNumber: '0012345678' }, ok({ ...record, bank_code: 'bca' }))).toMatchObject({
      kind: 'answer',
      outcome: { verdict: 'FAILED' },
    });
  });

  it('does not show the holder name of an account that was not asked', () => {
    const result = classifyInquiryResponse(sent, ok({ ...record, account_number: '999' }));
    expect(result.kind === 'answer' && result.outcome.holderName).toBeUndefined();
  });

  it('reads error: true as a business rejection with the provider message', () => {
    const result = classifyInquiryResponse(sent, {
      statusCode: 200,
      body: { error: true, message: 'Account not found', data: null },
      retryAfter: undefined,
    });
    expect(result).toEqual({ kind: 'answer', outcome: { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account not found' } });
  });

  it('masks an account number the provider echoes in its message or status: a reason outlives the batch in the account history', () => {
    const rejected = classifyInquiryResponse(sent, {
      statusCode: 200,
      body: { error: true, message: 'Account 8372615022 not found at bank BCA', data: null },
      retryAfter: undefined,
    });
    expect(rejected).toEqual({
      kind: 'answer',
      outcome: { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account ******5022 not found at bank BCA' },
    });
    const odd = classifyInquiryResponse(sent, ok({ ...record, status: 'BLOCKED 0012345678' }));
    expect(JSON.stringify(odd)).not.toContain('0012345678');
    expect(JSON.stringify(odd)).toContain('provider status BLOCKED ******5678 is not SUCCESS');
  });

  it('never shows the holder of a rejected answer; its id, time and a status that is not SUCCESS are kept', () => {
    const rejected = {
      statusCode: 200,
      body: { error: true, message: 'Account closed', data: { ...record, status: 'FAILED' } },
      retryAfter: undefined,
    };
    expect(classifyInquiryResponse(sent, rejected)).toEqual({
      kind: 'answer',
      outcome: {
        verdict: 'ACCOUNT_INVALID',
        reason: 'provider: Account closed',
        bankName: 'BCA',
        fee: '6500',
        inquiryStatus: 'FAILED',
        inquiryId: '7',
        checkedAt: record.updated_at,
      },
    });
  });

  it('a rejection beside a record that says SUCCESS is inconsistent: FAILED, showing neither the holder nor the SUCCESS', () => {
    const result = classifyInquiryResponse(sent, {
      statusCode: 200,
      body: { error: true, message: 'Account not found', data: record },
      retryAfter: undefined,
    });
    expect(result).toEqual({
      kind: 'answer',
      outcome: {
        verdict: 'FAILED',
        reason:
          'inconsistent answer: the provider rejected the account (Account not found) but its record says status SUCCESS; ask again later',
        bankName: 'BCA',
        fee: '6500',
        inquiryId: '7',
        checkedAt: record.updated_at,
      },
    });
  });

  it.each([
    ['zero-width characters', '\u200b\u200c\u200d\ufeff'],
    ['no-break and other spaces', '\u00a0\u2007\u202f\u3000'],
    ['control characters', '\u0007\u001b\u0000'],
    ['a Hangul filler and a blank Braille pattern', '\u3164\u2800'],
    ['a combining mark alone', '\u0301'],
  ])('a holder name of only invisible characters (%s) is no answer: FAILED, never compared', (_, holder) => {
    const result = classifyInquiryResponse(sent, ok({ ...record, account_holder: holder }));
    expect(result).toMatchObject({
      kind: 'answer',
      outcome: { verdict: 'FAILED', reason: expect.stringMatching(/^provider record has no account holder name/) },
    });
    expect(result.kind === 'answer' && result.outcome.holderName).toBeUndefined();
  });

  it.each([
    ['a dash', '-'],
    ['a dot', '.'],
    ['punctuation and symbols', '--- / *** ?'],
    ['digits', '0'],
  ])('a holder name with no letter (%s) is no answer: FAILED, never compared', (_, holder) => {
    const result = classifyInquiryResponse(sent, ok({ ...record, account_holder: holder }));
    expect(result).toMatchObject({
      kind: 'answer',
      outcome: { verdict: 'FAILED', reason: expect.stringMatching(/^provider record has no account holder name \(no letter/) },
    });
    expect(result.kind === 'answer' && result.outcome.holderName).toBeUndefined();
  });

  it('keeps a holder name with visible characters among invisible ones', () => {
    expect(classifyInquiryResponse(sent, ok({ ...record, account_holder: 'BUDI\u200bSANTOSO' }))).toMatchObject({
      outcome: { verdict: 'VERIFIED', holderName: 'BUDI\u200bSANTOSO' },
    });
  });

  it('a row that is not verified never shows a holder name, nor a status that reads SUCCESS', () => {
    for (const data of [
      { ...record, status: 'PENDING' },
      { ...record, account_number: '999' },
      { ...record, status: undefined },
    ]) {
      const result = classifyInquiryResponse(sent, ok(data));
      expect(result.kind === 'answer' && result.outcome.verdict).toBe('FAILED');
      expect(result.kind === 'answer' && result.outcome.holderName).toBeUndefined();
      expect(result.kind === 'answer' && result.outcome.inquiryStatus).not.toBe('SUCCESS');
    }
  });

  it('never reads a missing error flag as success', () => {
    const result = classifyInquiryResponse(sent, {
      statusCode: 200,
      body: { status: 'error', message: 'x', data: record },
      retryAfter: undefined,
    });
    expect(result).toMatchObject({ kind: 'answer', outcome: { verdict: 'FAILED' } });
  });

  it('fails an answer without an inquiry record', () => {
    const result = classifyInquiryResponse(sent, { statusCode: 200, body: { error: false, message: 'ok' }, retryAfter: undefined });
    expect(result.kind === 'answer' && result.outcome.verdict === 'FAILED' && result.outcome.reason).toContain('no inquiry record');
  });

  it.each([
    [undefined, 'text/html; charset=utf-8', 'a body that is not JSON (text/html; charset=utf-8)'],
    [undefined, undefined, 'a body that is not JSON (no content type)'],
    ['a JSON string', 'application/json', 'a body that is JSON but not an object'],
    [[record], 'application/json', 'a body that is JSON but not an object'],
  ])(
    "a 200 whose body is not a JSON object is not the provider's answer (a captive proxy, a gateway): transient, %j",
    (body, contentType, reason) => {
      const result = classifyInquiryResponse(sent, { statusCode: 200, body, retryAfter: undefined, contentType });
      expect(result).toEqual({
        kind: 'transient',
        reason: `provider answered HTTP 200 with ${reason}: a proxy's or a gateway's page, not the provider's answer`,
      });
    },
  );

  it.each([500, 502, 503, 504, 408])('treats HTTP %i as transient', (statusCode) => {
    expect(classifyInquiryResponse(sent, { statusCode, body: undefined, retryAfter: undefined }).kind).toBe('transient');
  });

  it('treats 401 as unauthorized and 429 as rate limited with Retry-After', () => {
    expect(
      classifyInquiryResponse(sent, { statusCode: 401, body: { error: true, message: 'Unauthenticated.' }, retryAfter: undefined }),
    ).toEqual({
      kind: 'unauthorized',
      message: 'Unauthenticated.',
    });
    expect(classifyInquiryResponse(sent, { statusCode: 429, body: {}, retryAfter: '3' })).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 3000,
    });
    expect(classifyInquiryResponse(sent, { statusCode: 429, body: {}, retryAfter: undefined })).toEqual({
      kind: 'rate_limited',
      retryAfterMs: undefined,
    });
  });

  it.each([
    ['30 days in seconds', '2592000', 2_592_000_000],
    ['past what a timer can hold', '99999999999', 99_999_999_999_000],
  ])('caps the hold of a Retry-After of %s at MAX_RETRY_AFTER_MS, saying what was asked', (_, header, askedMs) => {
    expect(MAX_RETRY_AFTER_MS).toBe(600_000);
    expect(classifyInquiryResponse(sent, { statusCode: 429, body: {}, retryAfter: header })).toEqual({
      kind: 'rate_limited',
      retryAfterMs: MAX_RETRY_AFTER_MS,
      askedMs,
    });
    expect(classifyInquiryResponse(sent, { statusCode: 429, body: {}, retryAfter: '600' })).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 600_000,
    });
  });

  it("fails other 4xx answers without retrying, as unusable (not the provider's protocol)", () => {
    expect(classifyInquiryResponse(sent, { statusCode: 403, body: { message: 'IP not registered' }, retryAfter: undefined })).toEqual({
      kind: 'answer',
      outcome: { verdict: 'FAILED', reason: 'provider answered HTTP 403: IP not registered' },
      unusable: true,
    });
  });

  it('tells unusable FAILED answers (a malformed envelope) from usable ones (what the record says about the account)', () => {
    const unusable = (body: unknown) => classifyInquiryResponse(sent, { statusCode: 200, body, retryAfter: undefined });
    expect(unusable({ status: 'error', message: 'x', data: record })).toMatchObject({ outcome: { verdict: 'FAILED' }, unusable: true });
    expect(unusable({ error: false, message: 'ok' })).toMatchObject({ outcome: { verdict: 'FAILED' }, unusable: true });
    expect(unusable({ error: false, data: { ...record, status: undefined } })).toMatchObject({
      outcome: { verdict: 'FAILED' },
      unusable: true,
    });
    for (const data of [
      { ...record, status: 'PENDING' },
      { ...record, account_number: '999' },
      { ...record, account_holder: '' },
    ]) {
      expect(classifyInquiryResponse(sent, ok(data))).not.toHaveProperty('unusable');
    }
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter('Sat, 21 Nov 2026 06:00:10 GMT', Date.parse('Sat, 21 Nov 2026 06:00:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    // A date already past on this machine's clock (maybe ahead of the provider's) says nothing: the default hold.
    expect(parseRetryAfter('Sat, 21 Nov 2026 06:00:00 GMT', Date.parse('Sat, 21 Nov 2026 08:00:00 GMT'))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
