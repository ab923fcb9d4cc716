// Zero configuration works; production refuses unsafe settings; the development JWT secret is made
// once and kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveJwtSecret } from '../../src/auth/jwtSecret.js';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has defaults that work on a fresh clone', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: 'development', port: 8080, planner: 'offline', devLoginEnabled: true, responseValidation: 'log', jwtSecret: null });
    expect(config.databaseFile).toBe(path.resolve('data', 'trip-itinerary.sqlite'));
  });

  it.each([
    [{ NODE_ENV: 'production' }, /JWT_SECRET/],
    [{ NODE_ENV: 'production', JWT_SECRET: 'too-short' }, /32 bytes/],
    [{ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), AUTH_DEV_LOGIN: 'true' }, /AUTH_DEV_LOGIN/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ RESPONSE_VALIDATION: 'sometimes' }, /RESPONSE_VALIDATION/],
    [{ PLANNER: 'magic' }, /PLANNER/],
    [{ PLANNER: 'openai' }, /OPENAI_API_KEY/],
    [{ DATABASE_URL: 'postgres://localhost/trips' }, /SQLite/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
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
