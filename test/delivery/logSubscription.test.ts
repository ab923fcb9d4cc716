// A replaying subscription takes live messages before it reads the history: a message published
// while the history is being read must reach it once, whether it made it into the history or not.
import { describe, expect, it } from 'vitest';
import { createInProcessBroker } from '../../src/delivery/broker.js';
import { createInMemoryPlanLog } from '../../src/delivery/inMemoryPlanLog.js';
import { subscribeToLog } from '../../src/delivery/logSubscription.js';
import type { LogPosition, PlanLog } from '../../src/delivery/planLog.js';

const destination = '/user/sub/schedule/1';
const target = { memberId: 7, destination, stream: 'plan:1' };

function setUp() {
  const broker = createInProcessBroker((error) => {
    throw error;
  });
  const log = createInMemoryPlanLog({ broker, historySize: 100, historyTtlMs: 60_000, clock: () => 0 });
  const append = (body: string, to = destination) => log.append('plan:1', { memberId: 7, destination: to, body });
  const received: string[] = [];
  const deliver = (body: string, position: LogPosition) => received.push(`${body}@${position.offset}`);
  return { broker, log, append, received, deliver };
}

describe('a subscription to a log', () => {
  it('with x-replay: messages appended while the history is read arrive once each, in order', async () => {
    const { broker, log, append, received, deliver } = setUp();
    await append('a');
    await append('b');
    // A log whose history read is slow, as over the network: one message lands before the read
    // (so it is in the history and live), one after it (live only).
    const slowLog: PlanLog = {
      ...log,
      async history(stream, from) {
        await append('c');
        await append('error', '/user/sub/errors/9');
        const history = await log.history(stream, from);
        await append('d');
        return history;
      },
    };
    const subscription = await subscribeToLog(slowLog, broker, target, { all: true }, deliver);
    await append('e');
    expect(subscription.recovered).toBe(true);
    expect(received).toEqual(['a@1', 'b@2', 'c@3', 'd@5', 'e@6']);
    subscription.end();
    await append('f');
    expect(received).toHaveLength(5);
  });

  it('with x-since: only what came after it; with a lost history: nothing old, and recovered false', async () => {
    const { broker, log, append, received, deliver } = setUp();
    const first = await append('a');
    await append('b');
    if (!first.appended) throw new Error('not appended');
    const resumed = await subscribeToLog(log, broker, target, first, deliver);
    expect([resumed.recovered, received]).toEqual([true, ['b@2']]);
    resumed.end();

    received.length = 0;
    const lost = await subscribeToLog(log, broker, target, { epoch: 'gone', offset: 1 }, deliver);
    await append('c');
    expect([lost.recovered, received]).toEqual([false, ['c@3']]);
    lost.end();
  });

  it('with x-since and a history that cannot be read: what the client already had of that epoch is not sent again', async () => {
    const { broker, log, append, received, deliver } = setUp();
    const first = await append('a');
    if (!first.appended) throw new Error('not appended');
    // As an instance that was away from Redis: the history is unreadable, and its follower then hands
    // the broker the messages it missed, the client's own last one among them.
    const unreadable: PlanLog = { ...log, history: () => Promise.resolve({ recovered: false }) };
    const resumed = await subscribeToLog(unreadable, broker, target, first, deliver);
    broker.publish(7, destination, 'a', first);
    await append('b');
    expect([resumed.recovered, received]).toEqual([false, ['b@2']]);
    resumed.end();
  });

  it('without replay: live messages only, and recovered is not said', async () => {
    const { broker, log, append, received, deliver } = setUp();
    await append('a');
    const plain = await subscribeToLog(log, broker, target, null, deliver);
    await append('b');
    expect([plain.recovered, received]).toEqual([null, ['b@2']]);
    plain.end();
    expect(broker.size()).toBe(0);
  });
});
