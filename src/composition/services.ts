// The service's parts behind HTTP: its ports (each with a production default built from the
// configuration, or a test's own: the same seams production uses), the database, auth, generation,
// chat and realtime delivery. app.ts puts the HTTP app in front of them.
import { createAuthService, type AuthService } from '../auth/authService.js';
import { resolveJwtSecret } from '../auth/jwtSecret.js';
import type { OidcProvider } from '../auth/oidcProvider.js';
import type { OidcSignIn } from '../auth/oidcSignIn.js';
import { startSessionPurge, type SessionPurge } from '../auth/sessionPurge.js';
import { revocationTopics, sessionRevocationsOn, type RevocationTopics, type SessionRevocations } from '../auth/sessionRevocations.js';
import { createTokenSigner } from '../auth/tokens.js';
import type { PlannerRegions } from '../catalogue/plannerRegions.js';
import { syncCatalogue } from '../catalogue/placeRepository.js';
import type { ChatAgent } from '../chats/chatAgent.js';
import { findOwnChatRoom } from '../chats/chatRepository.js';
import { createChatService, type ChatService } from '../chats/chatService.js';
import type { Config } from '../config/config.js';
import { readDatabaseIdentity } from '../db/databaseIdentity.js';
import type { DatabasePort } from '../db/databasePort.js';
import { reportingQueryErrors } from '../db/queryErrors.js';
import type { ControlBus } from '../events/controlBus.js';
import { createMemoryControlBus } from '../events/controlBus.memory.js';
import { domainEventTopics, eventBusOn, type DomainEvents, type EventBus } from '../events/eventBus.js';
import { startGenerationRunner, type GenerationRunner } from '../generation/generationRunner.js';
import type { Planner } from '../generation/planner.js';
import { countGenerationsWithoutLiveLease } from '../generation/generationSweep.js';
import { createChatAgent, createPlanner, createPlannerRegions } from '../generation/plannerFactory.js';
import { tracedPlanner } from '../generation/tracedPlanner.js';
import { createMemoryRateLimitStore } from '../rateLimit/rateLimitStore.memory.js';
import type { RateLimitStore } from '../rateLimit/rateLimitStore.js';
import { createLogger, type Logger } from '../kernel/logger.js';
import { createMetrics, type Metrics, type RedisConnectionName } from '../metrics/metricsRegistry.js';
import { createInProcessBroker, type Broker } from '../delivery/broker.js';
import { createDatabaseLogStarts } from '../delivery/databaseLogStarts.js';
import { createInMemoryPlanLog } from '../delivery/inMemoryPlanLog.js';
import type { LogStarts } from '../delivery/logStarts.js';
import { planStream, roomStream, type PlanLog } from '../delivery/planLog.js';
import { createPublishers, type Publishers } from '../delivery/publishers.js';
import type { RedisConnectionRole } from '../redis/redisConnections.js';
import type { registerStompEndpoint } from '../stomp/stompEndpoint.js';
import { findOwnTripPlanRow } from '../trips/tripPlanRepository.js';

/** What the service talks to, or runs on, that a test may replace. */
export interface AppPorts {
  clock: () => number;
  logger: Logger;
  /** between HTTP and generation */
  events: EventBus;
  /** delivers STOMP messages to subscriptions (a broken variant may tamper with them) */
  broker: Broker;
  /** default: PLANNER (offline or openai) */
  planner: Planner;
  /** default: PLANNER (offline or openai) */
  chatAgent: ChatAgent;
  /** how the service reaches the OpenID Connect provider (default: fetch) */
  identityProviderFetch: typeof fetch;
  /**
   * the logs behind the STOMP channels, on this broker, with the record of where they began (in the
   * database); default: in memory (inMemoryPlanLog.ts), or in Redis with REDIS_URL
   */
  planLog: (broker: Broker, starts: LogStarts) => PlanLog;
}

