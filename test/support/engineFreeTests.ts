// Test files under the `postgres` project's globs (vitest.config.ts) that never open a database:
// units, the in-memory and Redis stores (whose log start records stay in memory), the frame check of
// the contract tests. The engine cannot change what they see, so only the `sqlite` project runs
// them. test/architecture/engineFreeTests.test.ts checks that none of them imports what opens one.
export const engineFreeTests = [
  'test/contract/frameContract.test.ts',
  'test/delivery/inMemoryPlanLog.test.ts',
  'test/delivery/logSubscription.test.ts',
  'test/delivery/publishers.test.ts',
  'test/delivery/redisPlanLog.test.ts',
  'test/events/memoryControlBus.test.ts',
  'test/events/redisControlBus.test.ts',
  'test/http/connectionLimits.test.ts',
  'test/http/mediaType.test.ts',
  'test/metrics/grafanaDashboard.test.ts',
  'test/rateLimit/memoryRateLimitStore.test.ts',
  'test/rateLimit/redisRateLimitStore.test.ts',
  'test/stomp/sharedTicker.test.ts',
  'test/stomp/slowConsumer.test.ts',
  'test/stomp/stompCodec.test.ts',
];
