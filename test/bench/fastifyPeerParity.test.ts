// The Fastify peer on a SQLite file answers what our server answers (test/support/fastifyPeerParity.ts).
import path from 'node:path';
import { insertTripPlans } from '../../bench/lib/seedTrips.js';
import { describeFastifyPeerParity } from '../support/fastifyPeerParity.js';

describeFastifyPeerParity({
  name: 'SQLite',
  database: (dir) => Promise.resolve({ url: path.join(dir, 'parity.sqlite'), drop: () => Promise.resolve() }),
  insertPlans(port, plans) {
    if (port.engine.dialect !== 'sqlite') throw new Error('a SQLite suite opened another engine');
    const sqlite = port.engine.db.$client;
    insertTripPlans(sqlite, plans, Date.now());
    const firstOf = (memberId: number) =>
      (sqlite.prepare('SELECT id FROM trip_plan WHERE member_id = ? ORDER BY id LIMIT 1').get(memberId) as { id: number }).id;
    return Promise.resolve(plans.map((p) => firstOf(p.memberId)));
  },
  peerEnv: (url) => ({ DATABASE_FILE: url }),
});
