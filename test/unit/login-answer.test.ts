import { describe, expect, it } from 'vitest';
import { jwtTimes, readLoginAnswer } from '../../src/provider/login.js';
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
  it("takes the shorter of expires_in and the JWT exp - iat, both the provider's own statements", () => {
    const token = jwt({ iat: now / 1000, exp: now / 1000 + 1800 });
    const answer = { error: false, message: 'Login success', data: { access_token: token, token_type: 'bearer', expires_in: 3600 } };
    expect(readLoginAnswer(settings, 200, answer, now)).toEqual({ token, lifetimeMs: 1800_000, clockSkewMs: 0 });
  });

  it('uses expires_in when the token is not a JWT, and an hour when nothing says', () => {
    expect(readLoginAnswer(settings, 200, { error: false, data: { access_token: 'opaque', expires_in: 60 } }, now).lifetimeMs).toBe(60_000);
    expect(readLoginAnswer(settings, 200, { error: false, data: { access_token: 'opaque' } }, now).lifetimeMs).toBe(3600_000);
  });

  it.each([
    ['2 h ahead', 2 * 3600_000],
    ['2 h behind', -2 * 3600_000],
  ])("a machine clock %s of the provider's: the lifetime the provider gave, and the skew measured from iat", (_, skew) => {
    const issued = now - skew;
    const token = jwt({ iat: issued / 1000, exp: issued / 1000 + 3600 });
    expect(readLoginAnswer(settings, 200, { error: false, data: { access_token: token, expires_in: 3600 } }, now)).toEqual({
      token,
      lifetimeMs: 3600_000,
      clockSkewMs: skew,
    });
    // Without iat, exp against expires_in tells the same.
    const noIat = jwt({ exp: issued / 1000 + 3600 });
    expect(readLoginAnswer(settings, 200, { error: false, data: { access_token: noIat, expires_in: 3600 } }, now)).toEqual({
      token: noIat,
      lifetimeMs: 3600_000,
      clockSkewMs: skew,
    });
  });

  it("reads a JWT with exp alone against this machine's clock, saying which clock may be wrong when it is past", () => {
    expect(readLoginAnswer(settings, 200, { error: false, data: { access_token: jwt({ exp: now / 1000 + 600 }) } }, now).lifetimeMs).toBe(
      600_000,
    );
    expect(() => readLoginAnswer(settings, 200, { error: false, data: { access_token: jwt({ exp: now / 1000 - 600 }) } }, now)).toThrow(
      /this machine's clock is ahead \(check NTP\) or the provider issues expired tokens/,
    );
  });

  it('refuses a token the provider itself says is expired', () => {
    expect(() =>
      readLoginAnswer(settings, 200, { error: false, data: { access_token: jwt({ iat: now / 1000, exp: now / 1000 }) } }, now),
    ).toThrow('already expired (its exp is not after its iat)');
  });

  it('reads the token where the settings say', () => {
    const custom = { ...settings, tokenPath: 'token', expiresInPath: 'ttl' };
    expect(readLoginAnswer(custom, 200, { token: 'abc', ttl: 10 }, now)).toMatchObject({ token: 'abc', lifetimeMs: 10_000 });
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

describe('jwtTimes', () => {
  it('reads iat and exp, and nothing from what is not a JWT', () => {
    expect(jwtTimes(jwt({ iat: 40, exp: 100 }))).toEqual({ issuedAt: 40_000, expiresAt: 100_000 });
    expect(jwtTimes(jwt({ exp: 100 }))).toEqual({ issuedAt: undefined, expiresAt: 100_000 });
    expect(jwtTimes('opaque')).toEqual({});
    expect(jwtTimes('a.!!!.c')).toEqual({});
  });
});

describe('masking', () => {
  it('keeps the last four digits only', () => {
    expect(maskAccountNumber('0012345678')).toBe('******5678');
    expect(maskAccountNumber('12345')).toBe('**2345');
    expect(maskAccountKey('014:0012345678')).toBe('014:******5678');
  });
});
