// The Fastify peer on a fresh PostgreSQL database answers what our server answers
// (test/support/fastifyPeerParity.ts): its pool, named statements and array rows read the same rows.
import { insertTripPlansOnPostgres } from '../../bench/lib/seedTripsPostgres.js';
import { describeFastifyPeerParity } from '../support/fastifyPeerParity.js';
import { freshPostgresDatabase } from '../support/postgres.js';

describeFastifyPeerParity({
  name: 'PostgreSQL',
  database: () => freshPostgresDatabase(),
  async insertPlans(port, plans) {
    if (port.engine.dialect !== 'postgres') throw new Error('a PostgreSQL suite opened another engine');
    const pool = port.engine.db.$client;
    const firstIds: number[] = [];
    for (const { memberId, count } of plans) {
      await insertTripPlansOnPostgres(pool, memberId, count, Date.now());
      const { rows } = await pool.query<{ id: number }>('SELECT id FROM trip_plan WHERE member_id = $1 ORDER BY id LIMIT 1', [memberId]);
      firstIds.push(rows[0]!.id);
    }
    return firstIds;
  },
  peerEnv: (url) => ({ DATABASE_URL: url }),
});