export interface Services {
  config: Config;
  /** the database, opened and migrated by the caller (main.ts, the tests) */
  db: DatabasePort;
  log: Logger;
  clock: () => number;
  auth: AuthService;
  /** OpenID Connect sign-in and its provider; null when OIDC is not configured */
  oidc: OidcSignIn | null;
  oidcProvider: OidcProvider | null;
  revocations: SessionRevocations;
  events: EventBus;
  /** the regions the configured planner supports (listRegions, TRIP107) */
  regions: PlannerRegions;
  broker: Broker;
  /** the logs behind the STOMP channels (replay on SUBSCRIBE) */
  planLog: PlanLog;
  publishers: Publishers;
  /** runs the generation jobs of the plan rows (leases; any instance may run any job) */
  worker: GenerationRunner;
  chat: ChatService;
  sessionPurge: SessionPurge;
  /** where the rate limit counts; null: in this instance's memory */
  rateLimitStore: RateLimitStore | null;
  /** with REDIS_URL: whether Redis answers (readiness), and closing its connections */
  redis: { ready(): Promise<void>; close(): Promise<void> } | null;
  /** this instance's Prometheus metrics (its own registry); null with METRICS_ENABLED=false */
  metrics: Metrics | null;
}

/** The metrics of this instance, with what is read at scrape: waiting generations, the connection pool. */
function instanceMetrics(database: DatabasePort, waitingGenerations: () => Promise<number>): Metrics {
  return createMetrics({ waitingGenerations, connectionPool: () => database.connectionPool() });
}

/**
 * The parts REDIS_URL shares between instances: plan logs, the control bus (events, logouts), rate
 * limits, all on the instance's two Redis connections. Loaded only with REDIS_URL (ioredis is a
 * noticeable part of a start without it).
 */
async function redisParts(
  config: Config,
  redis: NonNullable<Config['redis']>,
  log: Logger,
  broker: Broker,
  databaseId: string,
  starts: LogStarts,
  metrics: Metrics | null,
) {
  const [{ createRedisPlanLog }, { createRedisControlBus }, { createRedisRateLimits }, { openRedisConnections }] = await Promise.all([
    import('../delivery/redisPlanLog.js'),
    import('../events/controlBus.redis.js'),
    import('../rateLimit/rateLimitStore.redis.js'),
    import('../redis/redisConnections.js'),
  ]);
  // Plan and session ids are this database's: keyed by its identity, a Redis that outlives the
  // database (or serves another one) never mixes their logs or control messages with ours.
  const keyPrefix = `rt:${databaseId}:`;
  const warn = (what: string) => (error: unknown) => log.warn({ err: error }, `redis: ${what}`);
  const withLimits = config.rateLimitPerWindow > 0 || config.chatMessagesPerMinute > 0;
  const connections = openRedisConnections({
    url: redis.url,
    name: keyPrefix,
    onError: (error, role) => log.warn({ err: error, connection: role }, 'redis: connection'),
    onReconnecting: metrics ? countReconnects(metrics, withLimits) : undefined,
  });
  const planLog = createRedisPlanLog({
    connections,
    broker,
    historySize: config.realtime.historySize,
    historyTtlSeconds: config.realtime.historyTtlSeconds,
    log,
    starts,
    keyPrefix,
  });
  const control = createRedisControlBus<ControlTopics>({
    connections,
    topics: { ...domainEventTopics, ...revocationTopics },
    keyPrefix,
    onListenerError: controlListenerFailed(log),
    onBusError: warn('control bus'),
  });
  // Both limits: requests per client address, and chat messages per member.
  const limits = withLimits ? createRedisRateLimits({ connections, instances: redis.instanceCountHint }) : null;
  const rateLimitStore =
    limits && config.rateLimitPerWindow > 0 ? limits.store({ limit: config.rateLimitPerWindow, windowSeconds: config.rateLimitWindowSeconds }) : null;
  // Member ids are this database's, like plan ids: keyed by its identity too.
  const chatMessageLimit =
    limits && config.chatMessagesPerMinute > 0
      ? limits.store({ limit: config.chatMessagesPerMinute, windowSeconds: 60, keyPrefix: `${keyPrefix}chat:` })
      : null;
  return {
    planLog,
    control,
    rateLimitStore,
    chatMessageLimit,
    ready: async () => {
      await planLog.ready();
      // Without it the limits count alone (the insurance's share), not with the other instances.
      if (limits && !limits.isConnected()) throw new Error('the connection of the rate limits is not up');
    },
    // The plan log is closed by the app after the last publish; then the control bus and the connections.
    async close() {
      await control.close();
      await connections.close();
    },
  };
}

