// Zero configuration works; production refuses unsafe settings; the development JWT secret is made
// once and kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveJwtSecret } from '../../src/auth/jwtSecret.js';
import { roleForEmail } from '../../src/auth/roles.js';
import { ConfigError, describeDatabase, isLoopback, loadConfig } from '../../src/config/config.js';

describe('configuration', () => {
  it('has defaults that work on a fresh clone', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: 'development', port: 8080, planner: 'offline', devLoginEnabled: true, responseValidation: 'log', jwtSecret: null });
    expect(config.database).toEqual({ engine: 'sqlite', file: path.resolve('data', 'trip-itinerary.sqlite') });
  });

  it.each([
    [{ NODE_ENV: 'production' }, /JWT_SECRET/],
    [{ NODE_ENV: 'production', JWT_SECRET: 'too-short' }, /32 bytes/],
    [{ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), AUTH_DEV_LOGIN: 'true' }, /AUTH_DEV_LOGIN/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ RESPONSE_VALIDATION: 'sometimes' }, /RESPONSE_VALIDATION/],
    [{ PLANNER: 'magic' }, /PLANNER/],
    [{ PLANNER: 'openai' }, /OPENAI_API_KEY/],
    [{ DATABASE_URL: 'postgres://localhost/trips' }, /JWT_SECRET is required with a PostgreSQL DATABASE_URL/],
    [{ DATABASE_URL: 'mysql://localhost/trips' }, /DATABASE_URL="mysql:\/\/localhost\/trips" is not accepted; expected a PostgreSQL URL/],
    [{ DATABASE_URL: 'postgres://', JWT_SECRET: 'x'.repeat(32) }, /DATABASE_URL="postgres:\/\/" is not accepted/],
    [
      { DATABASE_URL: 'postgres://localhost/trips', JWT_SECRET: 'x'.repeat(32), DATABASE_POOL_MAX: '0' },
      /DATABASE_POOL_MAX="0" is not accepted; expected an integer from 1/,
    ],
    [{ NODE_ENV: 'staging' }, /NODE_ENV="staging" is not accepted; expected development, test, production/],
    [{ NODE_ENV: 'Production' }, /NODE_ENV="Production"/],
    [{ PORT: '70000' }, /PORT="70000" is not accepted; expected an integer from 0 to 65535/],
    [{ PORT: '80.5' }, /PORT="80.5"/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL="loud" is not accepted; expected fatal, error, warn, info, debug, trace, silent/],
    [{ HOST: 'not a host' }, /HOST="not a host" is not accepted; expected an IP address/],
    [{ CORS_ORIGINS: '' }, /CORS_ORIGINS is set but empty/],
    [{ CORS_ORIGINS: 'https://app.example.com/' }, /CORS_ORIGINS="https:\/\/app.example.com\/" is not accepted; expected \* or comma-separated origins/],
    [{ CORS_ORIGINS: 'https://a.example.com,,https://b.example.com' }, /CORS_ORIGINS/],
    [
      { ADMIN_EMAILS: 'root@example.com,not-an-address' },
      /ADMIN_EMAILS="root@example.com,not-an-address" is not accepted; expected comma-separated e-mail addresses/,
    ],
    [{ AUTH_DEV_LOGIN: 'constructor' }, /AUTH_DEV_LOGIN="constructor" is not accepted; expected true or false/],
    [{ SESSION_RETENTION_DAYS: '-1' }, /SESSION_RETENTION_DAYS/],
    [{ ACCESS_TOKEN_TTL_SECONDS: '31536001' }, /ACCESS_TOKEN_TTL_SECONDS/],
    [{ OPENAI_BASE_URL: 'ftp://models.example.com' }, /OPENAI_BASE_URL/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('DATABASE_URL postgres:// or postgresql:// is PostgreSQL with a pool of DATABASE_POOL_MAX (10); anything else a SQLite file', () => {
    const secret = { JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig({ ...secret, DATABASE_URL: 'postgres://u:pw@db.example.com:5432/trips' }).database).toEqual({
      engine: 'postgres',
      url: 'postgres://u:pw@db.example.com:5432/trips',
      poolMax: 10,
    });
    expect(loadConfig({ ...secret, DATABASE_URL: 'postgresql://db/trips', DATABASE_POOL_MAX: '3' }).database).toMatchObject({ engine: 'postgres', poolMax: 3 });
    expect(loadConfig({ DATABASE_URL: 'sqlite:trips.sqlite' }).database).toEqual({ engine: 'sqlite', file: path.resolve('trips.sqlite') });
    expect(loadConfig({ DATABASE_URL: ':memory:' }).database).toEqual({ engine: 'sqlite', file: ':memory:' });
  });

  it('never echoes the password of a DATABASE_URL, in a refusal or in the description of the database', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/trips' })).toThrow(/DATABASE_URL="mysql:\/\/admin:\*\*\*@db\/trips"/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/trips' })).not.toThrow(/hunter2/);
    const { database } = loadConfig({ DATABASE_URL: 'postgres://admin:hunter2@db/trips', JWT_SECRET: 'x'.repeat(32) });
    expect(describeDatabase(database)).toBe('postgres://admin:***@db/trips');
  });

  it('never echoes a secret in a refusal', () => {
    expect(() => loadConfig({ JWT_SECRET: 'hunter2-is-short' })).toThrow(/JWT_SECRET=\(16 bytes, not shown\) is not accepted; expected at least 32 bytes/);
    expect(() => loadConfig({ JWT_SECRET: 'hunter2-is-short' })).not.toThrow(/hunter2/);
  });

  it('NODE_ENV is development, test or production; unset is development', () => {
    expect(loadConfig({}).env).toBe('development');
    expect(loadConfig({ NODE_ENV: 'test' }).env).toBe('test');
    expect(() => loadConfig({ NODE_ENV: 'prod' })).toThrow(ConfigError);
  });

  describe('dev-login is on by default only in development on a loopback address', () => {
    it.each([
      [{}, true],
      [{ HOST: '127.0.0.1' }, true],
      [{ HOST: '::1' }, true],
      [{ HOST: 'localhost' }, true],
      [{ HOST: '0.0.0.0' }, false],
      [{ HOST: '::' }, false],
      [{ HOST: '192.168.1.20' }, false],
      [{ HOST: '0.0.0.0', AUTH_DEV_LOGIN: 'true' }, true],
      // A proxy on the same machine forwards the world's requests from a loopback address.
      [{ HOST: '127.0.0.1', TRUST_PROXY_HOPS: '1' }, false],
      [{ HOST: '127.0.0.1', TRUST_PROXY_HOPS: '1', AUTH_DEV_LOGIN: 'true' }, true],
      [{ NODE_ENV: 'test' }, false],
      [{ NODE_ENV: 'test', AUTH_DEV_LOGIN: 'true' }, true],
      [{ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), HOST: '127.0.0.1' }, false],
    ])('%j → dev-login %s', (env, enabled) => {
      expect(loadConfig(env).devLoginEnabled).toBe(enabled);
    });

    it('listens on 127.0.0.1 unless HOST says otherwise', () => {
      expect(loadConfig({}).host).toBe('127.0.0.1');
      expect(isLoopback('127.0.0.1') && isLoopback('::ffff:127.0.0.1') && isLoopback('::1') && !isLoopback('0.0.0.0') && !isLoopback('::')).toBe(true);
    });
  });

  it('ADMIN_EMAILS decides the role of a real sign-in, case-insensitively', () => {
    const { adminEmails } = loadConfig({ ADMIN_EMAILS: 'Root@Example.com, ops@example.com' });
    expect(adminEmails).toEqual(['root@example.com', 'ops@example.com']);
    expect(roleForEmail('ROOT@example.com', adminEmails)).toBe('ADMIN');
    expect(roleForEmail('someone@example.com', adminEmails)).toBe('MEMBER');
    expect(roleForEmail('root@example.com', [])).toBe('MEMBER');
  });

  it('starts in production with a strong secret, dev-login off and response validation off', () => {
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
    expect(config).toMatchObject({ devLoginEnabled: false, responseValidation: 'off' });
  });

  it('generates the development JWT secret once, keeps it private in the data folder, and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-secret-'));
    const config = loadConfig({ DATA_DIR: dir });
    const first = resolveJwtSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveJwtSecret(config)).toBe(first);
    expect(fs.statSync(path.join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
