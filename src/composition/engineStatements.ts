// The statements each repository writes per engine (EngineStatements, db/databasePort.ts), for the
// engine the database was opened on: besides src/db/, the one place that chooses by engine. Each
// set is a port of its repository (`<thing>.ts`) with an implementation per engine next to it
// (`<thing>.sqlite.ts`, `<thing>.postgres.ts`); the compiler holds each record below to the whole list.
import { postgresLiveSessions } from '../auth/liveSessionStatements.postgres.js';
import { sqliteLiveSessions } from '../auth/liveSessionStatements.sqlite.js';
import { postgresPendingLoginSaveLock } from '../auth/pendingLoginSaveLock.postgres.js';
import { sqlitePendingLoginSaveLock } from '../auth/pendingLoginSaveLock.sqlite.js';
import { postgresChatMessagePage } from '../chats/chatMessagePageStatements.postgres.js';
import { sqliteChatMessagePage } from '../chats/chatMessagePageStatements.sqlite.js';
import { postgresPlaceInserts } from '../catalogue/placeInserts.postgres.js';
import { sqlitePlaceInserts } from '../catalogue/placeInserts.sqlite.js';
import type { EngineStatements, EnginePort, PostgresPort, SqlitePort } from '../db/databasePort.js';
import { postgresFencedRunWrites } from '../generation/fencedRunWriteStatements.postgres.js';
import { sqliteFencedRunWrites } from '../generation/fencedRunWriteStatements.sqlite.js';
import { postgresGenerationClaimLocks } from '../generation/generationClaimLocks.postgres.js';
import { sqliteGenerationClaimLocks } from '../generation/generationClaimLocks.sqlite.js';
import { postgresTripPlanDetail } from '../trips/tripPlanDetailStatements.postgres.js';
import { sqliteTripPlanDetail } from '../trips/tripPlanDetailStatements.sqlite.js';
import { postgresTripPlanList } from '../trips/tripPlanListStatements.postgres.js';
import { sqliteTripPlanList } from '../trips/tripPlanListStatements.sqlite.js';

function sqliteStatements(engine: SqlitePort): EngineStatements {
  return {
    tripPlanList: sqliteTripPlanList(engine),
    tripPlanDetail: sqliteTripPlanDetail(engine),
    chatMessagePage: sqliteChatMessagePage,
    liveSessions: sqliteLiveSessions(engine),
    pendingLoginSaveLock: sqlitePendingLoginSaveLock,
    fencedRunWrites: sqliteFencedRunWrites,
    generationClaimLocks: sqliteGenerationClaimLocks,
    placeInserts: sqlitePlaceInserts,
  };
}

function postgresStatements(engine: PostgresPort): EngineStatements {
  return {
    tripPlanList: postgresTripPlanList(engine),
    tripPlanDetail: postgresTripPlanDetail(engine),
    chatMessagePage: postgresChatMessagePage,
    liveSessions: postgresLiveSessions(engine),
    pendingLoginSaveLock: postgresPendingLoginSaveLock,
    fencedRunWrites: postgresFencedRunWrites,
    generationClaimLocks: postgresGenerationClaimLocks,
    placeInserts: postgresPlaceInserts(engine),
  };
}

/** Every repository's statements for `engine`. */
export function engineStatements(engine: EnginePort): EngineStatements {
  return engine.dialect === 'sqlite' ? sqliteStatements(engine) : postgresStatements(engine);
}
