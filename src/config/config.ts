// Every setting of the service, read once from the environment, with defaults that work on a fresh
// clone (SQLite file under ./data, offline planner, dev-login only in development on loopback).
// `settings` below is the one table of settings: loadConfig validates against it, and
// `npm start -- --help` (and the settings table of docs/configuration.md, checked by a test) print
// it. A bad value is refused with one line naming the setting, the value and what is accepted.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { delivery } from '../../generated/asyncapi.js';
import { routes } from '../../generated/routes.js';

export type ResponseValidationMode = 'strict' | 'log' | 'off';
export type Environment = 'development' | 'test' | 'production';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  env: Environment;
  port: number;
  host: string;
  dataDir: string;
  /** where the data lives: a SQLite file of this process (or ':memory:'), or a PostgreSQL database any number of instances share */
  database: DatabaseLocation;
  /**
   * null: one instance, real time in this process. Set: every instance of the PostgreSQL database
   * shares the plan logs, the control channel and the rate limit through this Redis.
   */
  redis: { url: string; instanceCountHint: number } | null;
  /** how long GET /readyz waits for the database (and Redis) before it answers 503 */
  readinessTimeoutMs: number;
  /** null: generate one and keep it in dataDir (development and test only) */
  jwtSecret: string | null;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** how long after a rotation the rotated refresh token still gets the pair it was rotated to (two tabs); 0: never */
  refreshReuseGraceSeconds: number;
  devLoginEnabled: boolean;
  /** lower-case e-mail addresses whose real sign-ins get the ADMIN role (never dev-login) */
  adminEmails: string[];
  /** OpenID Connect sign-in; null when not configured (its operations are then absent) */
  oidc: OidcSettings | null;
  /** expired or revoked sessions are deleted this many days after they ended */
  sessionRetentionDays: number;
  sessionPurgeIntervalMinutes: number;
  responseValidation: ResponseValidationMode;
  bodyLimitBytes: number;
  /** requests per client per window; 0 turns rate limiting off */
  rateLimitPerWindow: number;
  rateLimitWindowSeconds: number;
  /** proxies in front of the service whose X-Forwarded-For entries the rate limit trusts */
  trustProxyHops: number;
  /** open connections (HTTP and WebSocket) this instance holds: in all, and per client address (httpConnectionLimits.ts) */
  connections: { maxTotal: number; maxPerAddress: number };
  /** node's HTTP server: time for a request's headers, for the whole request, and an idle keep-alive connection */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** chat messages (STOMP SEND) one member may send a minute, over every instance; 0: no limit */
  chatMessagesPerMinute: number;
  logLevel: LogLevel;
  /** OpenTelemetry traces over OTLP/HTTP; null (the default): off, and none of the SDK is loaded */
  tracing: TracingSettings | null;
  corsOrigins: string[];
  planner: 'offline' | 'openai';
  /** pause between streamed summary chunks of the offline planner */
  plannerDelayMs: number;
  /** runs at once on this instance; 0: this instance never runs generations (it still sweeps) */
  generationConcurrency: number;
  /** runs of one member at once (startTripPlanGeneration in openapi.yaml: queue and fairness) */
  generationConcurrencyPerUser: number;
  /** the plan row is the job (docs/design/scale-out.md, "Generation jobs on the plan row"): lease timings and takeover */
  generationJobs: GenerationJobSettings;
  openai: { apiKey: string | null; baseUrl: string | null; model: string; maxAttempts: number };
  stomp: {
    /** what the server proposes in CONNECTED's heart-beat, both ways */
    heartbeatMs: number;
    maxFrameBytes: number;
    /** how often live connections re-check that their session was not logged out */
    sessionCheckMs: number;
    /** the limits of asyncapi.yaml (server `stomp`, Limits) */
    maxSubscriptionsPerConnection: number;
    maxConnectionsPerUser: number;
    /** bytes sent and not yet read by the client beyond which it is disconnected as a slow consumer */
    maxPendingBytes: number;
    /** time from the WebSocket opening to its CONNECT frame (WS109 beyond) */
    connectTimeoutMs: number;
  };
  /** the plan logs behind the STOMP channels (asyncapi.yaml, replay): what each keeps, and how long */
  realtime: { historySize: number; historyTtlSeconds: number };
  /**
   * Prometheus metrics: `enabled` false records nothing and serves no /metrics. `served`: /metrics
   * answers (with a token, or without one on a loopback HOST with no proxy in front only); else it
   * is absent (404).
   */
  metrics: { enabled: boolean; token: string | null; served: boolean };
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** null: a public client, PKCE alone */
  clientSecret: string | null;
  redirectUri: string;
  scopes: string;
  /** origins `returnTo` may name besides the redirect URI's */
  returnToOrigins: string[];
  /** an ID-token claim that grants ADMIN (true, "admin", or a list containing "admin") */
  adminClaim: string | null;
  requireVerifiedEmail: boolean;
  /** plain http to the issuer (development and test only: production refuses an http issuer) */
  allowInsecureIssuer: boolean;
  /** how long one request to the provider (discovery, token, keys, userinfo) may take */
  timeoutMs: number;
  /** sign-ins started and not yet completed (each kept 10 minutes at most): per client address, and of all clients */
  pendingSignIns: { perAddress: number; total: number };
}

export interface TracingSettings {
  /** the OTLP/HTTP base URL; spans go to its /v1/traces */
  endpoint: string;
  serviceName: string;
  /** the share of traces begun here that are recorded (a caller's sampled traceparent is always followed) */
  sampleRatio: number;
}

export type DatabaseLocation = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string; poolMax: number };

export interface GenerationJobSettings {
  leaseMs: number;
  heartbeatMs: number;
  sweepMs: number;
  pollMs: number;
  /** what the sweeper does with an expired lease: fail it (AI002) or let another claim go on */
  takeover: 'fail' | 'resume';
  /** claims of one run before an expired lease is failed instead of resumed */
  maxAttempts: number;
}

