// The database the HTTP benchmark's server starts on, on either engine: one member signed in
// through the real auth service (same database, same JWT secret and TTLs as the server's config, so
// the server accepts the token) and `plans` trip plans of theirs with their chat rooms.
import { createAuthService } from '../../src/auth/authService.js';
import { createTokenSigner } from '../../src/auth/tokens.js';
import type { Config } from '../../src/config/config.js';
import { openDatabasePort } from '../../src/composition/openDatabase.js';
import { insertTripPlans } from './seedTrips.js';
import { insertTripPlansOnPostgres } from './seedTripsPostgres.js';

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
  const port = await openDatabasePort(config.database);
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
    const { engine } = port;
    let tripPlanId: number;
    if (engine.dialect === 'sqlite') {
      const sqlite = engine.db.$client;
      insertTripPlans(sqlite, [{ memberId: member.id, count: plans }], Date.now());
      tripPlanId = (
        sqlite.prepare('SELECT id FROM trip_plan WHERE member_id = ? ORDER BY id LIMIT 1 OFFSET ?').get(member.id, Math.floor(plans / 2)) as { id: number }
      ).id;
    } else {
      tripPlanId = await insertTripPlansOnPostgres(engine.db.$client, member.id, plans, Date.now());
    }
    return { memberId: member.id, accessToken: tokens.accessToken, tripPlanId, seedMs: performance.now() - started };
  } finally {
    await port.close();
  }
}
