// Process entry: config -> app -> HTTP + WebSocket server -> graceful shutdown on SIGTERM/SIGINT.
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

let config: Config;
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
const server = await startServer(app, config.port, config.host);
log.info(
  { port: server.port, database: config.databaseFile, env: config.env, planner: config.planner, devLogin: config.devLoginEnabled },
  `listening on http://localhost:${server.port} (docs: /docs, STOMP: ws://localhost:${server.port}/ws-stomp)`,
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    log.warn('shutdown took over 10 s; exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  await server.close();
  // Runs still going are aborted; their plans are marked FAILED at the next start.
  await app.close();
  log.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
