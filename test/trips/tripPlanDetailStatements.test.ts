// A plan's detail statements (src/trips/tripPlanDetailStatements.ts), one contract for both engines:
// the member's own plan with its chat room and its themes as an array, nothing for anyone else's.
import { expect, it } from 'vitest';
import { describeOnBothEngines } from '../support/bothEngines.js';
import { addMember, addPlan, T0 } from '../support/sqlFixtures.js';

describeOnBothEngines('trip plan detail statements', (port) => {
  const own = (memberId: number, tripPlanId: number) => port().statements.tripPlanDetail.own(memberId, tripPlanId);

  it("gives the member's plan with its chat room, as the detail shows it", async () => {
    const memberId = await addMember(port(), 'detail@example.com');
    const plan = await addPlan(port(), memberId, { createdAt: T0 + 5, startDate: '2026-06-02', title: 'Busan in June' });
    expect(await own(memberId, plan.id)).toEqual({
      id: plan.id,
      chatRoomId: plan.chatRoomId,
      title: 'Busan in June',
      region: 'Busan',
      startDate: '2026-06-02',
      endDate: '2026-06-02',
      duration: 3,
      peopleCount: 2,
      themes: ['RESTAURANT'],
      transportation: 'WALKING',
      generationStatus: 'PENDING',
      imageUrl: null,
      createdAt: T0 + 5,
    });
  });

  it("gives nothing for another member's plan or a missing one", async () => {
    const owner = await addMember(port(), 'owner@example.com');
    const other = await addMember(port(), 'other@example.com');
    const plan = await addPlan(port(), owner);
    expect(await own(other, plan.id)).toBeUndefined();
    expect(await own(owner, plan.id + 1000)).toBeUndefined();
  });
});
