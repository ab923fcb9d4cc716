// The SQLite and PostgreSQL schemas give every table the same row types, so repositories, services
// and mappers are written once. `npm run typecheck` compiles this file; while the schemas differ it
// fails naming the table and column (test/types/schemaParity.test.ts also proves it can fail).
import type * as pg from '../../src/db/schema.pg.js';
import type * as sqlite from '../../src/db/schema.js';
import type { SchemaRowDifferences } from './schemaRowDifferences.js';
import type { ExpectNone } from './typeEquality.js';

export type SqliteAndPostgresRowsAreIdentical = ExpectNone<SchemaRowDifferences<typeof sqlite, typeof pg>>;
