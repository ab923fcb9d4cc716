// The publishers over a plan log: which log each channel goes to, a run's messages fenced by its
// token, the run ended in both logs by its terminal message, and what a run's writer learns when
// its messages are refused.
import { describe, expect, it } from 'vitest';
import { channelDelivery } from '../../generated/asyncapi.js';
import { createLogger } from '../../src/kernel/logger.js';
import { createInProcessBroker } from '../../src/delivery/broker.js';
import { createInMemoryPlanLog } from '../../src/delivery/inMemoryPlanLog.js';
import type { History } from '../../src/delivery/planLog.js';
import { createPublishers } from '../../src/delivery/publishers.js';

const plan = { memberId: 7, tripPlanId: 41, chatRoomId: 42 };
const at = '2026-11-22T09:30:00Z';
const chunk = (message: string) => ({ message, isComplete: false, timestamp: at, messageStreamType: 'CHAT' as const });
const completed = { message: 'done', isComplete: true as const, timestamp: at, messageStreamType: 'COMPLETED' as const };
const failed = { timestamp: at, code: 'AI002' as const, message: 'failed', path: '/user/sub/errors/42', errors: null };
const updateStarted = { type: 'UPDATE_STARTED' as const, tripPlanId: 41 };

function setUp() {
  const broker = createInProcessBroker((error) => {
    throw error;
  });
  const log = createInMemoryPlanLog({ broker, historySize: 100, historyTtlMs: 60_000, clock: () => 0 });
  const publishers = createPublishers(log, 'strict', createLogger('silent'));
  /** what the room's chat channel delivered: epoch, offset and the message's text */
  const chatDelivered: [string, number, string][] = [];
  broker.subscribe(7, '/user/sub/chat/42', (body, p) => void chatDelivered.push([p.epoch, p.offset, (JSON.parse(body) as { message: string }).message]));
  const contents = async (stream: string) => {
    const history: History = await log.history(stream, { all: true });
    const label = (body: string) => {
      const parsed = JSON.parse(body) as { message?: string; type?: string };
      return parsed.message ?? parsed.type;
    };
    return history.recovered ? history.messages.map((m) => `${m.offset} ${m.destination} ${label(m.body)}`) : 'lost';
  };
  return { publishers, contents, chatDelivered };
}

describe('the publishers', () => {
  it('put the schedule and errors channels in the plan log, the chat in the room log', async () => {
    const { publishers, contents } = setUp();
    publishers.schedule(7, 41, updateStarted);
    publishers.chat(7, 42, chunk('hello'));
    publishers.error(plan, failed);
    await publishers.settled();
    expect(await contents('plan:41')).toEqual(['1 /user/sub/schedule/41 UPDATE_STARTED', '2 /user/sub/errors/42 failed']);
    expect(await contents('room:42')).toEqual(['1 /user/sub/chat/42 hello']);
    // As asyncapi.yaml's x-delivery says: the schedule and errors channels in the plan's log, the chat in the room's.
    expect([channelDelivery.scheduleUpdates.log, channelDelivery.errors.log, channelDelivery.chatStream.log]).toEqual(['tripPlan', 'tripPlan', 'chatRoom']);
  });

  it("refuse a superseded attempt's messages and tell its writer it was fenced", async () => {
    const { publishers, contents, chatDelivered } = setUp();
    const zombie = publishers.forRun(plan, { run: 1, attempt: 1 });
    const owner = publishers.forRun(plan, { run: 1, attempt: 2 });
    zombie.chat(chunk('first'));
    owner.chat(chunk('taken over'));
    zombie.chat(chunk('late'));
    await publishers.settled();
    expect([zombie.refused, owner.refused]).toEqual(['fenced', null]);
    expect(chatDelivered.map(([, offset, text]) => [offset, text])).toEqual([
      [1, 'first'],
      [2, 'taken over'],
    ]);
    // The takeover began a new epoch past offset 1 (what the zombie had in flight may be lost), so the log is not whole.
    expect(chatDelivered[1]![0]).not.toBe(chatDelivered[0]![0]);
    expect(await contents('room:42')).toBe('lost');
  });

  it('end the run in both logs with its terminal message; edits go on, the next run starts a new epoch', async () => {
    const { publishers, contents } = setUp();
    const run = publishers.startRun(plan);
    run.chat(chunk('day 1'));
    run.chat(completed);
    run.schedule(updateStarted);
    run.error(failed);
    await publishers.settled();
    expect(run.refused).toBe('closed');
    expect(publishers.stats.refused).toBe(2);
    publishers.schedule(7, 41, updateStarted);
    const next = publishers.startRun(plan);
    next.error(failed);
    next.chat(chunk('too late'));
    await publishers.settled();
    expect(await contents('room:42')).toEqual(['1 /user/sub/chat/42 day 1', '2 /user/sub/chat/42 done']);
    expect(await contents('plan:41')).toEqual(['1 /user/sub/errors/42 failed']);
    expect(next.refused).toBe('closed');
  });
});
