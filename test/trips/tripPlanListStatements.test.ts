// The trip list page's statements (src/trips/tripPlanListStatements.ts), one contract for both
// implementations: each engine's port carries its own (.sqlite.ts, .postgres.ts).
import { expect, it } from 'vitest';
import type { ListCursor, TripPlanListItem, TripSort } from '../../src/trips/tripPlanList.js';
import type { TripPlanWithRoom } from '../../src/trips/tripPlanRepository.js';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { addMember, addPlan, T0 } from '../support/sqlFixtures.js';

const item = (plan: TripPlanWithRoom): TripPlanListItem => ({
  id: plan.id,
  memberId: plan.memberId,
  chatRoomId: plan.chatRoomId,
  title: plan.title,
  startDate: plan.startDate,
  region: plan.region,
  imageUrl: plan.imageUrl,
  generationStatus: plan.generationStatus,
});
const cursorOf = (plan: TripPlanWithRoom): ListCursor => ({ id: plan.id, createdAt: plan.createdAt, startDate: plan.startDate });
const newest: TripSort = { field: 'createdAt', direction: 'desc' };

describeOnBothEngines('trip plan list statements', (port) => {
  const page = (memberId: number, sort: TripSort, size: number, cursor: ListCursor | null) => port().statements.tripPlanList.page(memberId, sort, size, cursor);

  it("pages a member's plans newest first, size + 1 items with what a list item shows, after a cursor", async () => {
    const member = await addMember(port(), 'lister@example.com');
    const other = await addMember(port(), 'other@example.com');
    const plans: TripPlanWithRoom[] = [];
    for (let n = 1; n <= 4; n++) plans.push(await addPlan(port(), member, { createdAt: T0 + n, title: `Plan ${n}` }));
    await addPlan(port(), other, { createdAt: T0 + 10 });
    const [p1, p2, p3, p4] = plans as [TripPlanWithRoom, TripPlanWithRoom, TripPlanWithRoom, TripPlanWithRoom];

    expect(await page(member, newest, 2, null)).toEqual([item(p4), item(p3), item(p2)]);
    expect(await page(member, newest, 2, cursorOf(p3))).toEqual([item(p2), item(p1)]);
    expect(await page(member, { field: 'createdAt', direction: 'asc' }, 2, cursorOf(p2))).toEqual([item(p3), item(p4)]);
  });

  it('orders by start date either way, a tie by id', async () => {
    const member = await addMember(port(), 'dates@example.com');
    const may = await addPlan(port(), member, { startDate: '2026-05-01' });
    const juneA = await addPlan(port(), member, { startDate: '2026-06-01' });
    const juneB = await addPlan(port(), member, { startDate: '2026-06-01' });
    const ids = async (sort: TripSort, cursor: ListCursor | null) => (await page(member, sort, 10, cursor)).map((p) => p.id);

    expect(await ids({ field: 'startDate', direction: 'asc' }, null)).toEqual([may.id, juneA.id, juneB.id]);
    expect(await ids({ field: 'startDate', direction: 'desc' }, null)).toEqual([juneB.id, juneA.id, may.id]);
    expect(await ids({ field: 'startDate', direction: 'asc' }, cursorOf(juneA))).toEqual([juneB.id]);
    expect(await ids({ field: 'startDate', direction: 'desc' }, cursorOf(juneB))).toEqual([juneA.id, may.id]);
  });

  it('gives nothing for a member without plans, or past the last one', async () => {
    const member = await addMember(port(), 'empty@example.com');
    expect(await page(member, newest, 5, null)).toEqual([]);
    const only = await addPlan(port(), member);
    expect(await page(member, newest, 5, cursorOf(only))).toEqual([]);
  });
});
