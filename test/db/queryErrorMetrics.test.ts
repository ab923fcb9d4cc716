// trip_db_query_errors_total moves on a real failure, not a simulated one: a write the SQLite storage
// refuses (the database at its size limit) is a query error, while a handler's own refusal (404) is
// not. SQLite only: the size cap is SQLite's (PostgreSQL failures are in test/faults/postgresOutage.test.ts).
import { describe, expect, it } from 'vitest';
import { cleanUpsAfterEach } from '../support/cleanUps.js';
import { scrape } from '../support/prometheusScrape.js';
import { capDatabaseSize, sqliteConnection } from '../support/storageFaults.js';
import { busanTrip } from '../support/testApp.js';

const cleanUps = cleanUpsAfterEach();

describe('query error metric', () => {
  it('a write the storage refuses moves trip_db_query_errors_total; a 404 of a handler does not', async () => {
    const t = await cleanUps.app();
    const { accessToken: token } = await t.signIn('full-disk@example.com');
    expect((await t.request('GET', '/api/v1/trips/999999', { token })).status).toBe(404);
    expect((await scrape(t)).value('trip_db_query_errors_total')).toBe(0);
    const cap = capDatabaseSize(sqliteConnection(t.app.services.db));
    cleanUps.add(() => cap.lift());
    const statuses: number[] = [];
    // The pages the database has may hold a few more rows; it refuses once they are full.
    while (statuses.at(-1) !== 503 && statuses.length < 200) statuses.push((await t.request('POST', '/api/v1/trips', { token, body: busanTrip })).status);
    expect(statuses.at(-1)).toBe(503);
    expect((await scrape(t)).value('trip_db_query_errors_total')).toBe(1);
  });
});
