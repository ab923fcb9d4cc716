// The database the HTTP benchmark's server starts on, on either engine: one member signed in
// through the real auth service (same database, same JWT secret and TTLs as the server's config, so
// the server accepts the token) and `plans` trip plans of theirs with their chat rooms.
import { createAuthService, createTokenSigner, type Config, openDatabasePort } from '../../src/index.js';
import { insertTripPlans } from './seedTrips.js';
import { insertTripPlansOnPostgres } from './seedTripsPostgres.js';

export interface SeededServerDb {
  memberId: number;
  accessToken: string;
  /** the id of one of the member's plans */
  tripPlanId: number;
  /** the ids of all of the member's plans, ascending */
  tripPlanIds: number[];
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
    const idsSql = 'SELECT id FROM trip_plan WHERE member_id = $member ORDER BY id';
    let tripPlanIds: number[];
    if (engine.dialect === 'sqlite') {
      const sqlite = engine.db.$client;
      insertTripPlans(sqlite, [{ memberId: member.id, count: plans }], Date.now());
      tripPlanIds = (sqlite.prepare(idsSql).all({ member: member.id }) as { id: number }[]).map((row) => row.id);
    } else {
      await insertTripPlansOnPostgres(engine.db.$client, member.id, plans, Date.now());
      const { rows } = await engine.db.$client.query<{ id: string }>(idsSql.replace('$member', '$1'), [member.id]);
      tripPlanIds = rows.map((row) => Number(row.id));
    }
    const tripPlanId = tripPlanIds[Math.floor(plans / 2)]!;
    return { memberId: member.id, accessToken: tokens.accessToken, tripPlanId, tripPlanIds, seedMs: performance.now() - started };
  } finally {
    await port.close();
  }
}