/**
 * trip_redis_reconnects_total is counted by part (RedisConnectionName): a reconnect of one of the
 * instance's two connections counts for each part on it, so the sum over the parts is what it was
 * when each part had connections of its own (the plan log, the event bus and the session
 * revocations two each, the rate limits one).
 */
function countReconnects(metrics: Metrics, withLimits: boolean): (role: RedisConnectionRole) => void {
  const partsOn: Record<RedisConnectionRole, RedisConnectionName[]> = {
    commands: ['plan_log', 'events', 'session_revocations', ...(withLimits ? (['rate_limit'] as const) : [])],
    subscriber: ['plan_log', 'events', 'session_revocations'],
  };
  return (role) => {
    for (const connection of partsOn[role]) metrics.redisReconnects.inc({ connection });
  };
}

/** The topics of the control bus: the event bus's and the session revocations'. */
type ControlTopics = DomainEvents & RevocationTopics;

/** A listener of the control bus that failed (the event bus reports its own, which run later). */
function controlListenerFailed(log: Logger) {
  return (error: unknown, topic: keyof ControlTopics) =>
    topic === 'sessionRevoked'
      ? log.error({ err: error }, 'session revocation listener failed')
      : log.error({ err: error, event: topic }, 'event listener failed');
}

/** With tracing on, a span around every call of the Planner port, whichever planner it is. */
function traced(config: Config, planner: Planner): Planner {
  return config.tracing ? tracedPlanner(planner) : planner;
}

/** OpenID Connect sign-in and its provider; loaded only when configured (openid-client and jose). */
async function oidcParts(
  config: Config,
  settings: NonNullable<Config['oidc']>,
  deps: { log: Logger; db: DatabasePort; auth: AuthService; clock: () => number; fetch: typeof fetch | undefined },
): Promise<{ oidcProvider: OidcProvider; oidc: OidcSignIn }> {
  const [{ startOidcProvider }, { createOidcSignIn }] = await Promise.all([import('../auth/oidcProvider.js'), import('../auth/oidcSignIn.js')]);
  const oidcProvider = startOidcProvider(settings, deps.log, deps.fetch);
  const { db, auth, clock } = deps;
  return { oidcProvider, oidc: createOidcSignIn({ settings, adminEmails: config.adminEmails, provider: oidcProvider, db, auth, clock }) };
}

