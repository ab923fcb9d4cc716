// Replay across instances on the Redis plan log: the publishers of instance A write a run while
// subscribers on instance B join it at different points with x-replay (the history is read over
// the network while A keeps publishing) or resume with x-since; each must get the run whole, in
// order, once. The publishers and the subscription are the ones the STOMP side uses.
import { afterEach, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.js';
import { createInProcessBroker } from '../../src/delivery/broker.js';
import { subscribeToLog, type LogSubscription } from '../../src/delivery/logSubscription.js';
import type { LogPosition } from '../../src/delivery/planLog.js';
import { createInMemoryLogStarts } from '../../src/delivery/logStarts.js';
import { createPublishers } from '../../src/delivery/publishers.js';
import { describeOnRedis, freshRedisSpace, redisPlanLogOn } from '../support/redis.js';
import { eventually } from '../delivery/planLogContract.js';

const logger = createLogger('silent');
const plan = { memberId: 7, tripPlanId: 41, chatRoomId: 42 };
const chat = '/user/sub/chat/42';
const chunk = (i: number) => ({ message: `chunk ${i}`, isComplete: false, timestamp: '2026-11-22T09:30:00Z', messageStreamType: 'CHAT' as const });
const completed = { message: 'done', isComplete: true as const, timestamp: '2026-11-22T09:30:00Z', messageStreamType: 'COMPLETED' as const };

describeOnRedis('replay across instances (Redis plan log)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function instances() {
    const space = await freshRedisSpace();
    // Both instances share one record of where the logs began, as they share one database.
    const starts = createInMemoryLogStarts();
    const make = () => {
      const broker = createInProcessBroker((error) => {
        throw error;
      });
      const log = redisPlanLogOn(space.url, { broker, historySize: 1000, historyTtlSeconds: 60, log: logger, starts, keyPrefix: space.keyPrefix });
      return { broker, log, publishers: createPublishers(log, 'strict', logger) };
    };
    const [a, b] = [make(), make()];
    cleanups.push(async () => {
      await Promise.all([a.log.close(), b.log.close()]);
      await space.drop();
    });
    return { a, b };
  }

  it('subscribers joining a run on another instance with x-replay: all each get it whole, in order, once', async () => {
    const { a, b } = await instances();
    const run = a.publishers.startRun(plan);
    const joined: { received: string[]; subscription: Promise<LogSubscription> }[] = [];
    const join = () => {
      const received: string[] = [];
      const subscription = subscribeToLog(b.log, b.broker, { memberId: 7, destination: chat, stream: 'room:42' }, { all: true }, (body, p) =>
        received.push(`${p.offset} ${body}`),
      );
      joined.push({ received, subscription });
    };
    for (let i = 1; i <= 200; i++) {
      run.chat(chunk(i));
      // Join without waiting: the history read races the publishing.
      if (i % 25 === 0) join();
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    run.chat(completed);
    await a.publishers.settled();
    expect(a.publishers.stats.refused).toBe(0);
    const whole = Array.from({ length: 200 }, (_, i) => `${i + 1} ${JSON.stringify(chunk(i + 1))}`).concat(`201 ${JSON.stringify(completed)}`);
    for (const { received, subscription } of joined) {
      expect((await subscription).recovered).toBe(true);
      await eventually(() => expect(received).toEqual(whole));
    }
  });

  it('a reconnect on the other instance with x-since gets what came after it; nothing of the run is taken after its terminal message', async () => {
    const { a, b } = await instances();
    const run = a.publishers.startRun(plan);
    for (let i = 1; i <= 5; i++) run.chat(chunk(i));
    run.chat(completed);
    run.chat(chunk(99));
    run.schedule({ type: 'UPDATE_STARTED', tripPlanId: 41 });
    await a.publishers.settled();
    expect(a.publishers.stats.refused).toBe(2);

    const history = await b.log.history('room:42', { all: true });
    if (!history.recovered) throw new Error('history lost');
    const third: LogPosition = history.messages[2]!;
    const received: string[] = [];
    const resumed = await subscribeToLog(b.log, b.broker, { memberId: 7, destination: chat, stream: 'room:42' }, third, (body, p) =>
      received.push(`${p.offset}`),
    );
    expect(resumed.recovered).toBe(true);
    expect(received).toEqual(['4', '5', '6']);
    resumed.end();
  });
});
