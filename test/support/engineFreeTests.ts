// Test files under the `postgres` project's globs (vitest.config.ts) whose outcome the engine cannot
// change, so only the `sqlite` project runs them. test/architecture/engineFreeTests.test.ts holds
// each list to what it says.

/**
 * Never open a database: units, the in-memory and Redis stores (whose log start records stay in
 * memory), the frame check of the contract tests. None of them imports what opens one.
 */
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
  'test/stomp/heartBeatAfterStall.test.ts',
  'test/stomp/sharedTicker.test.ts',
  'test/stomp/slowConsumer.test.ts',
  'test/stomp/stompCodec.test.ts',
];

/**
 * Start a test app, whose start opens a database of the test engine (tested on both engines by the
 * others), but ask it nothing that reaches one: no sign-in, no API operation, no STOMP session.
 */
export const engineIndifferentTests = [
  // GET /healthz under a rate limit counted in memory, per X-Forwarded-For.
  'test/http/clientAddress.test.ts',
  // the served openapi.yaml and its server variables
  'test/operational/servedOpenapi.test.ts',
  // static paths answered 404 or the file
  'test/operational/staticAssets.test.ts',
  // the STOMP parser, and CONNECT frames it refuses before anyone is authenticated
  'test/stomp/stompHeaderLimits.test.ts',
];
