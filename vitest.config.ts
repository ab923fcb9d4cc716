import { availableParallelism } from 'node:os';
import pg from 'pg';
import { defineConfig } from 'vitest/config';
import { engineFreeTests, engineIndifferentTests } from './test/support/engineFreeTests.js';

// The tests that run on both engines: the repository, HTTP, STOMP and contract tests (and the
// conformance runner and the client package against an in-process server). The `postgres` project runs them again, each
// test app on a fresh PostgreSQL database (test/support/testDatabase.ts), but for the files among
// them whose outcome the engine cannot change (test/support/engineFreeTests.ts).
// Tests that need PostgreSQL itself (several instances on one database, its outages): the
// `postgres` project only.
const postgresOnly = [
  'test/bench/fastifyPeerParity.postgres.test.ts',
  'test/client/realtimeFailover.test.ts',
  'test/distributed/chatLimitAcrossInstances.test.ts',
  'test/distributed/databaseIdentityInRedis.test.ts',
  'test/distributed/instancesOnOnePostgres.test.ts',
  'test/distributed/redisInstances.test.ts',
  'test/faults/postgresOutage.test.ts',
  'test/metrics/redisReconnectMetrics.test.ts',
  'test/redis/redisConnections.test.ts',
];
const onBothEngines = [
  'test/catalogue/placeCatalogue.test.ts',
  'test/{http,kernel,auth,trips,prompts,chats,rateLimit}/**/*.test.ts',
  'test/operational/{docsPages,servedOpenapi,staticAssets}.test.ts',
  'test/{stomp,delivery,events}/**/*.test.ts',
  'test/distributed/redisReplayAcrossInstances.test.ts',
  'test/contract/**/*.test.ts',
  'test/conformance/conformance.test.ts',
  'test/metrics/**/*.test.ts',
  'test/client/http*.test.ts',
  'test/client/{generation,realtimeContinuity,realtimeSubscriptions,tripClient}.test.ts',
  ...postgresOnly,
];

/** Does PostgreSQL answer? Without it the `postgres` project is left out, and the global setup says why (or fails under CI). */
async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test', connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const withPostgres = await postgresAnswers();

// Do PostgreSQL and Redis answer? Their tests skip (one line says why), or fail under CI=true. Each
// project runs these (a root-level global setup would run once more), so each gets what they inject.
const globalSetup = ['test/support/postgresGlobalSetup.ts', 'test/support/redisGlobalSetup.ts'];

export default defineConfig({
  test: {
    exclude: ['test/fixtures/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker less than the cores: one worker on a 2-core CI machine, where
    // most test files spend their time waiting (child processes, timers, sockets, PostgreSQL and
    // Redis). Two files at a time there took the suite from about 13 to about 8 minutes; every test
    // isolates itself (its own database, key prefix, ports), so files may overlap.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true as const,
        test: { name: 'sqlite', globalSetup, include: ['test/**/*.test.ts'], exclude: ['test/fixtures/**', 'node_modules/**', ...postgresOnly] },
      },
      ...(withPostgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                globalSetup,
                include: onBothEngines,
                exclude: ['test/fixtures/**', 'node_modules/**', ...engineFreeTests, ...engineIndifferentTests],
                env: { TEST_ENGINE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
