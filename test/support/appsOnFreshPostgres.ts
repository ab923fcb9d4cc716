// Instances of the service in one test process on one PostgreSQL database (each its own app, pool
// and runner, sharing only the database and the JWT secret of their config): a fresh database
// before each test; every app closed and the database dropped after it. Call at a file's top level.
import { afterEach, beforeEach } from 'vitest';
import { createApp, type App } from '../../src/composition/app.js';
import { databasePortOf } from '../../src/composition/openDatabase.js';
import type { Config } from '../../src/config/config.js';
import { postgresPort } from '../../src/db/databasePort.js';
import { openPostgresDatabase } from '../../src/db/postgresDatabase.js';
import type { AppPorts } from '../../src/composition/services.js';
import { appCall } from './appCall.js';
import { freshPostgresDatabase, type FreshPostgresDatabase } from './postgres.js';

export type AppInstance = { app: App; call: ReturnType<typeof appCall> };

export function appsOnFreshPostgres(): (config: Config, ports?: Partial<AppPorts>) => Promise<AppInstance> {
  let fresh: FreshPostgresDatabase | undefined;
  const apps: App[] = [];
  beforeEach(async () => {
    fresh = await freshPostgresDatabase();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await fresh?.drop();
  });
  return async (config, ports = {}) => {
    const app = await createApp(config, databasePortOf(postgresPort(await openPostgresDatabase(fresh!.url, { poolMax: 8 }))), ports);
    apps.push(app);
    return { app, call: appCall(app) };
  };
}
