// Process entry: --help, settings -> app -> HTTP + WebSocket server -> graceful shutdown on SIGTERM/SIGINT.
// Anything the operator can fix (a setting, an unwritable folder, a busy port) ends the start with
// one line naming the setting and exit code 78, never a stack trace.
import path from 'node:path';
import type { App } from './composition/app.js';
import { staleBuildInput } from './composition/buildFreshness.js';
import { ConfigError, describeDatabase, isLoopback, loadConfig, reachableOnlyFromThisMachine, settings, type Config } from './config/config.js';
import { settingsHelp, settingsMarkdown } from './config/configHelp.js';
import { checkDataPaths } from './config/dataPaths.js';
import type { RunningServer } from './composition/server.js';

const EX_CONFIG = 78;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(process.argv.includes('--markdown') ? settingsMarkdown() : settingsHelp());
  process.exit(0);
}

/** Running compiled code (`npm start`) older than its sources: refused outside production, where a person is editing them. */
function refuseStaleBuild(config: Config): void {
  const here = import.meta.dirname;
  if (path.basename(path.dirname(here)) !== 'dist') return;
  const newer = staleBuildInput(path.resolve(here, '../..'));
  if (newer === null) return;
  const message = `the build in dist/ is older than ${newer}: run \`npm run build\` (or \`npm run dev\` to run the sources)`;
  const production = config.env === 'production';
  process.stderr.write(`${JSON.stringify({ level: production ? 'warn' : 'fatal', time: new Date().toISOString(), msg: message })}\n`);
  if (!production) process.exit(EX_CONFIG);
}

function refuseToStart(message: string): never {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', time: new Date().toISOString(), msg: `configuration: ${message}` })}\n`);
  process.exit(EX_CONFIG);
}

let config: Config;
try {
  config = loadConfig();
  refuseStaleBuild(config);
  checkDataPaths(config);
} catch (error) {
  if (error instanceof ConfigError) refuseToStart(error.message);
  throw error;
}

// Loaded only once the settings hold, so a refusal costs no more than reading them.
const [{ default: BetterSqlite3 }, { createApp }, { openDatabasePort }, { abandonLogs, createLogger, droppedLogLines, flushLogs }, { startServer }] =
  await Promise.all([
    import('better-sqlite3'),
    import('./composition/app.js'),
    import('./composition/openDatabase.js'),
    import('./kernel/logger.js'),
    import('./composition/server.js'),
  ]);
const log = createLogger(config.logLevel);
// The OpenTelemetry SDK only when it is configured: without OTEL_EXPORTER_OTLP_ENDPOINT none of it loads.
const tracing = config.tracing ? (await import('./composition/tracing.js')).startTracing(config.tracing) : null;

let app: App;
try {
  // The reentry check of the database port is a development aid (databasePort.ts says what it costs).
  const database = await openDatabasePort(config.database, { log, guardReentry: config.env !== 'production' });
  app = await createApp(config, database, { logger: log });
} catch (error) {
  const { database } = config;
  // PostgreSQL that cannot be reached, refuses the login or has no such database: one line, no stack.
  if (database.engine === 'postgres') {
    const { code, message } = error as { code?: string; message?: string };
    refuseToStart(
      `DATABASE_URL: the PostgreSQL database ${describeDatabase(database)} cannot be used (${code ? `${code}: ` : ''}${message ?? String(error)}).`,
    );
  }
  // The checks above catch the usual causes; this is what is left (a corrupt file, a lock, a race).
  const setting = process.env.DATABASE_URL !== undefined ? 'DATABASE_URL' : 'DATA_DIR';
  if (error instanceof BetterSqlite3.SqliteError)
    refuseToStart(`${setting}: the database ${describeDatabase(database)} cannot be used (${error.code}: ${error.message}).`);
  if ((error as NodeJS.ErrnoException).syscall) refuseToStart(`DATA_DIR: ${(error as Error).message}.`);
  throw error;
}

// Stop within STOP_LIMIT_MS of SIGTERM or SIGINT, whatever happens: in-flight generations get AI002
// while their STOMP connections are still open and are saved as FAILED (openapi.yaml,
// startTripPlanGeneration), then connections close, then the database; the log gets at most
// LOG_FLUSH_LIMIT_MS to drain (nobody may be reading stdout).
const STOP_LIMIT_MS = 10_000;
const LOG_FLUSH_LIMIT_MS = 2_000;
/** the listening server, once it listens (a signal may come before) */
const running: { server?: RunningServer } = {};
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    log.warn(`shutdown took over ${STOP_LIMIT_MS / 1000} s; exiting`);
    abandonLogs(log);
    process.exit(1);
  }, STOP_LIMIT_MS - LOG_FLUSH_LIMIT_MS);
  force.unref();
  await app.worker.stop();
  await running.server?.close();
  await app.close();
  // The last spans (the stop's own included) go out before the process does.
  await tracing?.shutdown(LOG_FLUSH_LIMIT_MS).catch((error: unknown) => log.warn({ err: error }, 'the last spans could not be sent'));
  log.info({ droppedLogLines: droppedLogLines(log) }, 'stopped');
  clearTimeout(force);
  await flushLogs(log, LOG_FLUSH_LIMIT_MS);
  process.exit(0);
}
// Registered before the server listens: a signal right after the 'listening' line must not find
// the default handler (an instant exit without the stop above).
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

async function listenOrRefuse(): Promise<RunningServer> {
  try {
    return await startServer(app, config.port, config.host);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const where = `${config.host}:${config.port}`;
    if (code === 'EADDRINUSE') refuseToStart(`PORT=${config.port} is not accepted; expected a port nobody listens on at ${where} (${message}).`);
    if (code === 'EACCES') refuseToStart(`PORT=${config.port} is not accepted; expected a port this user may listen on (${message}).`);
    if (code === 'EADDRNOTAVAIL') refuseToStart(`HOST=${JSON.stringify(config.host)} is not accepted; expected ${settings.HOST.accepted} (${message}).`);
    throw error;
  }
}
const listening = await listenOrRefuse();
running.server = listening;
// Loaded with the app already; imported here so that --help loads nothing of it.
const { stompServerPath } = await import('../generated/asyncapi.js');

log.info(
  {
    port: listening.port,
    host: config.host,
    database: describeDatabase(config.database),
    env: config.env,
    planner: config.planner,
    devLogin: config.devLoginEnabled,
    metrics: config.metrics.served ? (config.metrics.token ? 'token' : 'loopback') : 'off',
  },
  `listening on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${listening.port} (docs: /docs, STOMP: ${stompServerPath})`,
);
if (config.metrics.enabled && !config.metrics.served) {
  const where = config.trustProxyHops > 0 ? `${config.host} behind TRUST_PROXY_HOPS=${config.trustProxyHops} proxies` : config.host;
  log.info({ host: config.host }, `GET /metrics is not served on ${where} without METRICS_TOKEN (404); set METRICS_TOKEN to let Prometheus scrape it.`);
}
if (config.devLoginEnabled && !reachableOnlyFromThisMachine(config.host, config.trustProxyHops)) {
  const where = isLoopback(config.host) ? `${config.host} behind TRUST_PROXY_HOPS=${config.trustProxyHops} proxies` : config.host;
  log.warn(
    { host: config.host, trustProxyHops: config.trustProxyHops },
    `dev-login is on at ${where}: anyone who reaches this port can sign in as any e-mail (role MEMBER). Set AUTH_DEV_LOGIN=false unless this is a private test deployment.`,
  );
}
