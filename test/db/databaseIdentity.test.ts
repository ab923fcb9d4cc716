// Each migrated database has an identity of its own, kept for its life: what outside the database
// names its rows by id (the Redis plan logs) is keyed by it.
import { expect, it } from 'vitest';
import { readDatabaseIdentity } from '../../src/db/databaseIdentity.js';
import { describeOnBothEngines } from '../support/bothEngines.js';

describeOnBothEngines('database identity', (port) => {
  it('is written by the migrations: random text, the same on every read', async () => {
    const identity = await readDatabaseIdentity(port());
    expect(identity).toMatch(/^[0-9a-f]{24}$/);
    expect(await readDatabaseIdentity(port())).toBe(identity);
  });
});
