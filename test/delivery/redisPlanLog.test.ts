// The Redis plan log against the local Redis: the plan log contract (planLogContract.ts) with two
// instances on one Redis (a lost Redis: its keys deleted), then what only a shared log has to do:
// one Pub/Sub subscription per log however many follow it, a gap filled from the stream, a
// reconnect that reads what it missed, a lost Redis that is a new epoch, every key in the database
// REDIS_URL names, and what an instance does while its Redis is away or its link silent (through a
// TCP proxy the test cuts or black-holes).
import { afterEach, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.js';
import { createInProcessBroker } from '../../src/delivery/broker.js';
import type { LogPosition } from '../../src/delivery/planLog.js';
import { createInMemoryLogStarts } from '../../src/delivery/logStarts.js';
import type { RedisPlanLog } from '../../src/delivery/redisPlanLog.js';
import { describeOnRedis, freshRedisSpace, redisPlanLogOn } from '../support/redis.js';
import { startTcpProxy, throughProxy } from '../support/tcpProxy.js';
import { eventually, planLogContract, planLogLossContract, type MakeLog } from './planLogContract.js';

const log = createLogger('silent');
const entry = (body: string) => ({ memberId: 7, destination: '/user/sub/schedule/1', body });

describeOnRedis('the Redis plan log', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two instances' logs (each with its broker) on one Redis database and key prefix, and one record of where the logs began. */
  async function twoInstances(historySize = 100, db = 0) {
    const space = await freshRedisSpace(db);
    const starts = createInMemoryLogStarts();
    const make = (): RedisPlanLog & { broker: ReturnType<typeof createInProcessBroker> } => {
      const broker = createInProcessBroker((error) => {
        throw error;
      });
      const options = { broker, historySize, historyTtlSeconds: 60, log, starts, keyPrefix: space.keyPrefix };
      return Object.assign(redisPlanLogOn(space.url, options), { broker });
    };
    const [a, b] = [make(), make()];
    cleanups.push(async () => {
      await Promise.all([a.close(), b.close()]);
      await space.drop();
    });
    return { a, b, space };
  }

  const onRedis: MakeLog = async ({ historySize, broker, otherBroker }) => {
    const space = await freshRedisSpace();
    const options = { historySize, historyTtlSeconds: 60, log, starts: createInMemoryLogStarts(), keyPrefix: space.keyPrefix };
    const here = redisPlanLogOn(space.url, { ...options, broker });
    const there = redisPlanLogOn(space.url, { ...options, broker: otherBroker });
    return {
      log: here,
      broker,
      other: { log: there, broker: otherBroker },
      // Redis restarted without persistence: every key gone; the instances go on.
      async lose() {
        const keys = await space.client.keys(`${space.keyPrefix}*`);
        if (keys.length > 0) await space.client.del(...keys);
        return here;
      },
      async done() {
        await Promise.all([here.close(), there.close()]);
        await space.drop();
      },
    };
  };
  planLogContract(onRedis);
  planLogLossContract(onRedis);

  it('holds one Pub/Sub subscription per log however many local subscribers follow it, and drops it after the last', async () => {
    const { a, space } = await twoInstances();
    const channels = async () => (await space.client.pubsub('CHANNELS', `${space.keyPrefix}*`)) as string[];
    const ends = await Promise.all([a.follow('plan:1'), a.follow('plan:1'), a.follow('room:2')]);
    expect((await channels()).sort()).toEqual([`${space.keyPrefix}live:0:plan:1`, `${space.keyPrefix}live:0:room:2`]);
    ends[0]();
    ends[0]();
    expect(a.followed()).toBe(2);
    ends[1]();
    ends[2]();
    expect(a.followed()).toBe(0);
    await eventually(async () => expect(await channels()).toEqual([]));
  });

  it('fills a gap from the stream: a message whose live copy was lost still reaches the broker, in order', async () => {
    const { a, b, space } = await twoInstances();
    const seen: string[] = [];
    await b.follow('plan:1');
    b.broker.subscribe(7, '/user/sub/schedule/1', (body, p) => seen.push(`${body}@${p.offset}`));
    const first = (await a.append('plan:1', entry('a'))) as LogPosition;
    await eventually(() => expect(seen).toEqual(['a@1']));
    // Offset 2 goes into the stream with no live copy, as if the Pub/Sub message had been lost.
    const meta = `${space.keyPrefix}{plan:1}:meta`;
    await space.client.hincrby(meta, 's', 1);
    await space.client.xadd(`${space.keyPrefix}{plan:1}:log`, '2-0', 'e', first.epoch, 'm', '7', 'd', '/user/sub/schedule/1', 'b', 'lost live');
    await a.append('plan:1', entry('c'));
    await eventually(() => expect(seen).toEqual(['a@1', 'lost live@2', 'c@3']));
  });

  it('after its Pub/Sub connection drops, an instance reads from the stream what was published meanwhile', async () => {
    const { a, b, space } = await twoInstances();
    const seen: string[] = [];
    await b.follow('plan:1');
    b.broker.subscribe(7, '/user/sub/schedule/1', (body, p) => seen.push(`${body}@${p.offset}`));
    await a.append('plan:1', entry('a'));
    await eventually(() => expect(seen).toEqual(['a@1']));
    const clients = String(await space.client.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
    const ids = clients
      .split('\n')
      .filter((line) => line.includes(`name=${space.keyPrefix}subscriber`))
      .map((line) => /id=(\d+)/.exec(line)?.[1]);
    // Only b follows a log, so its subscriber is the one in Pub/Sub mode; kill it and publish while it reconnects.
    expect(ids).toHaveLength(1);
    await space.client.client('KILL', 'ID', ids[0]!);
    await a.append('plan:1', entry('b'));
    await a.append('plan:1', entry('c'));
    await eventually(() => expect(seen).toEqual(['a@1', 'b@2', 'c@3']));
    await a.append('plan:1', entry('d'));
    await eventually(() => expect(seen).toEqual(['a@1', 'b@2', 'c@3', 'd@4']));
  });

  it('an instance that starts following a log with history hands on only what comes after (a plain subscriber gets nothing old)', async () => {
    const { a, b } = await twoInstances();
    for (const body of ['old 1', 'old 2', 'old 3']) await a.append('plan:1', entry(body));
    const seen: string[] = [];
    await b.follow('plan:1');
    b.broker.subscribe(7, '/user/sub/schedule/1', (body, p) => seen.push(`${body}@${p.offset}`));
    await a.append('plan:1', entry('new'));
    await eventually(() => expect(seen).toEqual(['new@4']));
  });

  it('follows a new epoch (a new run) from its first offset', async () => {
    const { a, b } = await twoInstances();
    const seen: string[] = [];
    await b.follow('plan:1');
    b.broker.subscribe(7, '/user/sub/schedule/1', (body, p) => seen.push(`${body}@${p.offset}`));
    const run = (number: number) => ({ token: { run: number, attempt: 1 }, terminal: false });
    await a.append('plan:1', entry('a'), run(1));
    await a.append('plan:1', entry('b'), run(1));
    await a.append('plan:1', entry('c'), run(2));
    await eventually(() => expect(seen).toEqual(['a@1', 'b@2', 'c@1']));
  });

  it('a Redis that lost its data is a new epoch, past offset 1 on every instance: the old position is not recovered, nor the whole log', async () => {
    const { a, b, space } = await twoInstances();
    const before = (await a.append('plan:1', entry('a'))) as LogPosition;
    await space.client.del(...(await space.client.keys(`${space.keyPrefix}*`)));
    const after = (await b.append('plan:1', entry('b'))) as LogPosition;
    expect(after.offset).toBe(2);
    expect(after.epoch).not.toBe(before.epoch);
    expect(await a.history('plan:1', before)).toEqual({ recovered: false });
    expect(await a.history('plan:1', { all: true })).toEqual({ recovered: false });
  });

  /** Instance a behind a proxy the test can cut, instance b straight on Redis; both on one key space. */
  async function oneBehindAProxy(historySize = 100) {
    const space = await freshRedisSpace();
    const redis = new URL(space.url);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const starts = createInMemoryLogStarts();
    const make = (url: string) => {
      const broker = createInProcessBroker((error) => {
        throw error;
      });
      // Redis and this host share one clock here: no allowance needed for skew.
      const options = { broker, historySize, historyTtlSeconds: 60, log, starts, keyPrefix: space.keyPrefix, clockSkewAllowanceMs: 0 };
      return Object.assign(redisPlanLogOn(url, options), { broker });
    };
    const [a, b] = [make(throughProxy(space.url, proxy)), make(space.url)];
    cleanups.push(async () => {
      proxy.restore();
      await Promise.all([a.close(), b.close()]);
      await proxy.close();
      await space.drop();
    });
    await eventually(() => expect(a.ready()).resolves.toBeUndefined());
    return { a, b, proxy, space };
  }

  it('while Redis is away, following a log does not fail, and its live messages arrive once Redis is back', async () => {
    const { a, b, proxy } = await oneBehindAProxy();
    proxy.cut();
    await eventually(() => expect(a.ready()).rejects.toThrow());
    const seen: string[] = [];
    await a.follow('plan:1');
    a.broker.subscribe(7, '/user/sub/schedule/1', (body, p) => seen.push(`${body}@${p.offset}`));
    proxy.restore();
    await eventually(() => expect(a.ready()).resolves.toBeUndefined(), 20_000);
    await eventually(async () => {
      await b.append('plan:1', entry(`live ${seen.length}`));
      expect(seen.length).toBeGreaterThan(0);
    }, 20_000);
    // From the first message it got on, nothing is skipped.
    await b.append('plan:1', entry('after'));
    await eventually(() => expect(seen.at(-1)).toMatch(/^after@/));
    const offsets = seen.map((text) => Number(text.split('@')[1]));
    expect(offsets).toEqual(offsets.map((_, i) => offsets[0]! + i));
  });

  it('a log followed while Redis was away gets, once back, what another instance appended since (not before), then the live messages', async () => {
    const { a, b, proxy } = await oneBehindAProxy();
    await b.append('plan:1', entry('before the follow'));
    // Redis stamps in ms: the follow must come in a later ms than the message it must not get.
    await new Promise((resolve) => setTimeout(resolve, 5));
    proxy.cut();
    await eventually(() => expect(a.ready()).rejects.toThrow());
    const seen: string[] = [];
    await a.follow('plan:1');
    a.broker.subscribe(7, '/user/sub/schedule/1', (body, p) => seen.push(`${body}@${p.offset}`));
    // b reaches Redis while a does not: a's subscription is not in Redis yet when these are appended.
    await b.append('plan:1', entry('while a was away'));
    await b.append('plan:1', entry('still away'));
    proxy.restore();
    await eventually(() => expect(a.ready()).resolves.toBeUndefined(), 20_000);
    await b.append('plan:1', entry('after'));
    await eventually(() => expect(seen).toEqual(['while a was away@2', 'still away@3', 'after@4']), 20_000);
  });

  it('while Redis is away, a history is answered as not recovered (not an error)', async () => {
    const { a, b, proxy } = await oneBehindAProxy();
    const position = (await b.append('plan:1', entry('a'))) as LogPosition;
    expect(await a.history('plan:1', { all: true })).toMatchObject({ recovered: true });
    proxy.cut();
    expect(await a.history('plan:1', { all: true })).toEqual({ recovered: false });
    expect(await a.history('plan:1', position)).toEqual({ recovered: false });
  });

  it('a message that could not be appended makes the log start a new epoch past offset 1, once, and fencing still holds', async () => {
    const { a, b, proxy } = await oneBehindAProxy();
    const run = (attempt: number) => ({ token: { run: 1, attempt }, terminal: false });
    const first = (await a.append('plan:1', entry('day 1'), run(1))) as LogPosition;
    proxy.cut();
    await expect(a.append('plan:1', entry('day 2, lost'), run(1))).rejects.toThrow();
    proxy.restore();
    await eventually(() => expect(a.ready()).resolves.toBeUndefined(), 20_000);
    // As soon as Redis answers again: resuming from day 1 is not recovered (day 2 is missing).
    await eventually(async () => expect(await b.history('plan:1', first)).toEqual({ recovered: false }));
    const next = (await a.append('plan:1', entry('day 3'), run(1))) as LogPosition;
    expect(next).toMatchObject({ appended: true, offset: 2 });
    expect(next.epoch).not.toBe(first.epoch);
    // Only once: the one after continues that epoch.
    expect(await a.append('plan:1', entry('day 4'), run(1))).toMatchObject({ appended: true, epoch: next.epoch, offset: 3 });
    // The new epoch kept the run's fencing: an older attempt is still refused. The run is not whole, what follows day 3 is.
    expect(await b.append('plan:1', entry('zombie'), run(0))).toEqual({ appended: false, reason: 'fenced' });
    expect(await b.history('plan:1', { all: true })).toEqual({ recovered: false });
    expect(await b.history('plan:1', next)).toMatchObject({ recovered: true, messages: [{ body: 'day 4' }] });
  });

  it("a run's first message that could not be appended makes the run's epoch start past offset 1", async () => {
    const { a, b, proxy } = await oneBehindAProxy();
    const run = { token: { run: 1, attempt: 1 }, terminal: false };
    proxy.cut();
    await expect(a.append('plan:1', entry('day 1, lost'), run)).rejects.toThrow();
    proxy.restore();
    await eventually(() => expect(a.ready()).resolves.toBeUndefined(), 20_000);
    expect(await b.history('plan:1', { all: true })).toEqual({ recovered: false });
    expect(await a.append('plan:1', entry('day 2'), run)).toMatchObject({ appended: true, offset: 2 });
    expect(await b.history('plan:1', { all: true })).toEqual({ recovered: false });
  });

  it("a run's last message that could not be appended is told to the subscribers of every instance, as nothing later would show it", async () => {
    const { a, b, proxy } = await oneBehindAProxy();
    const run = (terminal: boolean) => ({ token: { run: 1, attempt: 1 }, terminal });
    let told = 0;
    await b.follow('plan:1', () => told++);
    await a.append('plan:1', entry('day 1'), run(false));
    proxy.cut();
    await expect(a.append('plan:1', entry('COMPLETED, lost'), run(true))).rejects.toThrow();
    proxy.restore();
    await eventually(() => expect(told).toBe(1), 20_000);
  });

  it('a gap inside the epoch its subscribers are in that the stream can no longer fill is told to them', async () => {
    // a follows through the proxy; b appends. The history keeps 2 messages, so what a missed while cut is partly gone.
    const { a, b, proxy } = await oneBehindAProxy(2);
    const seen: string[] = [];
    let told = 0;
    await a.follow('plan:1', () => told++);
    a.broker.subscribe(7, '/user/sub/schedule/1', (body, p) => seen.push(`${body}@${p.offset}`));
    await b.append('plan:1', entry('a'));
    await eventually(() => expect(seen).toEqual(['a@1']));
    proxy.cut();
    for (const body of ['b', 'c', 'd', 'e']) await b.append('plan:1', entry(body));
    proxy.restore();
    await eventually(() => expect(seen).toEqual(['a@1', 'd@4', 'e@5']), 20_000);
    expect(told).toBe(1);
  });

  it('a log whose epoch ended while the instance was cut from Redis (Redis lost it) is told to its subscribers', async () => {
    const { a, b, proxy, space } = await oneBehindAProxy();
    let told = 0;
    await a.follow('plan:1', () => told++);
    const seen: number[] = [];
    a.broker.subscribe(7, '/user/sub/schedule/1', (_, p) => seen.push(p.offset));
    await b.append('plan:1', entry('day 1'), { token: { run: 1, attempt: 1 }, terminal: false });
    await eventually(() => expect(seen).toEqual([1]));
    proxy.cut();
    // Redis lost its data meanwhile (a restart without persistence): whatever came after day 1 is unknown to a.
    const keys = await space.client.keys(`${space.keyPrefix}*`);
    await space.client.del(...keys);
    proxy.restore();
    await eventually(() => expect(told).toBe(1), 20_000);
    expect(seen).toEqual([1]);
  });

  it('a log followed while the link to Redis is silent (black hole) gets, once it heals, what another instance appended since, then the live messages', async () => {
    const { a, b, proxy } = await oneBehindAProxy();
    await b.append('plan:1', entry('before the follow'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    proxy.blackHole();
    const seen: string[] = [];
    const following = a.follow('plan:1');
    a.broker.subscribe(7, '/user/sub/schedule/1', (body, p) => seen.push(`${body}@${p.offset}`));
    await b.append('plan:1', entry('during'));
    // The follow resolves though its subscription could not be confirmed; a history cannot be read meanwhile.
    await following;
    expect(await a.history('plan:1', { all: true })).toEqual({ recovered: false });
    await b.append('plan:1', entry('still during'));
    proxy.restore();
    await eventually(() => expect(a.ready()).resolves.toBeUndefined(), 20_000);
    await b.append('plan:1', entry('after'));
    await eventually(() => expect(seen).toEqual(['during@2', 'still during@3', 'after@4']), 20_000);
  });

  it("handedOver resolves once the message reached this instance's broker, and at once for a log not followed here", async () => {
    const { a, b } = await twoInstances();
    const seen: string[] = [];
    await b.follow('plan:1');
    b.broker.subscribe(7, '/user/sub/schedule/1', (body) => seen.push(body));
    const position = (await a.append('plan:1', entry('x'))) as LogPosition;
    await b.handedOver('plan:1', position);
    expect(seen).toEqual(['x']);
    await expect(b.handedOver('plan:2', position)).resolves.toBeUndefined();
  });

  it('keeps every key in the database REDIS_URL names, bounded in size and time', async () => {
    const { a, space } = await twoInstances(2, 5);
    for (const body of ['a', 'b', 'c']) await a.append('plan:1', entry(body));
    const keys = (await space.client.keys(`${space.keyPrefix}*`)).sort();
    expect(keys).toEqual([`${space.keyPrefix}{plan:1}:log`, `${space.keyPrefix}{plan:1}:meta`]);
    expect(await space.client.xlen(`${space.keyPrefix}{plan:1}:log`)).toBe(2);
    for (const key of keys) expect(await space.client.ttl(key)).toBeGreaterThan(0);
    const dbZero = await freshRedisSpace(0);
    expect(await dbZero.client.keys(`${space.keyPrefix}*`)).toEqual([]);
    dbZero.client.disconnect();
  });
});
