// Plain SQL in a test's setup and checks, through the port like the service's own (db/plainSql.ts).
import type { DatabasePort } from '../../src/db/databasePort.js';
import type { PlainSql } from '../../src/db/plainSql.js';

/** fn's statements on the port's run(): each one its own autocommit. */
export function withPlainSql<T>(port: DatabasePort, fn: (s: PlainSql) => Promise<T>): Promise<T> {
  return port.run((q) => fn(port.plainSql(q)));
}
