import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/fixtures/**', 'node_modules/**'],
    // Do PostgreSQL and Redis answer? Their tests skip (one line says why), or fail under CI=true.
    globalSetup: ['test/support/postgresGlobalSetup.ts', 'test/support/redisGlobalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
