// Every Prometheus metric of the service, with its help text, in one place (names fixed with the
// dashboard and traces work: OpenTelemetry semantic-convention names where they exist, ours under
// `trip_`). One registry per app instance, never prom-client's global one: tests build several apps
// in one process. The parts that count are given this object (services.ts); null means metrics are
// off (METRICS_ENABLED=false) and nothing is recorded.
// Imported file by file: prom-client's index also loads its Summary (with tdigest), its Pushgateway
// (Node's https) and its cluster aggregator, which the service does not use (about half of the time
// the index takes to load).
import Counter from 'prom-client/lib/counter.js';
import collectDefaultMetrics from 'prom-client/lib/defaultMetrics.js';
import Gauge from 'prom-client/lib/gauge.js';
import Histogram from 'prom-client/lib/histogram.js';
import Registry from 'prom-client/lib/registry.js';
import { boundCounter, boundHistogram } from './boundSeries.js';

/** What is read at scrape time rather than counted as it happens. */
export interface ScrapeSources {
  /** GENERATING plans with no live lease, over the whole database */
  waitingGenerations(): Promise<number>;
  /** the connection pool: PostgreSQL's, or SQLite's one connection */
  connectionPool(): { idle: number; used: number; pending: number };
}

export type StompChannelKind = 'schedule' | 'errors' | 'chat';
export type GenerationOutcome = 'completed' | 'failed' | 'cancelled' | 'taken_over';
/** The parts of an instance on its Redis connections (trip_redis_reconnects_total's `connection` label). */
export type RedisConnectionName = 'plan_log' | 'events' | 'session_revocations' | 'rate_limit';
/** Which cap a refused connection met: its client address's (MAX_CONNECTIONS_PER_ADDRESS) or the instance's (MAX_CONNECTIONS). */
export type ConnectionRefusalReason = 'per_address' | 'instance';

// Request durations: from sub-millisecond reads to slow writes; first days take seconds to minutes.
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const FIRST_DAY_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

export function createMetrics(sources: ScrapeSources) {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  // Registered in this order, which is the order of the scrape.
  return {
    registry,
    ...httpMetrics(registers),
    ...admissionMetrics(registers),
    ...stompMetrics(registers),
    ...generationMetrics(registers, sources),
    ...storageMetrics(registers, sources),
    ...redisMetrics(registers),
  };
}

type Registers = Registry[];

/** Requests as the HTTP adapter answers them: recorded on every request, so their series are bound once (boundSeries.ts). */
function httpMetrics(registers: Registers) {
  return {
    httpRequestDuration: boundHistogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests, by method, spec path template, status and spec operationId ("unmatched" for paths that are no operation).',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code', 'operation_id'] as const,
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    httpRequests: boundCounter({
      name: 'http_server_requests_total',
      help: 'HTTP requests answered, by spec operationId and status.',
      labelNames: ['operation_id', 'http_response_status_code'] as const,
      registers,
    }),
  };
}

/** Requests, connections and chat messages refused by a limit, and the connections within the caps. */
function admissionMetrics(registers: Registers) {
  return {
    rateLimitRejections: new Counter({
      name: 'trip_rate_limit_rejections_total',
      help: 'Requests refused by the rate limit (429 COMMON429).',
      registers,
    }),
    connectionsOpen: new Gauge({
      name: 'trip_connections_open',
      help: 'Open HTTP and WebSocket connections of this instance within its caps (MAX_CONNECTIONS).',
      registers,
    }),
    connectionsRefused: new Counter({
      name: 'trip_connections_refused_total',
      help: 'Connections refused by a cap: per_address (MAX_CONNECTIONS_PER_ADDRESS, 429) or instance (MAX_CONNECTIONS, 503).',
      labelNames: ['reason'] as const,
      registers,
    }),
    chatMessagesRefused: new Counter({
      name: 'trip_chat_messages_refused_total',
      help: 'Chat messages refused because their member sent more than CHAT_MESSAGES_PER_MINUTE (CHAT103).',
      registers,
    }),
  };
}

