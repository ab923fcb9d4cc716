// drizzle-kit: `npm run db:generate` writes a new SQL migration from src/db/schema.ts into
// src/db/migrations (committed; applied at start-up by src/db/database.ts).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
});
