// What every plan log does, whichever keeps it (inMemoryPlanLog.ts, redisPlanLog.ts): offsets per
// log, epochs per run, fencing, the end of a run, bounded history, live delivery to followers on
// the broker with each message's position, and what a log whose messages were lost (a restart of
// the process, or of Redis) says: never that it is whole. Each implementation's test file runs these.
import { expect, it } from 'vitest';
import { createInProcessBroker, type Broker } from '../../src/delivery/broker.js';
import type { History, LogPosition, PlanLog } from '../../src/delivery/planLog.js';

export interface LogUnderTest {
  log: PlanLog;
  broker: Broker;
  /** another instance's view of the same logs (its own broker), or the same one when there is one process */
  other: { log: PlanLog; broker: Broker };
  /**
   * Loses every message of every log, as a restart does (of the process for the embedded log, of
   * Redis for the shared one), keeping the record of where the logs began (the database); resolves
   * with the log to go on with.
   */
  lose(): Promise<PlanLog>;
  done(): Promise<void>;
}

export type MakeLog = (options: { historySize: number; broker: Broker; otherBroker: Broker }) => Promise<LogUnderTest>;

const entry = (body: string, destination = '/user/sub/schedule/1') => ({ memberId: 7, destination, body });
const run = (number: number, attempt = 1, terminal = false) => ({ token: { run: number, attempt }, terminal });
const bodies = (history: History) => (history.recovered ? history.messages.map((m) => m.body) : 'lost');

/** Polls until `check` passes (live delivery may cross a network); fails after a generous wait. */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

