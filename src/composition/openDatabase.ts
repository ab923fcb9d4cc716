// The database the configuration names (DATABASE_URL), opened and migrated, as the port
// repositories use (with its engine's statements, engineStatements.ts): PostgreSQL through a
// node-postgres pool, or a SQLite file of this process.
import type { DatabaseLocation } from '../config/config.js';
import { openDatabase } from '../db/database.js';
import { databasePort, sqlitePort, postgresPort, type DatabasePort, type EnginePort, type PortOptions } from '../db/databasePort.js';
import type { Logger } from '../kernel/logger.js';
import { engineStatements } from './engineStatements.js';

/** An opened engine as the port repositories use. */
export function databasePortOf(engine: EnginePort): DatabasePort {
  return databasePort(engine, engineStatements(engine));
}

export function openSqliteDatabasePort(file: string, options: PortOptions = {}): DatabasePort {
  return databasePortOf(sqlitePort(openDatabase(file), options));
}

export async function openDatabasePort(location: DatabaseLocation, options: PortOptions & { log?: Pick<Logger, 'warn'> } = {}): Promise<DatabasePort> {
  if (location.engine === 'sqlite') return openSqliteDatabasePort(location.file, options);
  // Loaded for PostgreSQL only: pg and drizzle's node-postgres driver are no part of a SQLite start.
  const { openPostgresDatabase } = await import('../db/postgresDatabase.js');
  return databasePortOf(postgresPort(await openPostgresDatabase(location.url, { poolMax: location.poolMax, log: options.log }), options));
}
