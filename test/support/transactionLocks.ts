// What a lock taken in a transaction promises on either engine: a second transaction that takes it
// goes on only once the first one ended (on SQLite every transaction already waits for the one
// before it: the port's mutex; on PostgreSQL the lock makes it wait).
import { expect } from 'vitest';
import type { DatabasePort, PgQueries } from '../../src/db/databasePort.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two transactions that each `take` the lock: the second gets it only after the first committed, or rolled back with `rollBack`. */
export async function expectSecondToWaitForFirst(port: DatabasePort, take: (q: PgQueries) => Promise<void>, { rollBack = false } = {}): Promise<void> {
  const events: string[] = [];
  let locked!: () => void;
  let release!: () => void;
  const firstLocked = new Promise<void>((resolve) => (locked = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const first = port.tx(async (q) => {
    await take(q);
    events.push('first locked');
    locked();
    await released;
    events.push('first ends');
    if (rollBack) throw new Error('rolled back');
  });
  const firstEnded = first.then(
    () => 'committed',
    () => 'rolled back',
  );
  await firstLocked;
  const second = port.tx(async (q) => {
    await take(q);
    events.push('second locked');
  });
  // Long enough for the second to have taken the lock if nothing held it back.
  await delay(150);
  expect(events).toEqual(['first locked']);
  release();
  await second;
  expect(await firstEnded).toBe(rollBack ? 'rolled back' : 'committed');
  expect(events).toEqual(['first locked', 'first ends', 'second locked']);
}
