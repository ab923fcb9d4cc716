// The public entry of src/ for the repository's tools (tools/) and benchmarks (bench/): they import
// the service only through this file (test/architecture/toolsBoundary.test.ts), so what they lean on
// is listed in one place and the rest of src/ can move without breaking them. Nothing in src/
// imports it and `npm start` never loads it (main.ts is the service's entry).

// The service in process and on a port: the fuzzer runs the app it builds.
export { createApp } from './composition/app.js';
export { startServer } from './composition/server.js';
// Whether dist/ is older than its sources: the benchmarks build before measuring `npm start`.
export { staleBuildInput } from './composition/buildFreshness.js';

// The settings from the environment, as the service reads them (token, mock, fuzzer, benchmarks' servers).
export { loadConfig, ConfigError, type Config } from './config/config.js';
// Structured logs (pino), for the mock and the in-process benchmarks.
export { createLogger, type Logger } from './kernel/logger.js';

// Opening the database on either engine, and the port every repository takes (token, seeding, in-process benchmarks).
export { databasePortOf, openDatabasePort, openSqliteDatabasePort } from './composition/openDatabase.js';
export { openPostgresDatabase } from './db/postgresDatabase.js';
export { openDatabase, type Database } from './db/database.js';
export { postgresPort, sqlitePort, type DatabasePort } from './db/databasePort.js';

// Members, sessions and signed tokens: `npm run token` and the benchmarks' signed-in callers.
export { createAuthService } from './auth/authService.js';
export { createTokenSigner } from './auth/tokens.js';
export { resolveJwtSecret } from './auth/jwtSecret.js';
export { roleForEmail } from './auth/roles.js';

// The repositories and queries the benchmarks seed and measure (list and chat pages, plan creation).
export { insertTripPlan, findOwnListCursor, listOwnTripPlans } from './trips/tripPlanRepository.js';
export { listOwnTripPlansSql, type TripSort } from './trips/tripPlanList.js';
export { tripPlanDetailSql, type DetailRow } from './trips/tripPlanDetail.js';
export { findChatMessage, findOwnChatRoom } from './chats/chatRepository.js';
export { ownChatPageRows } from './chats/chatMessagePage.js';
export { syncCatalogue } from './catalogue/placeRepository.js';
export { addDays, defaultTitle } from './itinerary/tripDates.js';

// Generations without HTTP: the start handler's UPDATE, the runner and the offline planner (generation benchmark).
export { startGeneration } from './trips/generationRequests.js';
export { startGenerationRunner, type GenerationRunner } from './generation/generationRunner.js';
export { createOfflinePlanner } from './generation/offline/offlinePlanner.js';
export { createInProcessEventBus } from './events/eventBus.js';

// Real-time delivery: plan logs, where they start, the broker and the typed publishers (mock, plan-log and generation benchmarks).
export { createInMemoryPlanLog } from './delivery/inMemoryPlanLog.js';
export { createRedisPlanLog } from './delivery/redisPlanLog.js';
export { openRedisConnections } from './redis/redisConnections.js';
export { createInMemoryLogStarts } from './delivery/logStarts.js';
export { planStream, roomStream, type PlanLog } from './delivery/planLog.js';
export { createInProcessBroker, type Broker } from './delivery/broker.js';
export { createPublishers, type Publishers, type RunPublishers } from './delivery/publishers.js';
export { registerStompEndpoint, type StompEndpoint } from './stomp/stompEndpoint.js';
// The hook through which the mock injects the faults its clients ask for into STOMP sessions.
export { type ConnectionFaults, type MessageFault, type StompFaults } from './stomp/stompFaults.js';

// The HTTP pieces the mock answers with, so its checks and errors are the service's own.
export { type HttpEnv } from './http/httpEnv.js';
export { allowedMethods, readValidRequest, registerOperationsOf } from './http/operationRouter.js';
export { createResponseChecker } from './http/responseValidation.js';
export { rateLimit } from './http/rateLimit.js';
export { requestLogging } from './http/requestLogging.js';
export { AppError } from './kernel/appError.js';
export { renderError } from './kernel/envelope.js';
export { errorTextLimits, truncateText } from './kernel/errorBodyLimits.js';
export { type Principal } from './kernel/principal.js';
export { readChatMessage } from './chats/chatService.js';
// Which chat messages the mock answers as edits: those the service's offline agent reads as one.
export { createOfflineChatAgent } from './chats/offlineChatAgent.js';
// The mock's generation stream: its pacing and the chunks a summary streams in.
export { abortableDelay } from './generation/abortableDelay.js';
export { chunkText } from './text/textChunks.js';

// The documents and docs pages with their assets, which the mock serves as the service does.
export { createDocumentHandlers } from './operational/documentHandlers.js';
export { loadSpecDocuments } from './operational/specDocuments.js';
export { registerSwaggerUiAssets } from './operational/swaggerUi.js';
export { registerAsyncapiAssets } from './operational/asyncapiPage.js';
export { registerPlaygroundAssets } from './operational/playgroundPage.js';

// The metrics registry (metrics benchmark: what recording one request costs).
export { createMetrics } from './metrics/metricsRegistry.js';
export { requestSeries } from './http/requestMetrics.js';
export { routeFor } from './http/operationRouter.js';
// The live metrics page, served by `npm run dashboard` for another instance (and by the mock).
export { dashboardPath, registerDashboardAssets, renderDashboardPage } from './operational/dashboardPage.js';
