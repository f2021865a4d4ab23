import { describe, expect, it } from 'vitest';
import { jwtExpiry, readLoginAnswer } from '../../src/provider/login.js';
import { LoginRejectedError, LoginUnavailableError } from '../../src/errors.js';
import { maskAccountKey, maskAccountNumber } from '../../src/logging/logger.js';

const settings = {
  bodyFormat: 'json' as const,
  usernameField: 'username',
  passwordField: 'password',
  tokenPath: 'data.access_token',
  expiresInPath: 'data.expires_in',
  refreshMarginSeconds: 600,
};
const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
const now = 1_800_000_000_000;

describe('readLoginAnswer', () => {
  it('takes the earlier of expires_in and the JWT exp', () => {
    const token = jwt({ iat: now / 1000, exp: now / 1000 + 1800 });
    const answer = { error: false, message: 'Login success', data: { access_token: token, token_type: 'bearer', expires_in: 3600 } };
    expect(readLoginAnswer(settings, 200, answer, now)).toEqual({ token, expiresAt: now + 1800_000 });
  });

  it('uses expires_in when the token is not a JWT, and an hour when nothing says', () => {
    expect(readLoginAnswer(settings, 200, { error: false, data: { access_token: 'opaque', expires_in: 60 } }, now).expiresAt).toBe(now + 60_000);
    expect(readLoginAnswer(settings, 200, { error: false, data: { access_token: 'opaque' } }, now).expiresAt).toBe(now + 3600_000);
  });

  it('reads the token where the settings say', () => {
    const custom = { ...settings, tokenPath: 'token', expiresInPath: 'ttl' };
    expect(readLoginAnswer(custom, 200, { token: 'abc', ttl: 10 }, now)).toEqual({ token: 'abc', expiresAt: now + 10_000 });
  });

  it('rejects the documented failure body (no error field) with the provider message', () => {
    const attempt = () => readLoginAnswer(settings, 401, { status: 'error', message: 'Invalid username or password', data: null }, now);
    expect(attempt).toThrow(LoginRejectedError);
    expect(attempt).toThrow('login failed: Invalid username or password');
  });

  it('rejects a 200 without a token', () => {
    expect(() => readLoginAnswer(settings, 200, { error: true, message: 'Account locked' }, now)).toThrow('login failed: Account locked');
    expect(() => readLoginAnswer(settings, 200, { error: false, data: {} }, now)).toThrow(LoginRejectedError);
  });

  it('sees 5xx and 429 as passing problems', () => {
    expect(() => readLoginAnswer(settings, 503, { message: 'maintenance' }, now)).toThrow(LoginUnavailableError);
    expect(() => readLoginAnswer(settings, 429, undefined, now)).toThrow(LoginUnavailableError);
  });
});

describe('jwtExpiry', () => {
  it('reads exp, and nothing from what is not a JWT', () => {
    expect(jwtExpiry(jwt({ exp: 100 }))).toBe(100_000);
    expect(jwtExpiry('opaque')).toBeUndefined();
    expect(jwtExpiry('a.!!!.c')).toBeUndefined();
  });
});

describe('masking', () => {
  it('keeps the last four digits only', () => {
    expect(maskAccountNumber('0012345678')).toBe('******5678');
    expect(maskAccountNumber('12345')).toBe('**2345');
    expect(maskAccountKey('014:0012345678')).toBe('014:******5678');
  });
});