export function planLogContract(makeLog: MakeLog): void {
  const withLog = async (historySize: number, body: (t: LogUnderTest) => Promise<void>) => {
    const broker = createInProcessBroker((error) => {
      throw error;
    });
    const otherBroker = createInProcessBroker((error) => {
      throw error;
    });
    const t = await makeLog({ historySize, broker, otherBroker });
    try {
      await body(t);
    } finally {
      await t.done();
    }
  };

  it('numbers the messages of a log 1, 2, 3 across its channels, each log on its own', () =>
    withLog(100, async ({ log }) => {
      const a = await log.append('plan:1', entry('a'));
      const b = await log.append('plan:1', entry('b', '/user/sub/errors/9'));
      const other = await log.append('room:9', entry('c', '/user/sub/chat/9'));
      const c = await log.append('plan:1', entry('d'));
      expect([a, b, c].map((o) => (o.appended ? o.offset : null))).toEqual([1, 2, 3]);
      expect(other).toMatchObject({ appended: true, offset: 1 });
      expect(a.appended && b.appended && c.appended && a.epoch === c.epoch && b.epoch === a.epoch).toBe(true);
      expect(a.appended && other.appended && a.epoch !== other.epoch).toBe(true);
    }));

  it('delivers each message live, with its position, to the followers of its log on every instance, and to nobody else', () =>
    withLog(100, async ({ log, broker, other }) => {
      const seen: string[] = [];
      const seenThere: string[] = [];
      const record = (into: string[]) => (body: string, p: LogPosition) => into.push(`${body}@${p.offset}`);
      const unfollow = await log.follow('plan:1');
      const unfollowThere = await other.log.follow('plan:1');
      broker.subscribe(7, '/user/sub/schedule/1', record(seen));
      other.broker.subscribe(7, '/user/sub/schedule/1', record(seenThere));
      other.broker.subscribe(8, '/user/sub/schedule/1', record(seenThere));
      await log.append('plan:1', entry('a'));
      await log.append('plan:1', entry('b', '/user/sub/errors/9'));
      await other.log.append('plan:1', entry('c'));
      await eventually(() =>
        expect([seen, seenThere]).toEqual([
          ['a@1', 'c@3'],
          ['a@1', 'c@3'],
        ]),
      );
      unfollow();
      unfollowThere();
    }));

  it('starts a new epoch with a new run, and keeps nothing of the old one', () =>
    withLog(100, async ({ log }) => {
      const first = await log.append('plan:1', entry('a'), run(1));
      await log.append('plan:1', entry('b'), run(1));
      const second = await log.append('plan:1', entry('c'), run(2));
      expect(second).toMatchObject({ appended: true, offset: 1 });
      expect(first.appended && second.appended && first.epoch !== second.epoch).toBe(true);
      expect(bodies(await log.history('plan:1', { all: true }))).toEqual(['c']);
      expect(await log.history('plan:1', first as LogPosition)).toEqual({ recovered: false });
    }));

  it('refuses an older run or attempt once a newer one wrote (fencing)', () =>
    withLog(100, async ({ log, other }) => {
      await log.append('plan:1', entry('a'), run(3, 1));
      const takenOver = (await other.log.append('plan:1', entry('b'), run(3, 2))) as LogPosition;
      expect(await log.append('plan:1', entry('zombie'), run(3, 1))).toEqual({ appended: false, reason: 'fenced' });
      expect(await log.append('plan:1', entry('old run'), run(2, 5))).toEqual({ appended: false, reason: 'fenced' });
      expect(await other.log.append('plan:1', entry('c'), run(3, 2))).toMatchObject({ appended: true, epoch: takenOver.epoch, offset: 3 });
      expect(bodies(await log.history('plan:1', takenOver))).toEqual(['c']);
    }));

  it('begins a new epoch past offset 1 when a later attempt takes a run over: what the attempt before had in flight may be lost', () =>
    withLog(100, async ({ log, other }) => {
      const first = (await log.append('plan:1', entry('day 1'), run(3, 1))) as LogPosition;
      // Attempt 1 stopped with day 2 on its way; attempt 2 goes on after the saved days.
      const takenOver = (await other.log.append('plan:1', entry('day 3'), run(3, 2))) as LogPosition;
      expect(takenOver.epoch).not.toBe(first.epoch);
      expect(takenOver.offset).toBe(2);
      expect(await log.history('plan:1', first)).toEqual({ recovered: false });
      expect(await log.history('plan:1', { all: true })).toEqual({ recovered: false });
    }));

  it('takes nothing more of a run after its terminal message, in this log or in the one closed with it; other messages go on', () =>
    withLog(100, async ({ log }) => {
      await log.append('room:9', entry('chunk', '/user/sub/chat/9'), run(1));
      await log.append('room:9', entry('COMPLETED', '/user/sub/chat/9'), run(1, 1, true));
      await log.closeRun('plan:1', { run: 1, attempt: 1 });
      expect(await log.append('room:9', entry('late chunk', '/user/sub/chat/9'), run(1))).toEqual({ appended: false, reason: 'closed' });
      expect(await log.append('plan:1', entry('late day'), run(1))).toEqual({ appended: false, reason: 'closed' });
      expect(await log.append('room:9', entry('edit', '/user/sub/chat/9'))).toMatchObject({ appended: true, offset: 3 });
      expect(await log.append('room:9', entry('next run', '/user/sub/chat/9'), run(2))).toMatchObject({ appended: true, offset: 1 });
    }));

  it('gives what came after a position, all of the epoch, or says the history is lost (other epoch, trimmed, ahead)', () =>
    withLog(3, async ({ log, other }) => {
      const positions: LogPosition[] = [];
      for (const body of ['a', 'b', 'c', 'd', 'e']) {
        const outcome = await log.append('plan:1', entry(body));
        if (outcome.appended) positions.push(outcome);
      }
      const { epoch } = positions[0]!;
      expect(bodies(await other.log.history('plan:1', { epoch, offset: 3 }))).toEqual(['d', 'e']);
      expect(bodies(await log.history('plan:1', { epoch, offset: 2 }))).toEqual(['c', 'd', 'e']);
      expect(bodies(await log.history('plan:1', { epoch, offset: 5 }))).toEqual([]);
      expect(await log.history('plan:1', { epoch, offset: 1 })).toEqual({ recovered: false });
      expect(await log.history('plan:1', { all: true })).toEqual({ recovered: false });
      expect(await log.history('plan:1', { epoch: 'another', offset: 4 })).toEqual({ recovered: false });
      expect(await log.history('plan:1', { epoch, offset: 6 })).toEqual({ recovered: false });
      expect(bodies(await log.history('plan:2', { all: true }))).toEqual([]);
      expect(await log.history('plan:2', { epoch, offset: 1 })).toEqual({ recovered: false });
    }));
}