/** STOMP connections, subscriptions, deliveries and replays of this instance. */
function stompMetrics(registers: Registers) {
  return {
    stompConnections: new Gauge({ name: 'trip_stomp_connections', help: 'Open STOMP (WebSocket) connections on this instance.', registers }),
    stompSubscriptions: new Gauge({ name: 'trip_stomp_subscriptions', help: 'STOMP subscriptions held by the connections of this instance.', registers }),
    stompDelivered: new Counter({
      name: 'trip_stomp_messages_delivered_total',
      help: 'STOMP MESSAGE frames sent to subscriptions, by channel kind.',
      labelNames: ['channel'] as const,
      registers,
    }),
    stompDropped: new Counter({
      name: 'trip_stomp_messages_dropped_total',
      help: 'STOMP messages not sent because the client stopped reading (slow consumer, WS108) or its connection was closing, by channel kind.',
      labelNames: ['channel'] as const,
      registers,
    }),
    replayRequests: new Counter({
      name: 'trip_stomp_replay_requests_total',
      help: 'SUBSCRIBE frames asking for a replay: x-replay: all (mode="all") or x-since (mode="since").',
      labelNames: ['mode'] as const,
      registers,
    }),
    replayUnrecovered: new Counter({
      name: 'trip_stomp_replay_unrecovered_total',
      help: 'Replaying subscriptions answered with x-recovered: false (the history asked for is gone: unknown epoch or trimmed).',
      registers,
    }),
  };
}

/** Generation runs: how they end, how many run or wait, how soon the first day comes, lost leases. */
function generationMetrics(registers: Registers, sources: ScrapeSources) {
  return {
    generations: new Counter({
      name: 'trip_generations_total',
      help: 'Generation runs this instance held, by how they ended: completed, failed (AI002), cancelled, or taken_over (the lease was lost).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    generationsRunning: new Gauge({ name: 'trip_generations_running', help: 'Generation runs this instance holds now.', registers }),
    generationsWaiting: new Gauge({
      name: 'trip_generations_waiting',
      help: 'GENERATING plans with no live lease, over the whole database (read at scrape).',
      registers,
      async collect() {
        try {
          this.set(await sources.waitingGenerations());
        } catch {
          // The database does not answer: /metrics must still answer (it matters most then); the
          // last value stays, and the failed query is counted in trip_db_query_errors_total.
        }
      },
    }),
    firstDay: new Histogram({
      name: 'trip_generation_first_day_seconds',
      help: 'Time from the accepted start request to the first saved day of a run.',
      buckets: FIRST_DAY_BUCKETS,
      registers,
    }),
    leaseTakeovers: new Counter({
      name: 'trip_generation_lease_takeovers_total',
      help: 'Expired generation leases this instance swept (failed with AI002 or re-queued to resume).',
      registers,
    }),
    fencedWrites: new Counter({
      name: 'trip_generation_fenced_writes_total',
      help: 'Generation writes refused because the run had lost its lease.',
      registers,
    }),
  };
}

/** The database: its connection pool (read at scrape) and its failed statements. */
function storageMetrics(registers: Registers, sources: ScrapeSources) {
  return {
    dbConnections: new Gauge({
      name: 'db_client_connection_count',
      help: "Database connections by state (idle, used): the PostgreSQL pool, or SQLite's one connection (used).",
      labelNames: ['state'] as const,
      registers,
      collect() {
        const pool = sources.connectionPool();
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'used' }, pool.used);
      },
    }),
    dbPending: new Gauge({
      name: 'db_client_connection_pending_requests',
      help: 'Requests waiting for a database connection of the pool.',
      registers,
      collect() {
        this.set(sources.connectionPool().pending);
      },
    }),
    dbQueryErrors: new Counter({
      name: 'trip_db_query_errors_total',
      help: 'Database statements or transactions that failed with an error of the database or its driver.',
      registers,
    }),
  };
}

/** The Redis connections (REDIS_URL). */
function redisMetrics(registers: Registers) {
  return {
    redisReconnects: new Counter({
      name: 'trip_redis_reconnects_total',
      help: "Reconnection attempts of the Redis connections (REDIS_URL), by the part that uses them (the parts share an instance's two connections: an attempt counts for each part on it).",
      labelNames: ['connection'] as const,
      registers,
    }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