export async function createServices(config: Config, database: DatabasePort, ports: Partial<AppPorts> = {}): Promise<Services> {
  const log = ports.logger ?? createLogger(config.logLevel);
  const clock = ports.clock ?? Date.now;
  // The scrape's COUNT goes through the counting port below, so its failures are query errors too.
  const metrics: Metrics | null = config.metrics.enabled ? instanceMetrics(database, () => countGenerationsWithoutLiveLease(db, clock())) : null;
  // Every repository's statements go through this port: its query errors are counted.
  const db: DatabasePort = metrics ? reportingQueryErrors(database, () => metrics.dbQueryErrors.inc()) : database;
  // Before anything starts that would need stopping if these fail.
  await syncCatalogue(db);
  const planner = ports.planner ?? (await createPlanner(config, db, log));
  const chatAgent = ports.chatAgent ?? (await createChatAgent(config, db, log));
  const broker = ports.broker ?? createInProcessBroker((error) => log.error({ err: error }, 'message delivery failed'));
  // Where the plan logs began, in the database: it outlives a restart of this process and of Redis.
  const logStarts = createDatabaseLogStarts(db);
  const redis = config.redis ? await redisParts(config, config.redis, log, broker, await readDatabaseIdentity(db), logStarts, metrics) : null;
  const signer = createTokenSigner(resolveJwtSecret(config), { access: config.accessTokenTtlSeconds, refresh: config.refreshTokenTtlSeconds });
  // One control bus for the instance: the event bus and the session revocations are its users.
  const control: ControlBus<ControlTopics> = redis?.control ?? createMemoryControlBus<ControlTopics>(controlListenerFailed(log));
  const revocations = sessionRevocationsOn(control);
  const auth = createAuthService({
    db,
    signer,
    clock,
    accessTtlSeconds: config.accessTokenTtlSeconds,
    refreshTtlSeconds: config.refreshTokenTtlSeconds,
    refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
    revocations,
  });
  const { oidcProvider, oidc } = config.oidc
    ? await oidcParts(config, config.oidc, { log, db, auth, clock, fetch: ports.identityProviderFetch })
    : { oidcProvider: null, oidc: null };
  const events = ports.events ?? eventBusOn(control, (error, name) => log.error({ err: error, event: name }, 'event listener failed'));
  const regions = createPlannerRegions(config);
  const sessionPurge = startSessionPurge({ db, clock, log, retentionDays: config.sessionRetentionDays, intervalMinutes: config.sessionPurgeIntervalMinutes });
  const planLog =
    ports.planLog?.(broker, logStarts) ??
    redis?.planLog ??
    createInMemoryPlanLog({
      broker,
      historySize: config.realtime.historySize,
      historyTtlMs: config.realtime.historyTtlSeconds * 1000,
      clock,
      starts: logStarts,
    });
  const publishers = createPublishers(planLog, config.responseValidation, log);
  // No start-up step touches GENERATING plans: a live lease may belong to another instance, and
  // the runner's sweeper fails or resumes the expired ones (a crash of this instance included).
  const worker = startGenerationRunner({
    port: db,
    events,
    planner: traced(config, planner),
    publishers,
    log,
    clock,
    concurrency: config.generationConcurrency,
    concurrencyPerMember: config.generationConcurrencyPerUser,
    jobs: config.generationJobs,
    failWaitingOnStop: !db.sharedByInstances,
    metrics,
  });
  // A room's turn is leased like a generation: an instance that stopped holds it at most that long.
  const { leaseMs, heartbeatMs, sweepMs } = config.generationJobs;
  const chatMessageLimit =
    config.chatMessagesPerMinute > 0
      ? (redis?.chatMessageLimit ?? createMemoryRateLimitStore({ limit: config.chatMessagesPerMinute, windowSeconds: 60 }))
      : null;
  const chat = createChatService({
    db,
    agent: chatAgent,
    publishers,
    log,
    clock,
    turns: { leaseMs, heartbeatMs, sweepMs },
    messageLimit: chatMessageLimit && { store: chatMessageLimit, perMinute: config.chatMessagesPerMinute },
    onMessageLimited: metrics ? () => metrics.chatMessagesRefused.inc() : undefined,
  });
  return {
    config,
    db,
    log,
    clock,
    auth,
    oidc,
    oidcProvider,
    revocations,
    events,
    regions,
    broker,
    planLog,
    publishers,
    worker,
    chat,
    sessionPurge,
    rateLimitStore: redis?.rateLimitStore ?? null,
    redis: redis && { ready: () => redis.ready(), close: () => redis.close() },
    metrics,
  };
}

/** What the STOMP endpoint works with: the services, and who owns which channel. */
export function stompEndpointDeps(services: Services): Parameters<typeof registerStompEndpoint>[1] {
  const { config, auth, broker, planLog, log, clock, revocations, db, chat, publishers, metrics } = services;
  return {
    metrics,
    auth,
    broker,
    planLog,
    log,
    clock,
    settings: config.stomp,
    revocations,
    async logOf(memberId, channel, id) {
      if (channel === 'scheduleUpdates') return (await findOwnTripPlanRow(db, memberId, id)) ? planStream(id) : null;
      const room = await findOwnChatRoom(db, memberId, id);
      if (!room) return null;
      // A room's errors channel is in its plan's log, with the schedule channel.
      return channel === 'errors' ? planStream(room.tripPlanId) : roomStream(id);
    },
    onChatMessage: (principal, chatRoomId, body) => chat.receive(principal, chatRoomId, body),
    async publishError(memberId, chatRoomId, code, message, path) {
      const room = await findOwnChatRoom(db, memberId, chatRoomId);
      if (!room) return;
      // Awaited until this instance's subscribers have it: the RECEIPT that follows must not overtake it.
      await publishers.errorHandedOver(
        { memberId, chatRoomId, tripPlanId: room.tripPlanId },
        { timestamp: new Date(clock()).toISOString(), code, message, path, errors: null },
      );
    },
  };
}