export function planLogLossContract(makeLog: MakeLog): void {
  const withLog = async (body: (t: LogUnderTest) => Promise<void>) => {
    const broker = createInProcessBroker((error) => {
      throw error;
    });
    const t = await makeLog({ historySize: 100, broker, otherBroker: createInProcessBroker(() => {}) });
    try {
      await body(t);
    } finally {
      await t.done();
    }
  };

  it('replays a whole run, from offset 1, as recovered, and a log that never had a message as recovered with nothing', () =>
    withLog(async ({ log, other }) => {
      expect(await other.log.history('plan:1', { all: true })).toEqual({ recovered: true, messages: [] });
      const first = await log.append('plan:1', entry('day 1'), run(1));
      await log.append('plan:1', entry('day 2'), run(1));
      await log.append('room:9', entry('COMPLETED', '/user/sub/chat/9'), run(1, 1, true));
      await log.closeRun('plan:1', { run: 1, attempt: 1 });
      expect(first).toMatchObject({ appended: true, offset: 1 });
      expect(bodies(await other.log.history('plan:1', { all: true }))).toEqual(['day 1', 'day 2']);
      expect(bodies(await other.log.history('room:9', { all: true }))).toEqual(['COMPLETED']);
      expect(bodies(await other.log.history('plan:1', first as LogPosition))).toEqual(['day 2']);
    }));

  it('after its messages are lost, a log that had some replays as not recovered, and its next epoch starts past offset 1', () =>
    withLog(async (t) => {
      const before = await t.log.append('plan:1', entry('day 1'), run(1));
      await t.log.append('room:9', entry('summary 1', '/user/sub/chat/9'), run(1));
      const log = await t.lose();
      expect(await log.history('plan:1', { all: true })).toEqual({ recovered: false });
      expect(await log.history('plan:1', before as LogPosition)).toEqual({ recovered: false });
      // The rest of the run: a new epoch whose start is visibly missing, and still not a whole run.
      const after = await log.append('plan:1', entry('day 2'), run(1));
      expect(after).toMatchObject({ appended: true, offset: 2 });
      expect(after.appended && before.appended && after.epoch !== before.epoch).toBe(true);
      expect(await log.history('plan:1', { all: true })).toEqual({ recovered: false });
      expect(bodies(await log.history('plan:1', after as LogPosition))).toEqual([]);
      // A message outside a run on a lost log, and one after a run closed there, say so too.
      await log.closeRun('room:9', { run: 1, attempt: 1 });
      expect(await log.append('room:9', entry('answer', '/user/sub/chat/9'))).toMatchObject({ appended: true, offset: 2 });
      // A log that never had a message starts at 1, and the next run starts whole.
      expect(await log.append('plan:2', entry('edit'))).toMatchObject({ appended: true, offset: 1 });
      expect(await log.append('plan:1', entry('run 2, day 1'), run(2))).toMatchObject({ appended: true, offset: 1 });
      expect(bodies(await log.history('plan:1', { all: true }))).toEqual(['run 2, day 1']);
    }));

  it('after its messages are lost, a writer of an older run than the log last began is fenced', () =>
    withLog(async (t) => {
      await t.log.append('plan:1', entry('run 2'), run(2));
      const log = await t.lose();
      expect(await log.append('plan:1', entry('zombie of run 1'), run(1, 3))).toEqual({ appended: false, reason: 'fenced' });
    }));
}
