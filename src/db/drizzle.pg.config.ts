// drizzle-kit, PostgreSQL: `npm run db:generate` writes a new SQL migration from src/db/schema.pg.ts
// into src/db/migrations/pg (committed; applied at open by src/db/postgresDatabase.ts).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.pg.ts',
  out: './src/db/migrations/pg',
});
