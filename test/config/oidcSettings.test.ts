// The OIDC_* settings: all three required ones together or none, invalid values and combinations
// refused with one line naming the setting, and production's refusal of a plain-http issuer.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const base = { NODE_ENV: 'test', DATABASE_URL: ':memory:' };
const oidc = {
  OIDC_ISSUER: 'https://accounts.example.com',
  OIDC_CLIENT_ID: 'trip-app',
  OIDC_REDIRECT_URI: 'https://trip.example.com/api/v1/auth/oidc/callback',
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain('\n');
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('OIDC settings', () => {
  it('off without them; with the three required ones, the defaults', () => {
    expect(loadConfig(base).oidc).toBeNull();
    expect(loadConfig({ ...base, ...oidc }).oidc).toEqual({
      issuer: oidc.OIDC_ISSUER,
      clientId: 'trip-app',
      clientSecret: null,
      redirectUri: oidc.OIDC_REDIRECT_URI,
      scopes: 'openid email profile',
      returnToOrigins: ['https://trip.example.com'],
      adminClaim: null,
      requireVerifiedEmail: true,
      allowInsecureIssuer: false,
      timeoutMs: 5000,
      pendingSignIns: { perAddress: 20, total: 10_000 },
    });
  });

  it('takes the optional ones', () => {
    const config = loadConfig({
      ...base,
      ...oidc,
      OIDC_CLIENT_SECRET: 'shh',
      OIDC_SCOPES: ' openid  email ',
      OIDC_RETURN_TO_ORIGINS: 'https://app.example.com',
      OIDC_ADMIN_CLAIM: 'groups',
      OIDC_REQUIRE_VERIFIED_EMAIL: 'false',
      OIDC_TIMEOUT_MS: '2500',
      OIDC_PENDING_SIGN_INS_PER_ADDRESS: '5',
      OIDC_PENDING_SIGN_INS_MAX: '500',
    }).oidc;
    expect(config).toMatchObject({
      clientSecret: 'shh',
      scopes: 'openid email',
      returnToOrigins: ['https://trip.example.com', 'https://app.example.com'],
      adminClaim: 'groups',
      requireVerifiedEmail: false,
      timeoutMs: 2500,
      pendingSignIns: { perAddress: 5, total: 500 },
    });
  });

  it.each([
    [{ OIDC_ISSUER: oidc.OIDC_ISSUER }, /OIDC_CLIENT_ID and OIDC_REDIRECT_URI are not set/],
    [{ ...oidc, OIDC_CLIENT_ID: undefined }, /OIDC_CLIENT_ID is not set/],
    [{ OIDC_CLIENT_SECRET: 'shh' }, /^OIDC_CLIENT_SECRET is set without OIDC_ISSUER/],
    [{ ...oidc, OIDC_SCOPES: 'email profile' }, /^OIDC_SCOPES="email profile" is not accepted; expected space-separated scopes including openid/],
    [{ ...oidc, OIDC_REDIRECT_URI: 'https://trip.example.com/callback' }, /^OIDC_REDIRECT_URI=.* whose path is \/api\/v1\/auth\/oidc\/callback/],
    [{ ...oidc, OIDC_ISSUER: 'ftp://issuer.example.com' }, /^OIDC_ISSUER="ftp:\/\/issuer.example.com" is not accepted/],
    [{ ...oidc, OIDC_RETURN_TO_ORIGINS: 'https://app.example.com/path' }, /^OIDC_RETURN_TO_ORIGINS=/],
    [{ ...oidc, OIDC_CLIENT_SECRET: 'secret-value', OIDC_ADMIN_CLAIM: 'bad claim' }, /^OIDC_ADMIN_CLAIM="bad claim" is not accepted/],
    [{ ...oidc, OIDC_TIMEOUT_MS: '99' }, /^OIDC_TIMEOUT_MS="99" is not accepted; expected an integer from 100 to 60000/],
    [{ ...oidc, OIDC_PENDING_SIGN_INS_PER_ADDRESS: '0' }, /^OIDC_PENDING_SIGN_INS_PER_ADDRESS="0" is not accepted/],
    [{ ...oidc, OIDC_PENDING_SIGN_INS_MAX: 'many' }, /^OIDC_PENDING_SIGN_INS_MAX="many" is not accepted/],
  ])('refuses %j', (env, message) => {
    const defined = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    const text = refusal(defined);
    expect(text).toMatch(message);
    expect(text).not.toContain('secret-value');
  });

  it('production refuses a plain-http redirect URI or return origin, loopback included; development and test allow them', () => {
    const production = { ...oidc, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) };
    for (const redirect of ['http://trip.example.com/api/v1/auth/oidc/callback', 'http://127.0.0.1:8080/api/v1/auth/oidc/callback']) {
      expect(refusal({ ...production, OIDC_REDIRECT_URI: redirect })).toBe(
        `OIDC_REDIRECT_URI="${redirect}" is not accepted; expected an https:// URL when NODE_ENV=production (the sign-in code and cookie would travel in clear).`,
      );
    }
    expect(refusal({ ...production, OIDC_RETURN_TO_ORIGINS: 'https://app.example.com,http://localhost:3000' })).toBe(
      'OIDC_RETURN_TO_ORIGINS="https://app.example.com,http://localhost:3000" is not accepted; expected https:// origins only when NODE_ENV=production (the sign-in code would travel in clear).',
    );
    expect(loadConfig({ ...production, OIDC_RETURN_TO_ORIGINS: 'https://app.example.com' }).oidc?.returnToOrigins).toEqual([
      'https://trip.example.com',
      'https://app.example.com',
    ]);
    const local = { OIDC_REDIRECT_URI: 'http://127.0.0.1:8080/api/v1/auth/oidc/callback', OIDC_RETURN_TO_ORIGINS: 'http://localhost:3000' };
    expect(loadConfig({ ...base, ...oidc, ...local }).oidc?.returnToOrigins).toEqual(['http://127.0.0.1:8080', 'http://localhost:3000']);
  });

  it('production refuses a plain-http issuer; development and test allow it (local providers)', () => {
    const http = { ...oidc, OIDC_ISSUER: 'http://127.0.0.1:4020' };
    expect(refusal({ ...http, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).toMatch(
      /^OIDC_ISSUER="http:\/\/127.0.0.1:4020" is not accepted; expected an https:\/\/ URL when NODE_ENV=production/,
    );
    expect(loadConfig({ ...base, ...http }).oidc?.allowInsecureIssuer).toBe(true);
    expect(loadConfig({ ...base, ...oidc, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).toMatchObject({
      devLoginEnabled: false,
      oidc: { allowInsecureIssuer: false },
    });
  });
});
