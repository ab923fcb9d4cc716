// Every setting of the service, read once from the environment, with defaults that work on a fresh
// clone (SQLite file under ./data, offline planner, dev-login on outside production).
import path from 'node:path';

export type ResponseValidationMode = 'strict' | 'log' | 'off';
export type Environment = 'development' | 'test' | 'production';

export interface Config {
  env: Environment;
  port: number;
  host: string;
  dataDir: string;
  /** SQLite file path, or ':memory:' */
  databaseFile: string;
  /** null: generate one and keep it in dataDir (development and test only) */
  jwtSecret: string | null;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  devLoginEnabled: boolean;
  responseValidation: ResponseValidationMode;
  bodyLimitBytes: number;
  /** requests per client per window; 0 turns rate limiting off */
  rateLimitPerWindow: number;
  rateLimitWindowSeconds: number;
  logLevel: string;
  corsOrigins: string[];
  planner: 'offline' | 'openai';
  /** pause between streamed summary chunks of the offline planner */
  plannerDelayMs: number;
  generationConcurrency: number;
  /** runs of one member at once (startTripPlanGeneration in openapi.yaml: queue and fairness) */
  generationConcurrencyPerUser: number;
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
  };
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function databaseFileOf(url: string | undefined, dataDir: string): string {
  if (!url) return path.join(dataDir, 'trip-itinerary.sqlite');
  if (url === ':memory:' || url === 'sqlite::memory:') return ':memory:';
  const file = url.replace(/^sqlite:(\/\/)?/, '').replace(/^file:(\/\/)?/, '');
  if (/^[a-z]+:\/\//i.test(file)) throw new ConfigError(`DATABASE_URL must be a SQLite file (sqlite:path, file:path or a path), got "${url}"`);
  return path.resolve(file);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' || env.VITEST ? 'test' : 'development';
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  const jwtSecret = env.JWT_SECRET || null;
  if (nodeEnv === 'production' && (!jwtSecret || Buffer.byteLength(jwtSecret) < 32)) {
    throw new ConfigError('JWT_SECRET of at least 32 bytes is required in production');
  }
  const devLoginEnabled = flag(env, 'AUTH_DEV_LOGIN', nodeEnv !== 'production');
  if (nodeEnv === 'production' && devLoginEnabled) throw new ConfigError('AUTH_DEV_LOGIN=true is refused in production');
  const responseValidation = (env.RESPONSE_VALIDATION ?? (nodeEnv === 'test' ? 'strict' : nodeEnv === 'production' ? 'off' : 'log')) as ResponseValidationMode;
  if (!['strict', 'log', 'off'].includes(responseValidation)) throw new ConfigError(`RESPONSE_VALIDATION must be strict, log or off`);
  const planner = (env.PLANNER ?? 'offline') as Config['planner'];
  if (!['offline', 'openai'].includes(planner)) throw new ConfigError(`PLANNER must be offline or openai, got "${env.PLANNER}"`);
  if (planner === 'openai' && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
    throw new ConfigError('PLANNER=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL of an OpenAI-compatible server)');
  }
  return {
    env: nodeEnv,
    port: integer(env, 'PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseFile: databaseFileOf(env.DATABASE_URL, dataDir),
    jwtSecret,
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 3600, 1),
    refreshTokenTtlSeconds: integer(env, 'REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 3600, 1),
    devLoginEnabled,
    responseValidation,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1),
    rateLimitPerWindow: integer(env, 'RATE_LIMIT_PER_MINUTE', nodeEnv === 'test' ? 0 : 6000),
    rateLimitWindowSeconds: 60,
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    corsOrigins: (env.CORS_ORIGINS ?? '*').split(',').map((o) => o.trim()).filter(Boolean),
    planner,
    plannerDelayMs: integer(env, 'PLANNER_DELAY_MS', nodeEnv === 'test' ? 0 : 40),
    generationConcurrency: integer(env, 'GENERATION_CONCURRENCY', 4, 1),
    generationConcurrencyPerUser: integer(env, 'GENERATION_CONCURRENCY_PER_USER', 2, 1),
    openai: {
      apiKey: env.OPENAI_API_KEY || null,
      baseUrl: env.OPENAI_BASE_URL || null,
      model: env.OPENAI_MODEL || 'gpt-4o-mini',
      maxAttempts: integer(env, 'OPENAI_MAX_ATTEMPTS', 3, 1),
    },
    stomp: {
      heartbeatMs: integer(env, 'STOMP_HEARTBEAT_MS', 10_000),
      maxFrameBytes: integer(env, 'STOMP_MAX_FRAME_BYTES', 64 * 1024, 1024),
      sessionCheckMs: integer(env, 'STOMP_SESSION_CHECK_MS', 10_000, 10),
      maxSubscriptionsPerConnection: integer(env, 'STOMP_MAX_SUBSCRIPTIONS_PER_CONNECTION', 100, 1),
      maxConnectionsPerUser: integer(env, 'STOMP_MAX_CONNECTIONS_PER_USER', 20, 1),
      maxPendingBytes: integer(env, 'STOMP_MAX_PENDING_BYTES', 8 * 1024 * 1024, 64 * 1024),
    },
  };
}
