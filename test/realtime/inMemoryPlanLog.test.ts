// The embedded plan log: the plan log contract (planLogContract.ts) with what a restart of the
// process loses, and its time bound.
import { describe, expect, it } from 'vitest';
import { createInProcessBroker } from '../../src/realtime/broker.js';
import { createInMemoryPlanLog } from '../../src/realtime/inMemoryPlanLog.js';
import { createInMemoryLogStarts } from '../../src/realtime/logStarts.js';
import type { LogPosition } from '../../src/realtime/planLog.js';
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
});