export class ConfigError extends Error {}

/** MAX_CONNECTIONS when the open-files limit leaves room for it. */
const DEFAULT_MAX_CONNECTIONS = 10_000;
/** Open files MAX_CONNECTIONS leaves to the rest: the connections refused beyond the caps, the database, Redis, files. */
const RESERVED_FILES = 256;

/** The soft limit of open files (`ulimit -n`) of this process; null when it is unknown (not Linux) or unlimited. */
export function openFilesLimit(): number | null {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft !== undefined && /^[0-9]+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/** How a setting's text becomes a value; `undefined` means the text is not accepted. */
interface Parser<T> {
  accepted: string;
  parse(raw: string): T | undefined;
}

export interface Setting<T = unknown> extends Parser<T> {
  name: string;
  /** the default as shown to people (may depend on NODE_ENV or other settings) */
  defaultText: string;
  meaning: string;
  /** never echoed in messages */
  secret?: boolean;
  /** what of the value may be echoed in messages (a URL without its password) */
  redact?: (raw: string) => string;
}

const integer = (min: number, max: number, unit = ''): Parser<number> => ({
  accepted: `an integer from ${min} to ${max}${unit}`,
  parse: (raw) => (/^(0|[1-9][0-9]{0,15})$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined),
});

const ratio: Parser<number> = {
  accepted: 'a decimal number from 0 to 1 (e.g. 0.1)',
  parse: (raw) => (/^(0(\.[0-9]{1,6})?|1(\.0{1,6})?|\.[0-9]{1,6})$/.test(raw) ? Number(raw) : undefined),
};

const oneOf = <T extends string>(values: readonly T[]): Parser<T> => ({
  accepted: values.join(', '),
  parse: (raw) => (values.includes(raw as T) ? (raw as T) : undefined),
});

const flags = new Map([
  ['true', true],
  ['1', true],
  ['yes', true],
  ['false', false],
  ['0', false],
  ['no', false],
]);
const flag: Parser<boolean> = {
  accepted: 'true or false',
  parse: (raw) => flags.get(raw.toLowerCase()),
};

const text = (maxLength: number, minLength = 1): Parser<string> => ({
  accepted: minLength > 1 ? `at least ${minLength} bytes of text (at most ${maxLength})` : `text of at most ${maxLength} characters`,
  parse: (raw) => (Buffer.byteLength(raw) >= minLength && raw.length <= maxLength ? raw : undefined),
});

/** A comma-separated list, every entry accepted by `entry`. */
const list = (entry: Parser<string>, accepted: string): Parser<string[]> => ({
  accepted,
  parse(raw) {
    const entries = raw.split(',').map((e) => e.trim());
    const parsed = entries.map((e) => entry.parse(e));
    return parsed.every((e): e is string => e !== undefined) ? parsed : undefined;
  },
});

const email: Parser<string> = {
  accepted: 'an e-mail address',
  parse: (raw) => (/^[^@\s,]{1,64}@[^@\s,]{1,255}$/.test(raw) ? raw.toLowerCase() : undefined),
};

const origin: Parser<string> = {
  accepted: 'an origin like https://app.example.com',
  parse(raw) {
    try {
      const url = new URL(raw);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === raw ? raw : undefined;
    } catch {
      return undefined;
    }
  },
};

const httpUrl: Parser<string> = {
  accepted: 'an http:// or https:// URL',
  parse(raw) {
    try {
      const url = new URL(raw);
      return url.protocol === 'http:' || url.protocol === 'https:' ? raw : undefined;
    } catch {
      return undefined;
    }
  },
};

// From the route table (config.ts sits below http/, so it reads generated/ itself).
const callbackPath = routes.find((route) => route.operationId === 'completeOidcSignIn')!.path;
const redirectUri: Parser<string> = {
  accepted: `an http:// or https:// URL whose path is ${callbackPath}`,
  parse: (raw) => (httpUrl.parse(raw) !== undefined && new URL(raw).pathname === callbackPath && !new URL(raw).search && !new URL(raw).hash ? raw : undefined),
};

const scopes: Parser<string> = {
  accepted: 'space-separated scopes including openid',
  parse(raw) {
    const list = raw.trim().split(/\s+/);
    return list.includes('openid') && list.every((scope) => /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(scope)) ? list.join(' ') : undefined;
  },
};

const host: Parser<string> = {
  // A name would need a DNS lookup at start, which can hang; the server binds to addresses.
  accepted: 'an IP address of this machine (127.0.0.1, ::1, 0.0.0.0, ::, ...) or localhost',
  parse: (raw) => (net.isIP(raw) !== 0 || raw === 'localhost' ? raw : undefined),
};

const filePath: Parser<string> = {
  accepted: 'a file system path',
  parse: (raw) => (raw.includes('\0') ? undefined : raw),
};

type DatabaseUrl = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string };

