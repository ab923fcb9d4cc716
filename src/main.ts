// Process entry: config -> app -> HTTP server -> graceful shutdown on SIGTERM/SIGINT.
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { markInterruptedGenerationsFailed } from './trips/tripPlanRepository.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${JSON.stringify({ level: 'fatal', msg: `configuration: ${error.message}` })}\n`);
    process.exit(78);
  }
  throw error;
}

const log = createLogger(config.logLevel);
const app = createApp(config, { logger: log });
const interrupted = markInterruptedGenerationsFailed(app.services.db, Date.now());
if (interrupted.length > 0) log.warn({ tripPlanIds: interrupted }, 'generations interrupted by a restart marked FAILED');

const server = serve({ fetch: app.hono.fetch, port: config.port, hostname: config.host }, (info) => {
  log.info({ port: info.port, database: config.databaseFile, env: config.env, devLogin: config.devLoginEnabled }, `listening on http://localhost:${info.port} (docs: /docs)`);
});

let stopping = false;
function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    log.warn('connections still open after 10 s; closing anyway');
    app.close();
    process.exit(0);
  }, 10_000);
  force.unref();
  server.close(() => {
    app.close();
    log.info('stopped');
    process.exit(0);
  });
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
