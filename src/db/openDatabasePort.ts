// The database the configuration names (DATABASE_URL), opened and migrated, as the port
// repositories use: PostgreSQL through a node-postgres pool, or a SQLite file of this process.
import type { DatabaseLocation } from '../config/config.js';
import type { Logger } from '../kernel/logger.js';
import { openDatabase } from './database.js';
import { databasePort, postgresPort, sqlitePort, type DatabasePort, type PortOptions } from './databasePort.js';

export function openSqliteDatabasePort(file: string, options: PortOptions = {}): DatabasePort {
  return databasePort(sqlitePort(openDatabase(file), options));
}

export async function openDatabasePort(location: DatabaseLocation, options: PortOptions & { log?: Pick<Logger, 'warn'> } = {}): Promise<DatabasePort> {
  if (location.engine === 'sqlite') return openSqliteDatabasePort(location.file, options);
  // Loaded for PostgreSQL only: pg and drizzle's node-postgres driver are no part of a SQLite start.
  const { openPostgresDatabase } = await import('./postgresDatabase.js');
  return databasePort(postgresPort(await openPostgresDatabase(location.url, { poolMax: location.poolMax, log: options.log }), options));
}
