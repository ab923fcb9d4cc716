// GET /metrics is what an operator looks at when things go wrong: it answers while the database does
// not, with the series read from the database (the waiting count) at their last value.
import { afterEach, expect, it } from 'vitest';
import { scrape } from '../support/prometheusScrape.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it('GET /metrics still answers when the database does not (the waiting count keeps its last value)', async () => {
  t = await startTestApp();
  expect((await scrape(t)).value('trip_generations_waiting')).toBe(0);
  await t.app.services.db.close();
  const metrics = await scrape(t);
  expect(metrics.value('trip_generations_waiting')).toBe(0);
  expect(metrics.families.map((f) => f.name)).toContain('trip_db_query_errors_total');
});
