// `npm run bench -- planlog [--messages 20000 --plans 100]`: how fast each plan log takes and
// delivers messages, in this process: the embedded log, and the Redis log (REDIS_URL, default
// the local Redis; skipped with the reason when it does not answer) with one instance appending
// and a second one following every plan, as two instances would. Messages of ~1 KiB (a day is about
// that), spread round-robin over the plans, each appended without waiting for the previous one (as
// the publishers do). Prints appends/s, the delivery latency to the follower (p50/p99), and whether
// every message arrived once and in order per plan.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import {
  createLogger,
  createInProcessBroker,
  type Broker,
  createInMemoryPlanLog,
  type PlanLog,
  createInMemoryLogStarts,
  createRedisPlanLog,
  openRedisConnections,
} from '../src/index.js';
import { percentile } from './lib/loadTest.js';
import { machineLines } from './lib/machine.js';
import { textTable } from './lib/textTable.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const messages = option('messages', 20_000);
const plans = option('plans', 100);
const body = JSON.stringify({ message: 'x'.repeat(1000), isComplete: false, timestamp: '2026-11-22T09:30:00Z', messageStreamType: 'CHAT' });

interface Result {
  log: string;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  inOrder: boolean;
}

/** Appends every message through `writer`, followed by `follower` on `followerBroker`; measures until the follower got them all. */
async function measure(name: string, writer: PlanLog, follower: PlanLog, followerBroker: Broker): Promise<Result> {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const lastOffset = new Map<number, number>();
  let received = 0;
  let inOrder = true;
  let allArrived!: () => void;
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  for (let plan = 1; plan <= plans; plan++) {
    await follower.follow(`plan:${plan}`);
    followerBroker.subscribe(1, `/user/sub/schedule/${plan}`, (_body, position) => {
      const key = `${plan}:${position.offset}`;
      latencies.push(performance.now() - (sentAt.get(key) ?? performance.now()));
      if (position.offset !== (lastOffset.get(plan) ?? 0) + 1) inOrder = false;
      lastOffset.set(plan, position.offset);
      if (++received === messages) allArrived();
    });
  }
  const started = performance.now();
  const appends: Promise<unknown>[] = [];
  for (let i = 0; i < messages; i++) {
    const plan = (i % plans) + 1;
    sentAt.set(`${plan}:${Math.floor(i / plans) + 1}`, performance.now());
    appends.push(writer.append(`plan:${plan}`, { memberId: 1, destination: `/user/sub/schedule/${plan}`, body }));
    // Let deliveries interleave with the appends, as in a server, instead of queueing them all first.
    if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(appends);
  await arrived;
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return { log: name, seconds, perSecond: messages / seconds, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), inOrder };
}

async function redisAnswers(url: string): Promise<string | null> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let failure: Error | null = null;
  client.on('error', (error: Error) => (failure ??= error));
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return (failure ?? (error as Error)).message;
  } finally {
    client.disconnect();
  }
}

async function main(): Promise<void> {
  for (const line of machineLines()) out(line);
  // Other work on the machine moves these numbers: say how busy it was.
  out(
    `load:   ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1, 5, 15 min)`,
  );
  out(`messages: ${messages} of ${body.length} bytes over ${plans} plans`);
  const results: Result[] = [];

  const broker = createInProcessBroker(() => {});
  const embedded = createInMemoryPlanLog({ broker, historySize: 1000, historyTtlMs: 3_600_000, clock: Date.now });
  results.push(await measure('embedded (one process)', embedded, embedded, broker));

  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  const problem = await redisAnswers(url);
  if (problem) {
    out(`Redis log skipped: nothing answers at ${url} (${problem})`);
  } else {
    const keyPrefix = `bench:${randomBytes(4).toString('hex')}:`;
    const log = createLogger('silent');
    const options = { historySize: 1000, historyTtlSeconds: 60, log, keyPrefix, starts: createInMemoryLogStarts() };
    const followerBroker = createInProcessBroker(() => {});
    // Two instances: each with its own Redis connections.
    const connections = [0, 1].map(() => openRedisConnections({ url, name: keyPrefix, onError: () => {} }));
    const writer = createRedisPlanLog({ ...options, connections: connections[0]!, broker: createInProcessBroker(() => {}) });
    const follower = createRedisPlanLog({ ...options, connections: connections[1]!, broker: followerBroker });
    try {
      results.push(await measure('Redis (append on A, follow on B)', writer, follower, followerBroker));
    } finally {
      await Promise.all([writer.close(), follower.close()]);
      await Promise.all(connections.map((c) => c.close()));
      const cleaner = new Redis(url);
      const keys = await cleaner.keys(`${keyPrefix}*`);
      if (keys.length > 0) await cleaner.del(...keys);
      cleaner.disconnect();
    }
  }

  out('');
  out(
    textTable(
      ['log', 'seconds', 'msgs/s', 'p50 ms', 'p99 ms', 'in order'],
      results.map((r) => [r.log, r.seconds.toFixed(2), Math.round(r.perSecond).toString(), r.p50.toFixed(1), r.p99.toFixed(1), r.inOrder ? 'yes' : 'NO']),
    ),
  );
  out('latency = append called -> delivered to the follower broker; appends are not awaited one by one (as the publishers do)');
  if (results.some((r) => !r.inOrder)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
