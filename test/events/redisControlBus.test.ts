// The control bus across instances, against the local Redis: the control bus contract
// (controlBusContract.ts) with two instances on one Redis, then what only a shared bus has to do:
// nothing crosses to another key prefix or database, a foreign message is reported instead of
// delivered, a bus made while Redis is away hears the other instances once it is back; and its
// users, the event bus (cancel, new work) and the session revocations (logout): published on
// instance A they reach A's own listeners once, as in memory, and B's through Redis.
import { afterEach, expect, it } from 'vitest';
import { revocationTopics, sessionRevocationsOn, type RevocationTopics, type SessionRevoked } from '../../src/auth/sessionRevocations.js';
import type { TopicGuards } from '../../src/events/controlBus.js';
import { createRedisControlBus, type RedisControlBus } from '../../src/events/controlBus.redis.js';
import { domainEventTopics, eventBusOn, type DomainEvents } from '../../src/events/eventBus.js';
import { openRedisConnections } from '../../src/redis/redisConnections.js';
import { describeOnRedis, freshRedisSpace } from '../support/redis.js';
import { startTcpProxy, throughProxy } from '../support/tcpProxy.js';
import { eventually } from '../delivery/planLogContract.js';
import { controlBusContract, testTopics, type BusUnderTest, type TestTopics } from './controlBusContract.js';

const cancel: DomainEvents['tripPlanGenerationCancelRequested'] = { tripPlanId: 4, memberId: 7, chatRoomId: 5, reason: 'cancel', run: 2, attempt: 1 };

