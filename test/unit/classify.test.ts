import { describe, expect, it } from 'vitest';
import { classifyInquiryResponse, parseRetryAfter } from '../../src/provider/classify.js';

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
const ok = (data: unknown, extra: Record<string, unknown> = {}) => ({ statusCode: 200, body: { error: false, message: 'Inquiry success', data, ...extra }, retryAfter: undefined });

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
    expect(classifyInquiryResponse(lower, ok({ ...record, bank_code: ' bank_jatim ' }))).toMatchObject({ kind: 'answer', outcome: { verdict: 'VERIFIED' } });
    expect(classifyInquiryResponse(lower, ok({ ...record, bank_code: 'BANK_JATIM' }))).toMatchObject({ kind: 'answer', outcome: { verdict: 'FAILED' } });
    expect(classifyInquiryResponse({ bankCode: 'BCA', accountNumber: '0012345678' }, ok({ ...record, bank_code: 'bca' }))).toMatchObject({ kind: 'answer', outcome: { verdict: 'FAILED' } });
  });

  it('does not show the holder name of an account that was not asked', () => {
    const result = classifyInquiryResponse(sent, ok({ ...record, account_number: '999' }));
    expect(result.kind === 'answer' && result.outcome.holderName).toBeUndefined();
  });

  it('reads error: true as a business rejection with the provider message', () => {
    const result = classifyInquiryResponse(sent, { statusCode: 200, body: { error: true, message: 'Account not found', data: null }, retryAfter: undefined });
    expect(result).toEqual({ kind: 'answer', outcome: { verdict: 'ACCOUNT_INVALID', reason: 'provider: Account not found' } });
  });

  it('never reads a missing error flag as success', () => {
    const result = classifyInquiryResponse(sent, { statusCode: 200, body: { status: 'error', message: 'x', data: record }, retryAfter: undefined });
    expect(result).toMatchObject({ kind: 'answer', outcome: { verdict: 'FAILED' } });
  });

  it.each([
    [{ error: false, message: 'ok' }, 'no inquiry record'],
    ['not json', 'not a JSON object'],
    [undefined, 'not a JSON object'],
  ])('fails inconsistent answers: %j', (body, reason) => {
    const result = classifyInquiryResponse(sent, { statusCode: 200, body, retryAfter: undefined });
    expect(result.kind === 'answer' && result.outcome.verdict === 'FAILED' && result.outcome.reason).toContain(reason);
  });

  it.each([500, 502, 503, 504, 408])('treats HTTP %i as transient', (statusCode) => {
    expect(classifyInquiryResponse(sent, { statusCode, body: undefined, retryAfter: undefined }).kind).toBe('transient');
  });

  it('treats 401 as unauthorized and 429 as rate limited with Retry-After', () => {
    expect(classifyInquiryResponse(sent, { statusCode: 401, body: { error: true, message: 'Unauthenticated.' }, retryAfter: undefined })).toEqual({
      kind: 'unauthorized',
      message: 'Unauthenticated.',
    });
    expect(classifyInquiryResponse(sent, { statusCode: 429, body: {}, retryAfter: '3' })).toEqual({ kind: 'rate_limited', retryAfterMs: 3000 });
    expect(classifyInquiryResponse(sent, { statusCode: 429, body: {}, retryAfter: undefined })).toEqual({ kind: 'rate_limited', retryAfterMs: undefined });
  });

  it('fails other 4xx answers without retrying', () => {
    expect(classifyInquiryResponse(sent, { statusCode: 403, body: { message: 'IP not registered' }, retryAfter: undefined })).toMatchObject({
      kind: 'answer',
      outcome: { verdict: 'FAILED', reason: 'provider answered HTTP 403: IP not registered' },
    });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter('Sat, 21 Nov 2026 06:00:10 GMT', Date.parse('Sat, 21 Nov 2026 06:00:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
