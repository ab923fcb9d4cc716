// What /readyz asks the database: on SQLite, can it take a write right now (writeProbe.ts); on
// PostgreSQL, does it answer a query (the port exists only once its migrations were applied).
import type { EnginePort } from './databasePort.js';
import { probeWrite } from './writeProbe.js';

/** Throws the engine's error when the database cannot serve requests now. */
export async function probeReadiness(engine: EnginePort): Promise<void> {
  if (engine.dialect === 'sqlite') {
    // Through the port's mutex: the probe's own transaction must not start inside another caller's.
    await engine.run((db) => Promise.resolve(probeWrite(db.$client)));
    return;
  }
  await engine.db.$client.query('SELECT 1');
}
