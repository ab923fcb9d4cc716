// The database the configuration names, opened and migrated, as the port repositories use.
import type { Config } from '../config.js';
import { openDatabase } from './database.js';
import { databasePort, sqlitePort, type DatabasePort } from './databasePort.js';

export function openSqliteDatabasePort(file: string): DatabasePort {
  return databasePort(sqlitePort(openDatabase(file)));
}

export function openDatabasePort(config: Pick<Config, 'databaseFile'>): Promise<DatabasePort> {
  return Promise.resolve(openSqliteDatabasePort(config.databaseFile));
}
