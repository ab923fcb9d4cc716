// The settings a benchmarked server runs with: what a deployment runs (production's defaults, so no
// port reentry check, databasePort.ts; dev-login off), with the rate limit and response validation
// off so they do not cap or skew the load, and the connections of one client address uncapped (the
// load generator is one address). A fresh 48-byte JWT secret, which the seeding shares so its
// tokens verify.
import crypto from 'node:crypto';

export function deploymentEnv(options: { dataDir: string; databaseUrl: string; logLevel?: string }): Record<string, string> {
  return {
    NODE_ENV: 'production',
    AUTH_DEV_LOGIN: 'false',
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    JWT_SECRET: crypto.randomBytes(36).toString('base64url'),
    LOG_LEVEL: options.logLevel ?? 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_CONNECTIONS_PER_ADDRESS: '1000000',
    RESPONSE_VALIDATION: 'off',
  };
}
