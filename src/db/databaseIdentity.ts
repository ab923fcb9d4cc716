// The random id the migrations wrote into this database (schema.ts, databaseIdentity): what lives
// outside the database but names its rows by id (Redis plan logs, control channels) carries it.
import type { DatabasePort } from './databasePort.js';

export async function readDatabaseIdentity(db: DatabasePort): Promise<string> {
  const { databaseIdentity } = db.t;
  const rows = await db.run((q) => q.select({ id: databaseIdentity.id }).from(databaseIdentity).limit(1));
  const id = rows[0]?.id;
  if (!id) throw new Error('the database has no identity row (database_identity): was it migrated by this version?');
  return id;
}
