// The control channel across instances, against the local Redis: the event bus (cancel, new work)
// and session revocations (logout) published on instance A reach A's own listeners once, as the
// in-process ones do, and B's through Redis; nothing crosses to another key prefix or database.
import { afterEach, expect, it } from 'vitest';
import { createRedisSessionRevocations } from '../../src/auth/redisSessionRevocations.js';
import type { SessionRevoked } from '../../src/auth/sessionRevocations.js';
import type { DomainEvents } from '../../src/events/eventBus.js';
import { createRedisEventBus } from '../../src/events/redisEventBus.js';
import { describeOnRedis, freshRedisSpace } from '../support/redis.js';
import { eventually } from '../delivery/planLogContract.js';

const cancel: DomainEvents['tripPlanGenerationCancelRequested'] = { tripPlanId: 4, memberId: 7, chatRoomId: 5, reason: 'cancel', run: 2, attempt: 1 };

describeOnRedis('the Redis control channel', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const busErrors: unknown[] = [];
  const failOnError = (error: unknown) => busErrors.push(error);

  async function buses(db = 0, keyPrefix?: string) {
    const space = await freshRedisSpace(db);
    const make = () => createRedisEventBus({ url: space.url, keyPrefix: keyPrefix ?? space.keyPrefix, onListenerError: failOnError, onBusError: failOnError });
    const all = [make(), make()];
    cleanups.push(async () => {
      await Promise.all(all.map((bus) => bus.close()));
      await space.drop();
    });
    await Promise.all(all.map((bus) => bus.ready));
    return { a: all[0]!, b: all[1]!, space };
  }

  it('an event reaches the listeners of every instance, its own once', async () => {
    const { a, b } = await buses();
    const onA: unknown[] = [];
    const onB: unknown[] = [];
    a.subscribe('tripPlanGenerationCancelRequested', (event) => void onA.push(event));
    b.subscribe('tripPlanGenerationCancelRequested', (event) => void onB.push(event));
    b.subscribe('tripPlanGenerationRequested', () => void onB.push('wrong event'));
    a.publish('tripPlanGenerationCancelRequested', cancel);
    await eventually(() => expect([onA, onB]).toEqual([[cancel], [cancel]]));
    // Its own copy coming back from Redis is not delivered twice: a later event arrives after it.
    b.publish('tripPlanGenerationCancelRequested', { ...cancel, tripPlanId: 9 });
    await eventually(() => expect(onA).toEqual([cancel, { ...cancel, tripPlanId: 9 }]));
    expect(onB).toEqual([cancel, { ...cancel, tripPlanId: 9 }]);
    expect(busErrors).toEqual([]);
  });

  it('keeps to its database, and reports a foreign message instead of delivering it', async () => {
    const { a, b, space } = await buses(3);
    const other = await buses(4, space.keyPrefix);
    const onOther: unknown[] = [];
    other.a.subscribe('tripPlanGenerationCancelRequested', (event) => void onOther.push(event));
    const onB: unknown[] = [];
    b.subscribe('tripPlanGenerationCancelRequested', (event) => void onB.push(event));
    await space.client.publish(`${space.keyPrefix}ctl:3:events`, '{"name":"dropEverything","event":{}}');
    a.publish('tripPlanGenerationCancelRequested', cancel);
    await eventually(() => expect(onB).toEqual([cancel]));
    // Both instances on database 3 read the foreign message and reported it; database 4 saw nothing.
    expect(busErrors).toHaveLength(2);
    busErrors.length = 0;
    expect(onOther).toEqual([]);
  });

  it('a logout on one instance reaches the revocation listeners of every instance, its own at once', async () => {
    const space = await freshRedisSpace();
    const make = () => createRedisSessionRevocations({ url: space.url, keyPrefix: space.keyPrefix, onListenerError: failOnError, onBusError: failOnError });
    const [a, b] = [make(), make()];
    cleanups.push(async () => {
      await Promise.all([a.close(), b.close()]);
      await space.drop();
    });
    await Promise.all([a.ready, b.ready]);
    const onA: SessionRevoked[] = [];
    const onB: SessionRevoked[] = [];
    a.subscribe((event) => onA.push(event));
    b.subscribe((event) => onB.push(event));
    a.publish({ sessionId: 's-1', reason: 'logout' });
    expect(onA).toEqual([{ sessionId: 's-1', reason: 'logout' }]);
    await eventually(() => expect(onB).toEqual([{ sessionId: 's-1', reason: 'logout' }]));
    b.publish({ sessionId: 's-2', reason: 'refresh-token-reuse' });
    await eventually(() => expect(onA).toHaveLength(2));
    expect(onA[1]).toEqual({ sessionId: 's-2', reason: 'refresh-token-reuse' });
    expect(onB).toHaveLength(2);
    expect(busErrors).toEqual([]);
  });
});
