// What a claim of a waiting generation job locks (src/generation/generationClaimLocks.ts), one
// contract for both implementations: each engine's port carries its own (.sqlite.ts, .postgres.ts).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { DatabasePort, PgQueries } from '../../src/db/databasePort.js';
import { startGeneration } from '../../src/trips/generationRequests.js';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { addMember, addPlan, T0 } from '../support/sqlFixtures.js';
import { expectSecondToWaitForFirst } from '../support/transactionLocks.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The claim's UPDATE of the plan row (generationLeases.ts), as `owner`: the ids it took. */
async function claimRow(port: DatabasePort, q: PgQueries, tripPlanId: number, owner: string): Promise<number[]> {
  const rows = await port.plainSql(q).rows<{ id: number }>(sql`
    UPDATE trip_plan SET gen_owner = ${owner}, gen_attempt = gen_attempt + 1
    WHERE id = (SELECT id FROM trip_plan WHERE id = ${tripPlanId} AND generation_status = 'GENERATING' AND gen_owner IS NULL
                ${port.statements.generationClaimLocks.skipRowsBeingClaimed})
    RETURNING id`);
  return rows.map((r) => r.id);
}

describeOnBothEngines('generation claim locks', (port) => {
  it("holds a member's claims one after the other: a second claim locks the member only once the first ended", async () => {
    const memberId = await addMember(port(), 'claims@example.com');
    const take = (q: PgQueries) => port().statements.generationClaimLocks.lockMemberClaims(port().plainSql(q), memberId);
    await expectSecondToWaitForFirst(port(), take);
    await expectSecondToWaitForFirst(port(), take, { rollBack: true });
  });

  it('gives a row nobody is claiming to the claim', async () => {
    const { id: tripPlanId } = await addPlan(port(), await addMember(port(), 'free@example.com'));
    await startGeneration(port(), tripPlanId, T0);
    expect(await port().tx((q) => claimRow(port(), q, tripPlanId, 'a'))).toEqual([tripPlanId]);
  });

  it('two claims of one row at once: the first takes it, the second gets nothing, not the row a second time', async () => {
    const { id: tripPlanId } = await addPlan(port(), await addMember(port(), 'raced@example.com'));
    await startGeneration(port(), tripPlanId, T0);
    let claimed!: () => void;
    const firstClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const first = port().tx(async (q) => {
      const rows = await claimRow(port(), q, tripPlanId, 'first');
      claimed();
      // Still open while the second claim runs (on PostgreSQL; on SQLite the second waits for it).
      await delay(150);
      return rows;
    });
    await firstClaimed;
    const second = port().tx((q) => claimRow(port(), q, tripPlanId, 'second'));
    expect(await Promise.all([first, second])).toEqual([[tripPlanId], []]);
    const [row] = await port().run((q) =>
      port().plainSql(q).rows<{ owner: string; attempt: number }>(sql`
      SELECT gen_owner AS "owner", gen_attempt AS "attempt" FROM trip_plan WHERE id = ${tripPlanId}`),
    );
    expect(row).toEqual({ owner: 'first', attempt: 1 });
  });
});