describeOnRedis('the control bus on Redis', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const busErrors: unknown[] = [];
  const failOnError = (error: unknown) => busErrors.push(error);

  /** An instance's bus on connections of its own, closed after the test. */
  function instanceOn<T extends object>(
    url: string,
    keyPrefix: string,
    topics: TopicGuards<T>,
    onListenerError: (error: unknown, topic: string) => void = failOnError,
  ) {
    const connections = openRedisConnections({ url, name: keyPrefix, onError: () => {} });
    const bus: RedisControlBus<T> = createRedisControlBus({ connections, topics, keyPrefix, onListenerError, onBusError: failOnError });
    cleanups.push(async () => {
      await bus.close();
      await connections.close();
    });
    return bus;
  }

  async function twoInstances<T extends object>(topics: TopicGuards<T>, db = 0, keyPrefix?: string) {
    const space = await freshRedisSpace(db);
    cleanups.push(() => space.drop());
    const [a, b] = [instanceOn(space.url, keyPrefix ?? space.keyPrefix, topics), instanceOn(space.url, keyPrefix ?? space.keyPrefix, topics)];
    await Promise.all([a.ready, b.ready]);
    return { a, b, space };
  }

  controlBusContract(async () => {
    const listenerErrors: BusUnderTest['listenerErrors'] = [];
    const space = await freshRedisSpace();
    const make = () => {
      const connections = openRedisConnections({ url: space.url, name: space.keyPrefix, onError: () => {} });
      const bus = createRedisControlBus({
        connections,
        topics: testTopics,
        keyPrefix: space.keyPrefix,
        onListenerError: (error, topic) => listenerErrors.push([error, topic]),
        onBusError: failOnError,
      });
      return { bus, close: () => bus.close().then(() => connections.close()) };
    };
    const [here, there] = [make(), make()];
    await Promise.all([here.bus.ready, there.bus.ready]);
    return {
      bus: here.bus,
      other: there.bus,
      listenerErrors,
      async done() {
        await Promise.all([here.close(), there.close()]);
        await space.drop();
        expect(busErrors.splice(0)).toEqual([]);
      },
    };
  });

  it('keeps to its database, and reports a foreign message instead of delivering it', async () => {
    const { a, b, space } = await twoInstances<TestTopics>(testTopics, 3);
    const other = await twoInstances<TestTopics>(testTopics, 4, space.keyPrefix);
    const onOther: unknown[] = [];
    other.a.subscribe('greeting', (message) => void onOther.push(message));
    const onB: unknown[] = [];
    b.subscribe('greeting', (message) => void onB.push(message));
    await space.client.publish(`${space.keyPrefix}ctl:3`, '{"topic":"dropEverything","message":{}}');
    await space.client.publish(`${space.keyPrefix}ctl:3`, '{"topic":"greeting","message":{"text":7}}');
    a.publish('greeting', { text: 'hello' });
    await eventually(() => expect(onB).toEqual([{ text: 'hello' }]));
    // Both instances on database 3 read the two foreign messages and reported them; database 4 saw nothing.
    expect(busErrors).toHaveLength(4);
    busErrors.length = 0;
    expect(onOther).toEqual([]);
  });

  it('a bus made while Redis is away hears the other instances once Redis is back', async () => {
    const space = await freshRedisSpace();
    cleanups.push(() => space.drop());
    const redis = new URL(space.url);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    cleanups.push(() => proxy.close());
    proxy.cut();
    const away = instanceOn<TestTopics>(throughProxy(space.url, proxy), space.keyPrefix, testTopics);
    const heard: string[] = [];
    away.subscribe('greeting', (message) => void heard.push(message.text));
    const up = instanceOn<TestTopics>(space.url, space.keyPrefix, testTopics);
    await up.ready;
    // Longer than a command may wait: the first SUBSCRIBE has failed by then.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    proxy.restore();
    await away.ready;
    up.publish('greeting', { text: 'back' });
    await eventually(() => expect(heard).toEqual(['back']));
    // What failed while Redis was away was reported; nothing else.
    expect(busErrors.length).toBeGreaterThan(0);
    busErrors.length = 0;
  });

  it("an event reaches the event bus's listeners of every instance, its own once, after the publisher", async () => {
    const { a, b } = await twoInstances(domainEventTopics);
    const onA: unknown[] = [];
    const onB: unknown[] = [];
    const [eventsA, eventsB] = [eventBusOn(a, failOnError), eventBusOn(b, failOnError)];
    eventsA.subscribe('tripPlanGenerationCancelRequested', (event) => void onA.push(event));
    eventsB.subscribe('tripPlanGenerationCancelRequested', (event) => void onB.push(event));
    eventsB.subscribe('tripPlanGenerationRequested', () => void onB.push('wrong event'));
    eventsA.publish('tripPlanGenerationCancelRequested', cancel);
    expect(onA).toEqual([]);
    await eventually(() => expect([onA, onB]).toEqual([[cancel], [cancel]]));
    eventsB.publish('tripPlanGenerationCancelRequested', { ...cancel, tripPlanId: 9 });
    await eventually(() => expect(onA).toEqual([cancel, { ...cancel, tripPlanId: 9 }]));
    expect(onB).toEqual([cancel, { ...cancel, tripPlanId: 9 }]);
    expect(busErrors).toEqual([]);
  });

  it('a logout on one instance reaches the revocation listeners of every instance, its own at once', async () => {
    const { a, b } = await twoInstances<RevocationTopics>(revocationTopics);
    const [revocationsA, revocationsB] = [sessionRevocationsOn(a), sessionRevocationsOn(b)];
    const onA: SessionRevoked[] = [];
    const onB: SessionRevoked[] = [];
    revocationsA.subscribe((event) => onA.push(event));
    revocationsB.subscribe((event) => onB.push(event));
    revocationsA.publish({ sessionId: 's-1', reason: 'logout' });
    expect(onA).toEqual([{ sessionId: 's-1', reason: 'logout' }]);
    await eventually(() => expect(onB).toEqual([{ sessionId: 's-1', reason: 'logout' }]));
    revocationsB.publish({ sessionId: 's-2', reason: 'refresh-token-reuse' });
    await eventually(() => expect(onA).toHaveLength(2));
    expect(onA[1]).toEqual({ sessionId: 's-2', reason: 'refresh-token-reuse' });
    expect(onB).toHaveLength(2);
    expect(busErrors).toEqual([]);
  });
});
