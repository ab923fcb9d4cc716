// The embedded plan log: offsets per log, epochs per run, fencing, the end of a run, its bounds
// (size and time), and the history a replaying subscription is given.
import { describe, expect, it } from 'vitest';
import { createInProcessBroker } from '../../src/realtime/broker.js';
import { createInMemoryPlanLog } from '../../src/realtime/inMemoryPlanLog.js';
import type { History, LogPosition } from '../../src/realtime/planLog.js';

function setUp(historySize = 100, historyTtlMs = 60_000) {
  let now = 0;
  const broker = createInProcessBroker((error) => {
    throw error;
  });
  const log = createInMemoryPlanLog({ broker, historySize, historyTtlMs, clock: () => now });
  const entry = (body: string, destination = '/user/sub/schedule/1') => ({ memberId: 7, destination, body });
  return { log, broker, entry, advance: (ms: number) => (now += ms) };
}

const run = (number: number, attempt = 1, terminal = false) => ({ token: { run: number, attempt }, terminal });
const bodies = (history: History) => (history.recovered ? history.messages.map((m) => m.body) : 'lost');

describe('the embedded plan log', () => {
  it('numbers the messages of a log 1, 2, 3 across its channels, each log on its own', async () => {
    const { log, entry } = setUp();
    const a = await log.append('plan:1', entry('a'));
    const b = await log.append('plan:1', entry('b', '/user/sub/errors/9'));
    const other = await log.append('room:9', entry('c', '/user/sub/chat/9'));
    const c = await log.append('plan:1', entry('d'));
    expect([a, b, c].map((o) => (o.appended ? o.offset : null))).toEqual([1, 2, 3]);
    expect(other).toMatchObject({ appended: true, offset: 1 });
    expect(a.appended && b.appended && c.appended && a.epoch === c.epoch && b.epoch === a.epoch).toBe(true);
    expect(a.appended && other.appended && a.epoch !== other.epoch).toBe(true);
  });

  it('delivers each appended message live with its position, and nothing to another member or destination', async () => {
    const { log, broker, entry } = setUp();
    const seen: Array<[string, LogPosition]> = [];
    broker.subscribe(7, '/user/sub/schedule/1', (body, position) => seen.push([body, position]));
    broker.subscribe(8, '/user/sub/schedule/1', () => seen.push(['wrong member', { epoch: '', offset: 0 }]));
    await log.append('plan:1', entry('a'));
    await log.append('plan:1', entry('b', '/user/sub/errors/9'));
    await log.append('plan:1', entry('c'));
    expect(seen.map(([body, p]) => `${body}@${p.offset}`)).toEqual(['a@1', 'c@3']);
  });

  it('starts a new epoch with a new run, and keeps nothing of the old one', async () => {
    const { log, entry } = setUp();
    const first = await log.append('plan:1', entry('a'), run(1));
    await log.append('plan:1', entry('b'), run(1));
    const second = await log.append('plan:1', entry('c'), run(2));
    expect(second).toMatchObject({ appended: true, offset: 1 });
    expect(first.appended && second.appended && first.epoch !== second.epoch).toBe(true);
    expect(bodies(await log.history('plan:1', { all: true }))).toEqual(['c']);
    expect(await log.history('plan:1', first as LogPosition)).toEqual({ recovered: false });
  });

  it('refuses an older run or attempt once a newer one wrote (fencing)', async () => {
    const { log, entry } = setUp();
    await log.append('plan:1', entry('a'), run(3, 1));
    await log.append('plan:1', entry('b'), run(3, 2));
    expect(await log.append('plan:1', entry('zombie'), run(3, 1))).toEqual({ appended: false, reason: 'fenced' });
    expect(await log.append('plan:1', entry('old run'), run(2, 5))).toEqual({ appended: false, reason: 'fenced' });
    expect(bodies(await log.history('plan:1', { all: true }))).toEqual(['a', 'b']);
  });

  it('takes nothing more of a run after its terminal message, in this log or in the one closed with it; other messages go on', async () => {
    const { log, entry } = setUp();
    await log.append('room:9', entry('chunk', '/user/sub/chat/9'), run(1));
    await log.append('room:9', entry('COMPLETED', '/user/sub/chat/9'), run(1, 1, true));
    await log.closeRun('plan:1', { run: 1, attempt: 1 });
    expect(await log.append('room:9', entry('late chunk', '/user/sub/chat/9'), run(1))).toEqual({ appended: false, reason: 'closed' });
    expect(await log.append('plan:1', entry('late day'), run(1))).toEqual({ appended: false, reason: 'closed' });
    expect(await log.append('room:9', entry('edit', '/user/sub/chat/9'))).toMatchObject({ appended: true, offset: 3 });
    expect(await log.append('room:9', entry('next run', '/user/sub/chat/9'), run(2))).toMatchObject({ appended: true, offset: 1 });
  });

  it('gives what came after a position, all of the epoch, or says the history is lost (other epoch, trimmed, ahead)', async () => {
    const { log, entry } = setUp(3);
    const positions: LogPosition[] = [];
    for (const body of ['a', 'b', 'c', 'd', 'e']) {
      const outcome = await log.append('plan:1', entry(body));
      if (outcome.appended) positions.push(outcome);
    }
    const { epoch } = positions[0]!;
    expect(bodies(await log.history('plan:1', { epoch, offset: 3 }))).toEqual(['d', 'e']);
    expect(bodies(await log.history('plan:1', { epoch, offset: 2 }))).toEqual(['c', 'd', 'e']);
    expect(bodies(await log.history('plan:1', { epoch, offset: 5 }))).toEqual([]);
    expect(await log.history('plan:1', { epoch, offset: 1 })).toEqual({ recovered: false });
    expect(await log.history('plan:1', { all: true })).toEqual({ recovered: false });
    expect(await log.history('plan:1', { epoch: 'another', offset: 4 })).toEqual({ recovered: false });
    expect(await log.history('plan:1', { epoch, offset: 6 })).toEqual({ recovered: false });
    expect(bodies(await log.history('plan:2', { all: true }))).toEqual([]);
    expect(await log.history('plan:2', { epoch, offset: 1 })).toEqual({ recovered: false });
  });

  it('forgets a log REALTIME_HISTORY_TTL_SECONDS after its last message; the next message starts a new epoch', async () => {
    const { log, entry, advance } = setUp(100, 1000);
    const first = await log.append('plan:1', entry('a'));
    await log.append('plan:2', entry('x'));
    advance(999);
    await log.append('plan:2', entry('y'));
    expect(bodies(await log.history('plan:1', { all: true }))).toEqual(['a']);
    advance(1);
    expect(await log.history('plan:1', first as LogPosition)).toEqual({ recovered: false });
    expect(log.streams()).toBe(1);
    const next = await log.append('plan:1', entry('b'));
    expect(next).toMatchObject({ appended: true, offset: 1 });
    expect(first.appended && next.appended && next.epoch !== first.epoch).toBe(true);
  });
});
