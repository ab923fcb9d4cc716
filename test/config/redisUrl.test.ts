// REDIS_URL (docs/operations.md, "Several instances (PostgreSQL + Redis)"): a redis:// or rediss:// URL whose
// database number is kept; refused with a SQLite DATABASE_URL in one clear line; its password never
// shown.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const postgres = { DATABASE_URL: 'postgres://trips@db.internal:5432/trips', JWT_SECRET: 'x'.repeat(32) };

describe('REDIS_URL', () => {
  it('is off by default, and kept as given with its database number (INSTANCE_COUNT_HINT 1 unless set)', () => {
    expect(loadConfig({}).redis).toBeNull();
    expect(loadConfig({ ...postgres, REDIS_URL: 'redis://cache.internal:6380/4' }).redis).toEqual({
      url: 'redis://cache.internal:6380/4',
      instanceCountHint: 1,
    });
    expect(loadConfig({ ...postgres, REDIS_URL: 'rediss://:pw@cache.internal', INSTANCE_COUNT_HINT: '3' }).redis).toEqual({
      url: 'rediss://:pw@cache.internal',
      instanceCountHint: 3,
    });
  });

  it('refuses what is not a Redis URL, without showing its password', () => {
    for (const raw of ['http://cache:6379', 'redis://', 'redis://cache/db4', 'redis://cache/4/5']) {
      expect(() => loadConfig({ ...postgres, REDIS_URL: raw }), raw).toThrow(ConfigError);
    }
    expect(() => loadConfig({ ...postgres, REDIS_URL: 'redis://:hunter2@cache/x' })).toThrow(/REDIS_URL="redis:\/\/:\*\*\*@cache\/x"/);
  });

  it('is refused with a SQLite DATABASE_URL, in one line that says why', () => {
    for (const env of [{ REDIS_URL: 'redis://127.0.0.1:6379' }, { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: './trips.sqlite' }]) {
      expect(() => loadConfig(env)).toThrow(/^REDIS_URL needs a PostgreSQL DATABASE_URL: .*SQLite file cannot be shared\.$/);
    }
  });
});