const databaseUrl: Parser<DatabaseUrl> = {
  accepted: 'a PostgreSQL URL (postgres://user:password@host:5432/db or postgresql://…), a SQLite file (sqlite:path, file:path or a path) or :memory:',
  parse(raw) {
    if (/^postgres(ql)?:\/\//i.test(raw)) {
      try {
        const url = new URL(raw);
        return url.hostname || url.searchParams.has('host') ? { engine: 'postgres', url: raw } : undefined;
      } catch {
        return undefined;
      }
    }
    if (raw === ':memory:' || raw === 'sqlite::memory:') return { engine: 'sqlite', file: ':memory:' };
    const file = raw.replace(/^sqlite:(\/\/)?/, '').replace(/^file:(\/\/)?/, '');
    if (file === '' || file.includes('\0') || /^[a-z][a-z0-9+.-]*:\/\//i.test(file)) return undefined;
    return { engine: 'sqlite', file: path.resolve(file) };
  },
};

const redisUrl: Parser<string> = {
  accepted: 'a Redis URL: redis://[user:password@]host[:port][/db] or rediss://… (db: a number, 0 when left out)',
  parse(raw) {
    if (!/^rediss?:\/\//i.test(raw)) return undefined;
    try {
      const url = new URL(raw);
      return url.hostname && /^(\/(0|[1-9][0-9]{0,5})?)?$/.test(url.pathname) ? raw : undefined;
    } catch {
      return undefined;
    }
  },
};

/** A URL with its password (if any) replaced, for logs and messages; other text as it is. */
export function redactedDatabaseUrl(raw: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return raw;
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    if (url.searchParams.has('password')) url.searchParams.set('password', '***');
    return url.toString();
  } catch {
    return '(a URL that cannot be parsed)';
  }
}

/** Where the data is, for logs: the SQLite file, or the PostgreSQL URL without its password. */
export function describeDatabase(location: DatabaseLocation): string {
  return location.engine === 'sqlite' ? location.file : redactedDatabaseUrl(location.url);
}

/** Whether the database lives in this process's memory (SQLite `:memory:`): nothing in it outlives the process. */
export function isInMemoryDatabase(location: DatabaseLocation): boolean {
  return location.engine === 'sqlite' && location.file === ':memory:';
}

function withRedaction<T>(redact: (raw: string) => string, of: Setting<T>): Setting<T> {
  return { ...of, redact };
}

function setting<T>(name: string, parser: Parser<T>, defaultText: string, meaning: string, secret = false): Setting<T> {
  return { name, ...parser, defaultText, meaning, secret };
}

/** Every setting, in the order `--help` and docs/configuration.md list them. */
export const settings = {
  NODE_ENV: setting(
    'NODE_ENV',
    oneOf(['development', 'test', 'production'] as const),
    'development',
    'the environment; production needs JWT_SECRET and refuses dev-login',
  ),
  HOST: setting('HOST', host, '127.0.0.1', 'address to listen on; a container sets 0.0.0.0 explicitly'),
  PORT: setting('PORT', integer(0, 65535), '8080', 'TCP port to listen on (0: any free port)'),
  DATA_DIR: setting('DATA_DIR', filePath, './data', 'writable folder for the SQLite file and the generated JWT secret'),
  DATABASE_URL: withRedaction(
    redactedDatabaseUrl,
    setting(
      'DATABASE_URL',
      databaseUrl,
      '`DATA_DIR`/trip-itinerary.sqlite',
      'the database: postgres:// or postgresql:// is PostgreSQL, shared by any number of instances (needs JWT_SECRET; migrated at start); anything else is a SQLite file of this process, whose folder must be writable',
    ),
  ),
  DATABASE_POOL_MAX: setting('DATABASE_POOL_MAX', integer(1, 1000), '10', 'PostgreSQL connections one instance may hold (ignored on SQLite)'),
  REDIS_URL: withRedaction(
    redactedDatabaseUrl,
    setting(
      'REDIS_URL',
      redisUrl,
      '(unset: real time in this process)',
      'Redis shared by every instance of a PostgreSQL DATABASE_URL: the plan logs behind STOMP (replay, fan-out), cancel, new work and logout across instances, and the rate limit; its database number is used for every key. Refused with a SQLite DATABASE_URL',
    ),
  ),
  INSTANCE_COUNT_HINT: setting(
    'INSTANCE_COUNT_HINT',
    integer(1, 1000),
    '1',
    'how many instances share REDIS_URL: while Redis is away, each allows RATE_LIMIT_PER_MINUTE / this per client address on its own',
  ),
  READINESS_TIMEOUT_MS: setting(
    'READINESS_TIMEOUT_MS',
    integer(50, 60_000),
    '1000',
    'how long GET /readyz waits for the database (and Redis, with REDIS_URL) before it answers 503; one probe at a time, a call meanwhile waits for the one under way',
  ),
  JWT_SECRET: setting(
    'JWT_SECRET',
    text(4096, 32),
    'generated and kept in `DATA_DIR`',
    'HS256 signing secret; required in production and with PostgreSQL',
    true,
  ),
  ACCESS_TOKEN_TTL_SECONDS: setting('ACCESS_TOKEN_TTL_SECONDS', integer(1, 31_536_000), '3600', 'lifetime of an access token'),
  REFRESH_TOKEN_TTL_SECONDS: setting(
    'REFRESH_TOKEN_TTL_SECONDS',
    integer(1, 31_536_000),
    '2592000',
    'lifetime of a refresh token (and its session, renewed on reissue)',
  ),
  REFRESH_REUSE_GRACE_SECONDS: setting(
    'REFRESH_REUSE_GRACE_SECONDS',
    integer(0, 300),
    '10',
    'seconds after a reissue in which the refresh token it rotated gets the same new pair again (two tabs reissuing at once); a reuse after them ends the session (0: at once)',
  ),
  AUTH_DEV_LOGIN: setting(
    'AUTH_DEV_LOGIN',
    flag,
    '`true` in development on a loopback HOST with TRUST_PROXY_HOPS 0, else `false`',
    'POST /api/v1/auth/dev-login (always role MEMBER); refused in production, warned about off loopback or behind a proxy',
  ),
  ADMIN_EMAILS: setting(
    'ADMIN_EMAILS',
    list(email, 'comma-separated e-mail addresses'),
    'none',
    'addresses whose real sign-ins get the ADMIN role (never dev-login)',
  ),
  OIDC_ISSUER: setting(
    'OIDC_ISSUER',
    httpUrl,
    'none (OpenID Connect sign-in off)',
    'issuer URL of the OpenID Connect provider, e.g. https://accounts.google.com; https in production',
  ),
  OIDC_CLIENT_ID: setting('OIDC_CLIENT_ID', text(512), 'none', 'client id registered at the provider (with OIDC_ISSUER)'),
  OIDC_CLIENT_SECRET: setting('OIDC_CLIENT_SECRET', text(4096), 'none (public client: PKCE alone)', 'client secret registered at the provider', true),
  OIDC_REDIRECT_URI: setting(
    'OIDC_REDIRECT_URI',
    redirectUri,
    'none',
    "this service's callback as the provider knows it, ending in /api/v1/auth/oidc/callback; https in production",
  ),
  OIDC_SCOPES: setting('OIDC_SCOPES', scopes, '`openid email profile`', 'scopes asked for at sign-in (space-separated, with openid)'),
  OIDC_RETURN_TO_ORIGINS: setting(
    'OIDC_RETURN_TO_ORIGINS',
    list(origin, 'comma-separated origins like https://app.example.com'),
    'the origin of OIDC_REDIRECT_URI',
    'further origins a sign-in may return to (`returnTo`); https in production',
  ),
  OIDC_ADMIN_CLAIM: setting(
    'OIDC_ADMIN_CLAIM',
    { accepted: 'a claim name (letters, digits, _ - . :)', parse: (raw) => (/^[\w.:-]{1,100}$/.test(raw) ? raw : undefined) },
    'none',
    'ID-token claim granting ADMIN when it is true, "admin" or a list containing "admin"',
  ),
  OIDC_REQUIRE_VERIFIED_EMAIL: setting('OIDC_REQUIRE_VERIFIED_EMAIL', flag, 'true', 'refuse sign-ins whose e-mail the provider has not verified (403 AUTH025)'),
  OIDC_TIMEOUT_MS: setting(
    'OIDC_TIMEOUT_MS',
    integer(100, 60_000),
    '5000',
    'how long one request to the provider (discovery, token, keys, userinfo) may take; the sign-in answers 503 AUTH021 beyond',
  ),
  OIDC_PENDING_SIGN_INS_PER_ADDRESS: setting(
    'OIDC_PENDING_SIGN_INS_PER_ADDRESS',
    integer(1, 10_000),
    '20',
    'sign-ins one client address may have started and not completed (each kept 10 minutes at most); 429 COMMON429 beyond',
  ),
  OIDC_PENDING_SIGN_INS_MAX: setting(
    'OIDC_PENDING_SIGN_INS_MAX',
    integer(1, 1_000_000),
    '10000',
    'sign-ins all clients together may have started and not completed; 503 AUTH030 beyond',
  ),
  SESSION_RETENTION_DAYS: setting('SESSION_RETENTION_DAYS', integer(0, 3650), '30', 'days an expired or revoked session is kept before it is deleted'),
  SESSION_PURGE_INTERVAL_MINUTES: setting(
    'SESSION_PURGE_INTERVAL_MINUTES',
    integer(1, 10_080),
    '60',
    'how often ended sessions past their retention are deleted',
  ),
  RESPONSE_VALIDATION: setting(
    'RESPONSE_VALIDATION',
    oneOf(['strict', 'log', 'off'] as const),
    '`strict` under test, `log` in development, `off` in production',
    'strict turns a response that breaks the spec into a 500',
  ),
  RATE_LIMIT_PER_MINUTE: setting(
    'RATE_LIMIT_PER_MINUTE',
    integer(0, 1_000_000),
    '6000 (0 under test)',
    'requests per client address and minute (0: off); 429 COMMON429 beyond',
  ),
  TRUST_PROXY_HOPS: setting(
    'TRUST_PROXY_HOPS',
    integer(0, 10),
    '0',
    'how many proxies (load balancers) stand in front of the service: the rate limit then counts per client address as the outermost of them wrote it into X-Forwarded-For; 0: per connecting address, X-Forwarded-For ignored',
  ),
  MAX_CONNECTIONS: setting(
    'MAX_CONNECTIONS',
    integer(1, 1_000_000),
    `${DEFAULT_MAX_CONNECTIONS} (fewer when the open-files limit is lower: that limit less ${RESERVED_FILES})`,
    `open connections (HTTP and WebSocket) this instance holds; beyond, a request is answered 503 COMMON503 and its connection closed (/healthz, /readyz, /metrics still answered); at most the open-files limit (ulimit -n) less ${RESERVED_FILES}`,
  ),
  MAX_CONNECTIONS_PER_ADDRESS: setting(
    'MAX_CONNECTIONS_PER_ADDRESS',
    integer(1, 1_000_000),
    '256',
    'open connections one client address may hold on this instance; beyond, 429 COMMON429 and closed; with TRUST_PROXY_HOPS only WebSockets count, by the forwarded client address',
  ),
  HTTP_HEADERS_TIMEOUT_MS: setting(
    'HTTP_HEADERS_TIMEOUT_MS',
    integer(100, 600_000),
    '10000',
    "time for a request's headers to arrive (a new connection's first request included); 408 and closed beyond",
  ),
  HTTP_REQUEST_TIMEOUT_MS: setting(
    'HTTP_REQUEST_TIMEOUT_MS',
    integer(100, 3_600_000),
    '30000 (HTTP_HEADERS_TIMEOUT_MS when that is longer)',
    'time for a whole request (headers and body) to arrive, at least HTTP_HEADERS_TIMEOUT_MS; 408 and closed beyond',
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: setting(
    'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    integer(100, 600_000),
    '5000',
    "how long an idle keep-alive connection stays open (behind a load balancer: longer than the balancer's idle timeout)",
  ),
  BODY_LIMIT_BYTES: setting('BODY_LIMIT_BYTES', integer(1, 1_073_741_824), '1048576', 'largest request body; 413 COMMON413 beyond'),
  CORS_ORIGINS: setting(
    'CORS_ORIGINS',
    { accepted: '* or comma-separated origins like https://app.example.com', parse: (raw) => (raw.trim() === '*' ? ['*'] : list(origin, '').parse(raw)) },
    '*',
    'origins browsers may call the API from',
  ),
  LOG_LEVEL: setting(
    'LOG_LEVEL',
    oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    '`info` (`silent` under test)',
    'one JSON line per event on stdout, with requestId',
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: withRedaction(
    redactedDatabaseUrl,
    setting(
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      httpUrl,
      'none (tracing off)',
      'OpenTelemetry traces: the OTLP/HTTP base URL of a collector (spans are sent as JSON to its /v1/traces), e.g. http://127.0.0.1:4318',
    ),
  ),
  OTEL_SERVICE_NAME: setting('OTEL_SERVICE_NAME', text(200), 'trip-itinerary', 'service.name of the spans (with OTEL_EXPORTER_OTLP_ENDPOINT)'),
  OTEL_TRACES_SAMPLER_ARG: setting(
    'OTEL_TRACES_SAMPLER_ARG',
    ratio,
    '1',
    "the share of traces begun here that are recorded (parentbased_traceidratio: a caller's traceparent decides for its own trace)",
  ),
  PLANNER: setting('PLANNER', oneOf(['offline', 'openai'] as const), 'offline', 'offline (bundled catalogue, no network) or openai'),
  PLANNER_DELAY_MS: setting('PLANNER_DELAY_MS', integer(0, 60_000), '40 (0 under test)', 'pause between streamed summary chunks of the offline planner'),
  GENERATION_CONCURRENCY: setting(
    'GENERATION_CONCURRENCY',
    integer(0, 1000),
    '4',
    'generations this instance runs at once; the rest wait (0: it runs none, but still sweeps expired leases)',
  ),
  GENERATION_CONCURRENCY_PER_USER: setting(
    'GENERATION_CONCURRENCY_PER_USER',
    integer(1, 1000),
    '2',
    'generations of one member running at once; waiting members take turns',
  ),
  GENERATION_LEASE_MS: setting(
    'GENERATION_LEASE_MS',
    integer(100, 3_600_000),
    '30000',
    "how long a generation, or a chat room's turn to be answered, is held by its instance without a heartbeat; after it, the sweeper takes over",
  ),
  GENERATION_HEARTBEAT_MS: setting(
    'GENERATION_HEARTBEAT_MS',
    integer(10, 3_600_000),
    '10000',
    "how often a running generation renews its lease (less than GENERATION_LEASE_MS) and sees a cancel made elsewhere; a chat room's turn is renewed as often",
  ),
  GENERATION_SWEEP_MS: setting(
    'GENERATION_SWEEP_MS',
    integer(10, 3_600_000),
    '5000',
    'how often each instance looks for generations, and chat rooms with waiting messages, whose lease ran out',
  ),
  GENERATION_POLL_MS: setting(
    'GENERATION_POLL_MS',
    integer(10, 3_600_000),
    '1000',
    'how often an instance with a free slot looks for waiting generations (a start on the same instance wakes it at once)',
  ),
  GENERATION_TAKEOVER: setting(
    'GENERATION_TAKEOVER',
    oneOf(['fail', 'resume'] as const),
    'fail',
    'a generation whose lease ran out: `fail` (FAILED, AI002) or `resume` (another claim goes on after the saved days)',
  ),
  GENERATION_MAX_ATTEMPTS: setting(
    'GENERATION_MAX_ATTEMPTS',
    integer(1, 100),
    '2',
    'claims of one generation run with GENERATION_TAKEOVER=resume before an expired lease fails it',
  ),
  OPENAI_API_KEY: setting('OPENAI_API_KEY', text(4096), 'none', 'API key for PLANNER=openai', true),
  OPENAI_BASE_URL: setting('OPENAI_BASE_URL', httpUrl, 'the OpenAI API', 'any OpenAI-compatible server for PLANNER=openai'),
  OPENAI_MODEL: setting('OPENAI_MODEL', text(200), 'gpt-4o-mini', 'model for PLANNER=openai'),
  OPENAI_MAX_ATTEMPTS: setting('OPENAI_MAX_ATTEMPTS', integer(1, 10), '3', 'attempts per day before a generation fails'),
  STOMP_HEARTBEAT_MS: setting('STOMP_HEARTBEAT_MS', integer(0, 3_600_000), '10000', 'heart-beat the server proposes (0: none)'),
  STOMP_MAX_FRAME_BYTES: setting('STOMP_MAX_FRAME_BYTES', integer(1024, 16_777_216), '65536', 'largest client frame; ERROR WS102 beyond'),
  STOMP_SESSION_CHECK_MS: setting(
    'STOMP_SESSION_CHECK_MS',
    integer(10, 3_600_000),
    '10000',
    'how often a connection re-checks its session (a safety net: logout closes its connections at once, WS002)',
  ),
  STOMP_MAX_SUBSCRIPTIONS_PER_CONNECTION: setting(
    'STOMP_MAX_SUBSCRIPTIONS_PER_CONNECTION',
    integer(1, 10_000),
    '100',
    'subscriptions one STOMP connection may hold; ERROR WS105 beyond',
  ),
  STOMP_MAX_CONNECTIONS_PER_USER: setting(
    'STOMP_MAX_CONNECTIONS_PER_USER',
    integer(1, 10_000),
    '20',
    'STOMP connections one member may hold on this instance; ERROR WS107 beyond',
  ),
  STOMP_MAX_PENDING_BYTES: setting(
    'STOMP_MAX_PENDING_BYTES',
    integer(65_536, 1_073_741_824),
    '8388608',
    'bytes waiting to be sent to a STOMP client before it is disconnected as a slow consumer (ERROR WS108)',
  ),
  STOMP_CONNECT_TIMEOUT_MS: setting(
    'STOMP_CONNECT_TIMEOUT_MS',
    integer(100, 600_000),
    '10000',
    'time from a WebSocket opening to its CONNECT frame; ERROR WS109 and closed beyond',
  ),
  CHAT_MESSAGES_PER_MINUTE: setting(
    'CHAT_MESSAGES_PER_MINUTE',
    integer(0, 100_000),
    '20 (0 under test)',
    'chat messages (STOMP SEND) one member may send a minute, counted over every instance with REDIS_URL (0: no limit); CHAT103 on the errors channel beyond, the message not stored',
  ),
  // The defaults of the two history settings are asyncapi.yaml's (x-delivery retention).
  REALTIME_HISTORY_SIZE: setting(
    'REALTIME_HISTORY_SIZE',
    integer(1, 100_000),
    String(delivery.retention.messages.default),
    "messages each plan log keeps for SUBSCRIBE with x-replay or x-since (a plan's schedule and errors channels share one log, a chat room has its own)",
  ),
  REALTIME_HISTORY_TTL_SECONDS: setting(
    'REALTIME_HISTORY_TTL_SECONDS',
    integer(1, 30 * 86_400),
    String(delivery.retention.idleSeconds.default),
    'seconds a plan log is kept after its last message',
  ),
  METRICS_ENABLED: setting('METRICS_ENABLED', flag, 'true', 'Prometheus metrics; `false` records none and GET /metrics answers 404'),
  METRICS_TOKEN: setting(
    'METRICS_TOKEN',
    {
      accepted: '16 to 4096 visible ASCII characters without spaces (e.g. `openssl rand -hex 32`)',
      parse: (raw) => (/^[\x21-\x7e]{16,4096}$/.test(raw) ? raw : undefined),
    },
    'none (GET /metrics open on a loopback HOST with TRUST_PROXY_HOPS 0, absent (404) otherwise)',
    'GET /metrics then needs `Authorization: Bearer <token>` (401 AUTH028 otherwise); needed to serve metrics on a non-loopback HOST or behind a proxy',
    true,
  ),
};

export type SettingName = keyof typeof settings;

/** How a value appears in a message: secrets never, long values cut. */
function shown(setting: Setting, raw: string): string {
  if (setting.secret) return `(${Buffer.byteLength(raw)} bytes, not shown)`;
  if (setting.redact) raw = setting.redact(raw);
  return JSON.stringify(raw.length > 120 ? `${raw.slice(0, 120)}…` : raw);
}

export function refuse(setting: Setting, raw: string, accepted = setting.accepted): ConfigError {
  return new ConfigError(`${setting.name}=${shown(setting, raw)} is not accepted; expected ${accepted}.`);
}

function read<T>(env: NodeJS.ProcessEnv, setting: Setting<T>): T | undefined {
  const raw = env[setting.name];
  if (raw === undefined) return undefined;
  if (raw === '') throw new ConfigError(`${setting.name} is set but empty; unset it for the default (${setting.defaultText}) or set ${setting.accepted}.`);
  const value = setting.parse(raw);
  if (value === undefined) throw refuse(setting, raw);
  return value;
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost. */
export function isLoopback(address: string): boolean {
  const bare = address.replace(/^::ffff:/i, '');
  return bare === 'localhost' || bare === '::1' || (net.isIPv4(bare) && bare.startsWith('127.'));
}

/**
 * Whether only this machine can reach the service: a loopback HOST with no proxy in front. A proxy
 * on the same machine (TRUST_PROXY_HOPS of 1 or more) forwards anyone's request from a loopback
 * address, so what is open to loopback alone (dev-login by default, /metrics without a token) is not.
 */
export function reachableOnlyFromThisMachine(host: string, trustProxyHops: number): boolean {
  return isLoopback(host) && trustProxyHops === 0;
}

function readGenerationJobs(env: NodeJS.ProcessEnv): GenerationJobSettings {
  const s = settings;
  const leaseMs = read(env, s.GENERATION_LEASE_MS) ?? 30_000;
  const heartbeatMs = read(env, s.GENERATION_HEARTBEAT_MS) ?? 10_000;
  // A heartbeat that does not come before the lease ends lets the sweeper take every live job.
  if (heartbeatMs >= leaseMs) {
    throw new ConfigError(
      `GENERATION_HEARTBEAT_MS=${heartbeatMs} is not accepted with GENERATION_LEASE_MS=${leaseMs}; expected a heartbeat shorter than the lease (a third of it is usual).`,
    );
  }
  return {
    leaseMs,
    heartbeatMs,
    sweepMs: read(env, s.GENERATION_SWEEP_MS) ?? 5000,
    pollMs: read(env, s.GENERATION_POLL_MS) ?? 1000,
    takeover: read(env, s.GENERATION_TAKEOVER) ?? 'fail',
    maxAttempts: read(env, s.GENERATION_MAX_ATTEMPTS) ?? 2,
  };
}

// Every connection is an open file: past the limit, accept() fails and nothing is answered, /healthz neither.
function readConnections(env: NodeJS.ProcessEnv, openFiles: number | null): Config['connections'] {
  const ceiling = openFiles === null ? null : Math.max(1, openFiles - RESERVED_FILES);
  const maxTotal = read(env, settings.MAX_CONNECTIONS);
  if (maxTotal !== undefined && ceiling !== null && maxTotal > ceiling) {
    throw refuse(
      settings.MAX_CONNECTIONS,
      env.MAX_CONNECTIONS!,
      `at most ${ceiling}: the open-files limit (ulimit -n) is ${openFiles}, and ${RESERVED_FILES} of them are kept for the database, Redis, files and refused connections; raise the limit or lower the setting`,
    );
  }
  return {
    maxTotal: maxTotal ?? Math.min(DEFAULT_MAX_CONNECTIONS, ceiling ?? DEFAULT_MAX_CONNECTIONS),
    maxPerAddress: read(env, settings.MAX_CONNECTIONS_PER_ADDRESS) ?? 256,
  };
}

function readHttpTimeouts(env: NodeJS.ProcessEnv): Config['httpTimeouts'] {
  const headersMs = read(env, settings.HTTP_HEADERS_TIMEOUT_MS) ?? 10_000;
  const requestMs = read(env, settings.HTTP_REQUEST_TIMEOUT_MS) ?? Math.max(30_000, headersMs);
  // The headers are part of the request (node refuses the opposite).
  if (requestMs < headersMs) {
    throw new ConfigError(
      `HTTP_REQUEST_TIMEOUT_MS=${requestMs} is not accepted with HTTP_HEADERS_TIMEOUT_MS=${headersMs}; expected at least the headers' time (the headers are part of the request).`,
    );
  }
  return { headersMs, requestMs, keepAliveMs: read(env, settings.HTTP_KEEP_ALIVE_TIMEOUT_MS) ?? 5000 };
}

function readTracing(env: NodeJS.ProcessEnv): TracingSettings | null {
  const endpoint = read(env, settings.OTEL_EXPORTER_OTLP_ENDPOINT);
  const serviceName = read(env, settings.OTEL_SERVICE_NAME) ?? 'trip-itinerary';
  const sampleRatio = read(env, settings.OTEL_TRACES_SAMPLER_ARG) ?? 1;
  return endpoint === undefined ? null : { endpoint, serviceName, sampleRatio };
}

const oidcSettings = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_REDIRECT_URI'] as const;

function readOidc(env: NodeJS.ProcessEnv, nodeEnv: Environment): OidcSettings | null {
  const s = settings;
  const missing = oidcSettings.filter((name) => env[name] === undefined);
  if (missing.length === oidcSettings.length) {
    const stray = (Object.keys(settings) as SettingName[]).find((name) => name.startsWith('OIDC_') && env[name] !== undefined);
    if (stray)
      throw new ConfigError(
        `${stray} is set without OIDC_ISSUER; expected OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_REDIRECT_URI too, or none of the OIDC_ settings.`,
      );
    return null;
  }
  if (missing.length > 0)
    throw new ConfigError(`OpenID Connect sign-in needs ${oidcSettings.join(', ')}; ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set.`);
  const issuer = read(env, s.OIDC_ISSUER)!;
  if (nodeEnv === 'production' && new URL(issuer).protocol !== 'https:') throw refuse(s.OIDC_ISSUER, issuer, 'an https:// URL when NODE_ENV=production');
  const redirectUri = read(env, s.OIDC_REDIRECT_URI)!;
  const returnToOrigins = read(env, s.OIDC_RETURN_TO_ORIGINS) ?? [];
  // The one-time sign-in code (and the cookie of the pending sign-in) must not cross the network in
  // clear; production means production, a loopback host included.
  if (nodeEnv === 'production' && new URL(redirectUri).protocol !== 'https:')
    throw refuse(s.OIDC_REDIRECT_URI, redirectUri, 'an https:// URL when NODE_ENV=production (the sign-in code and cookie would travel in clear)');
  if (nodeEnv === 'production' && returnToOrigins.some((origin) => new URL(origin).protocol !== 'https:'))
    throw refuse(
      s.OIDC_RETURN_TO_ORIGINS,
      env.OIDC_RETURN_TO_ORIGINS!,
      'https:// origins only when NODE_ENV=production (the sign-in code would travel in clear)',
    );
  return {
    issuer,
    clientId: read(env, s.OIDC_CLIENT_ID)!,
    clientSecret: read(env, s.OIDC_CLIENT_SECRET) ?? null,
    redirectUri,
    scopes: read(env, s.OIDC_SCOPES) ?? 'openid email profile',
    returnToOrigins: [...new Set([new URL(redirectUri).origin, ...returnToOrigins])],
    adminClaim: read(env, s.OIDC_ADMIN_CLAIM) ?? null,
    requireVerifiedEmail: read(env, s.OIDC_REQUIRE_VERIFIED_EMAIL) ?? true,
    allowInsecureIssuer: nodeEnv !== 'production' && new URL(issuer).protocol === 'http:',
    timeoutMs: read(env, s.OIDC_TIMEOUT_MS) ?? 5000,
    pendingSignIns: { perAddress: read(env, s.OIDC_PENDING_SIGN_INS_PER_ADDRESS) ?? 20, total: read(env, s.OIDC_PENDING_SIGN_INS_MAX) ?? 10_000 },
  };
}

/** `openFiles`: the open-files limit MAX_CONNECTIONS must stay under (null: unknown). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, openFiles: number | null = openFilesLimit()): Config {
  const s = settings;
  const nodeEnv: Environment = read(env, s.NODE_ENV) ?? (env.VITEST ? 'test' : 'development');
  const host = read(env, s.HOST) ?? '127.0.0.1';
  const dataDir = path.resolve(read(env, s.DATA_DIR) ?? 'data');
  const jwtSecret = read(env, s.JWT_SECRET) ?? null;
  if (nodeEnv === 'production' && !jwtSecret)
    throw new ConfigError(`JWT_SECRET is required when NODE_ENV=production; expected ${settings.JWT_SECRET.accepted}.`);
  const databaseUrl = read(env, s.DATABASE_URL) ?? { engine: 'sqlite', file: path.join(dataDir, 'trip-itinerary.sqlite') };
  const poolMax = read(env, s.DATABASE_POOL_MAX) ?? 10;
  const database: DatabaseLocation = databaseUrl.engine === 'postgres' ? { ...databaseUrl, poolMax } : databaseUrl;
  // Every instance on the database must verify every other's tokens: one generated per data folder would not do.
  if (database.engine === 'postgres' && !jwtSecret)
    throw new ConfigError(
      `JWT_SECRET is required with a PostgreSQL DATABASE_URL (every instance must sign and verify with the same secret); expected ${settings.JWT_SECRET.accepted}.`,
    );
  const redisLocation = read(env, s.REDIS_URL) ?? null;
  // Instances on one Redis must share one database too, and a SQLite file cannot be shared by hosts.
  if (redisLocation !== null && database.engine === 'sqlite')
    throw new ConfigError('REDIS_URL needs a PostgreSQL DATABASE_URL: instances sharing Redis must share their database, and a SQLite file cannot be shared.');
  const trustProxyHops = read(env, s.TRUST_PROXY_HOPS) ?? 0;
  const onlyThisMachine = reachableOnlyFromThisMachine(host, trustProxyHops);
  const devLoginEnabled = read(env, s.AUTH_DEV_LOGIN) ?? (nodeEnv === 'development' && onlyThisMachine);
  if (nodeEnv === 'production' && devLoginEnabled)
    throw refuse(s.AUTH_DEV_LOGIN, env.AUTH_DEV_LOGIN!, 'false when NODE_ENV=production (dev-login signs anyone in)');
  const planner = read(env, s.PLANNER) ?? 'offline';
  const openai = {
    apiKey: read(env, s.OPENAI_API_KEY) ?? null,
    baseUrl: read(env, s.OPENAI_BASE_URL) ?? null,
    model: read(env, s.OPENAI_MODEL) ?? 'gpt-4o-mini',
    maxAttempts: read(env, s.OPENAI_MAX_ATTEMPTS) ?? 3,
  };
  const metricsEnabled = read(env, s.METRICS_ENABLED) ?? true;
  const metricsToken = read(env, s.METRICS_TOKEN) ?? null;
  if (planner === 'openai' && !openai.apiKey && !openai.baseUrl) {
    throw new ConfigError('PLANNER=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL of an OpenAI-compatible server); expected one of them to be set.');
  }
  return {
    env: nodeEnv,
    port: read(env, s.PORT) ?? 8080,
    host,
    dataDir,
    database,
    redis: redisLocation === null ? null : { url: redisLocation, instanceCountHint: read(env, s.INSTANCE_COUNT_HINT) ?? 1 },
    readinessTimeoutMs: read(env, s.READINESS_TIMEOUT_MS) ?? 1000,
    jwtSecret,
    accessTokenTtlSeconds: read(env, s.ACCESS_TOKEN_TTL_SECONDS) ?? 3600,
    refreshTokenTtlSeconds: read(env, s.REFRESH_TOKEN_TTL_SECONDS) ?? 30 * 24 * 3600,
    refreshReuseGraceSeconds: read(env, s.REFRESH_REUSE_GRACE_SECONDS) ?? 10,
    devLoginEnabled,
    adminEmails: read(env, s.ADMIN_EMAILS) ?? [],
    oidc: readOidc(env, nodeEnv),
    sessionRetentionDays: read(env, s.SESSION_RETENTION_DAYS) ?? 30,
    sessionPurgeIntervalMinutes: read(env, s.SESSION_PURGE_INTERVAL_MINUTES) ?? 60,
    responseValidation: read(env, s.RESPONSE_VALIDATION) ?? (nodeEnv === 'test' ? 'strict' : nodeEnv === 'production' ? 'off' : 'log'),
    bodyLimitBytes: read(env, s.BODY_LIMIT_BYTES) ?? 1024 * 1024,
    rateLimitPerWindow: read(env, s.RATE_LIMIT_PER_MINUTE) ?? (nodeEnv === 'test' ? 0 : 6000),
    rateLimitWindowSeconds: 60,
    trustProxyHops,
    connections: readConnections(env, openFiles),
    httpTimeouts: readHttpTimeouts(env),
    chatMessagesPerMinute: read(env, s.CHAT_MESSAGES_PER_MINUTE) ?? (nodeEnv === 'test' ? 0 : 20),
    logLevel: read(env, s.LOG_LEVEL) ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    tracing: readTracing(env),
    corsOrigins: read(env, s.CORS_ORIGINS) ?? ['*'],
    planner,
    plannerDelayMs: read(env, s.PLANNER_DELAY_MS) ?? (nodeEnv === 'test' ? 0 : 40),
    generationConcurrency: read(env, s.GENERATION_CONCURRENCY) ?? 4,
    generationConcurrencyPerUser: read(env, s.GENERATION_CONCURRENCY_PER_USER) ?? 2,
    generationJobs: readGenerationJobs(env),
    openai,
    stomp: {
      heartbeatMs: read(env, s.STOMP_HEARTBEAT_MS) ?? 10_000,
      maxFrameBytes: read(env, s.STOMP_MAX_FRAME_BYTES) ?? 64 * 1024,
      sessionCheckMs: read(env, s.STOMP_SESSION_CHECK_MS) ?? 10_000,
      maxSubscriptionsPerConnection: read(env, s.STOMP_MAX_SUBSCRIPTIONS_PER_CONNECTION) ?? 100,
      maxConnectionsPerUser: read(env, s.STOMP_MAX_CONNECTIONS_PER_USER) ?? 20,
      maxPendingBytes: read(env, s.STOMP_MAX_PENDING_BYTES) ?? 8 * 1024 * 1024,
      connectTimeoutMs: read(env, s.STOMP_CONNECT_TIMEOUT_MS) ?? 10_000,
    },
    // Settings named by asyncapi.yaml (x-delivery retention): a name there that is not a setting here does not compile.
    realtime: {
      historySize: read(env, s[delivery.retention.messages.setting]) ?? delivery.retention.messages.default,
      historyTtlSeconds: read(env, s[delivery.retention.idleSeconds.setting]) ?? delivery.retention.idleSeconds.default,
    },
    // Without a token, metrics (which name operations, loads and failures) stay on this machine.
    metrics: { enabled: metricsEnabled, token: metricsToken, served: metricsEnabled && (metricsToken !== null || onlyThisMachine) },
  };
}
