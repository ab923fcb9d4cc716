// The embedded plan log: the plan log contract (planLogContract.ts) with what a restart of the
// process loses, and its time bound.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInProcessBroker } from '../../src/delivery/broker.js';
import { createInMemoryPlanLog } from '../../src/delivery/inMemoryPlanLog.js';
import { createInMemoryLogStarts, type LogStarts } from '../../src/delivery/logStarts.js';
import type { LogPosition } from '../../src/delivery/planLog.js';
import { planLogContract, planLogLossContract, type MakeLog } from './planLogContract.js';

describe('the embedded plan log', () => {
  // One process: the "other instance" is the same log and broker. A restart is a new log on the
  // same record of where the logs began (the database's, in the service).
  const embedded: MakeLog = ({ historySize, broker }) => {
    const starts = createInMemoryLogStarts();
    const make = () => createInMemoryPlanLog({ broker, historySize, historyTtlMs: 60_000, clock: () => 0, starts });
    const logs = [make()];
    return Promise.resolve({
      log: logs[0]!,
      broker,
      other: { log: logs[0]!, broker },
      lose: () => Promise.resolve(logs[logs.push(make()) - 1]!),
      done: async () => void (await Promise.all(logs.map((log) => log.close()))),
    });
  };
  planLogContract(embedded);
  planLogLossContract(embedded);

  it('forgets a log REALTIME_HISTORY_TTL_SECONDS after its last message; the next message starts a new epoch, past offset 1', async () => {
    let now = 0;
    const broker = createInProcessBroker(() => {});
    const log = createInMemoryPlanLog({ broker, historySize: 100, historyTtlMs: 1000, clock: () => now });
    const entry = (body: string) => ({ memberId: 7, destination: '/user/sub/schedule/1', body });
    const first = await log.append('plan:1', entry('a'));
    await log.append('plan:2', entry('x'));
    now += 999;
    await log.append('plan:2', entry('y'));
    expect((await log.history('plan:1', { all: true })).recovered).toBe(true);
    now += 1;
    expect(await log.history('plan:1', first as LogPosition)).toEqual({ recovered: false });
    expect(log.streams()).toBe(1);
    expect(await log.history('plan:1', { all: true })).toEqual({ recovered: false });
    const next = await log.append('plan:1', entry('b'));
    expect(next).toMatchObject({ appended: true, offset: 2 });
    expect(first.appended && next.appended && next.epoch !== first.epoch).toBe(true);
  });

  describe('when the record of where logs began (the database) does not answer', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const entry = (body: string) => ({ memberId: 7, destination: '/user/sub/schedule/1', body });
    const run = { token: { run: 1, attempt: 1 }, terminal: false };

    it('for a moment (a reset connection): the first message waits and still begins the epoch at offset 1, whole', async () => {
      const record = createInMemoryLogStarts();
      let failures = 1;
      const starts: LogStarts = { ...record, claim: (stream, r) => (failures-- > 0 ? Promise.reject(new Error('ECONNRESET')) : record.claim(stream, r)) };
      const log = createInMemoryPlanLog({ broker: createInProcessBroker(() => {}), historySize: 100, historyTtlMs: 60_000, clock: () => 0, starts });
      expect(await log.append('plan:1', entry('day 1'), run)).toMatchObject({ appended: true, offset: 1 });
      expect(await log.history('plan:1', { all: true })).toMatchObject({ recovered: true, messages: [{ body: 'day 1' }] });
    });

    it('for good: the message is lost, the subscribers of its log are told, and neither the log nor a resume from it is whole', async () => {
      vi.useFakeTimers();
      const record = createInMemoryLogStarts();
      let answering = true;
      const starts: LogStarts = { ...record, claim: (stream, r) => (answering ? record.claim(stream, r) : new Promise(() => {})) };
      const log = createInMemoryPlanLog({ broker: createInProcessBroker(() => {}), historySize: 100, historyTtlMs: 60_000, clock: () => 0, starts });
      let told = 0;
      await log.follow('plan:1', () => told++);
      const day1 = (await log.append('plan:1', entry('day 1'), run)) as LogPosition;
      answering = false;
      // Run 2's first message needs the record, which never answers: given up after its patience.
      const lost = log.append('plan:1', entry('run 2, day 1'), { ...run, token: { run: 2, attempt: 1 } });
      const outcome = lost.then(
        () => 'appended',
        () => 'lost',
      );
      await vi.advanceTimersByTimeAsync(30_000);
      expect(await outcome).toBe('lost');
      expect(told).toBe(1);
      expect(await log.history('plan:1', day1)).toEqual({ recovered: false });
    });
  });
});
