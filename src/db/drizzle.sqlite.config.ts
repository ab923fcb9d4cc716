// drizzle-kit, SQLite: `npm run db:generate` writes a new SQL migration from src/db/schema.ts (the
// SQLite schema) into src/db/migrations/sqlite (committed; applied at start-up by src/db/database.ts).
// The folder moved from src/db/migrations with its files unchanged: drizzle's SQLite migrator
// skips every migration whose journal `when` is not newer than the last row of
// __drizzle_migrations, so databases migrated from the old folder carry on where they were.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './src/db/migrations/sqlite',
});
