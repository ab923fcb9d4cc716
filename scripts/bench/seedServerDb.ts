// The database the HTTP benchmark's server starts on: one member signed in through the real auth
// service (same DB, same JWT secret and TTLs as the server's config, so the server accepts the
// token) and `plans` trip plans of theirs.
import { createAuthService } from '../../src/auth/authService.js';
import { createTokenSigner } from '../../src/auth/tokens.js';
import type { Config } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { databasePort, sqlitePort } from '../../src/db/databasePort.js';
import { insertTripPlans } from './seedTrips.js';

export interface SeededServerDb {
  memberId: number;
  accessToken: string;
  /** the id of one of the member's plans */
  tripPlanId: number;
  seedMs: number;
}

export async function seedServerDb(config: Config, plans: number): Promise<SeededServerDb> {
  if (!config.jwtSecret) throw new Error('the benchmark needs an explicit JWT_SECRET');
  const started = performance.now();
  const database = openDatabase(config.database.engine === 'sqlite' ? config.database.file : '');
  const port = databasePort(sqlitePort(database));
  try {
    const signer = createTokenSigner(config.jwtSecret, { access: config.accessTokenTtlSeconds, refresh: config.refreshTokenTtlSeconds });
    const auth = createAuthService({
      db: port,
      signer,
      clock: Date.now,
      accessTtlSeconds: config.accessTokenTtlSeconds,
      refreshTtlSeconds: config.refreshTokenTtlSeconds,
    });
    const { member, tokens } = await auth.signIn({ email: 'bench@example.com', provider: 'DEV' });
    insertTripPlans(database.sqlite, [{ memberId: member.id, count: plans }], Date.now());
    const row = database.sqlite.prepare('SELECT id FROM trip_plan WHERE member_id = ? ORDER BY id LIMIT 1 OFFSET ?').get(member.id, Math.floor(plans / 2)) as {
      id: number;
    };
    return { memberId: member.id, accessToken: tokens.accessToken, tripPlanId: row.id, seedMs: performance.now() - started };
  } finally {
    database.close();
  }
}
