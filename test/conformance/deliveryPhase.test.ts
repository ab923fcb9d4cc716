// The delivery phase of the conformance runner on one in-process instance: the real app passes, and
// servers that break a delivery guarantee are each caught by the check meant for it. (The phase
// across two instances with an instance kill and a Redis restart as fault hooks:
// test/distributed/deliveryUnderFaults.test.ts; what our server cannot be made to do through its
// ports, such as sending a message twice, is in the judge's own test, deliveryContinuity.test.ts.)
import path from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { CheckName } from '../../conformance/runner/checks.js';
import type { FaultHook } from '../../conformance/runner/faultHooks.js';
import { runConformance } from '../../conformance/runner/runner.js';
import { loadSpecIndex } from '../../conformance/runner/specIndex.js';
import { createInMemoryPlanLog } from '../../src/delivery/inMemoryPlanLog.js';
import { createInProcessBroker, type Broker } from '../../src/delivery/broker.js';
import type { PlanLog } from '../../src/delivery/planLog.js';
import type { HttpEnv } from '../../src/http/httpEnv.js';
import { runConformanceBin } from '../support/conformanceBin.js';
import type { TestAppOptions } from '../support/testApp.js';
import { startTestServer } from '../support/testServer.js';

const root = path.resolve(import.meta.dirname, '../..');
const spec = loadSpecIndex(path.join(root, 'specs/openapi.yaml'), path.join(root, 'specs/asyncapi.yaml'));

async function runDelivery(options: TestAppOptions, faultHooks: FaultHook[] = []) {
  const server = await startTestServer({ RESPONSE_VALIDATION: 'off' }, options);
  try {
    const result = await runConformance(
      spec,
      {
        baseUrl: server.url,
        wsUrl: `${server.url.replace(/^http/, 'ws')}/ws-stomp`,
        login: 'dev',
        seed: 7,
        maxExamples: 1,
        timeoutMs: 5000,
        generationTimeoutMs: 8000,
        faultHooks,
      },
      ['delivery'],
    );
    return result.reports[0]!;
  } finally {
    await server.stop();
  }
}

/** The in-memory plan log with its history spoiled by `spoil` (a server whose replay is wrong). */
function historySpoiled(spoil: (history: Awaited<ReturnType<PlanLog['history']>>) => Awaited<ReturnType<PlanLog['history']>>): TestAppOptions {
  return {
    planLog: (broker, starts) => {
      const log = createInMemoryPlanLog({ broker, starts, historySize: 1000, historyTtlMs: 86_400_000, clock: Date.now });
      return { ...log, history: async (stream, from) => spoil(await log.history(stream, from)) };
    },
  };
}

/** A broker that does not hand one message to its live subscribers (the log still has it). */
function brokerDropping(drop: (destination: string, body: string) => boolean): Broker {
  const broker = createInProcessBroker(() => {});
  return {
    ...broker,
    publish: (memberId, destination, body, position) => (drop(destination, body) ? 0 : broker.publish(memberId, destination, body, position)),
  };
}

describe('the delivery phase on one instance', () => {
  it('passes against the real app, with a fault hook that runs', async () => {
    const report = await runDelivery({}, [{ point: 'after-day-1', command: 'true' }]);
    expect(report.failures).toEqual([]);
    for (const check of [
      'delivery_once',
      'delivery_gap',
      'delivery_recovered',
      'delivery_consistent',
      'concurrent_writes',
      'fault_hook',
    ] satisfies CheckName[]) {
      expect(report.tally[check]?.checks, check).toBeGreaterThan(0);
    }
  }, 60_000);

  const variants: { name: string; options: TestAppOptions; hooks?: FaultHook[]; check: CheckName; says: RegExp }[] = [
    {
      name: 'live subscribers miss a day while the history keeps it',
      options: { broker: brokerDropping((destination, body) => destination.includes('/schedule/') && body.includes('"dayNumber":2')) },
      check: 'delivery_gap',
      says: /never came/,
    },
    {
      name: 'a replay says x-recovered: true but leaves out the first message asked for',
      options: historySpoiled((history) => (history.recovered ? { recovered: true, messages: history.messages.slice(1) } : history)),
      check: 'delivery_recovered',
      says: /RECEIPT x-recovered: true .* lacks offsets/,
    },
    {
      name: 'a replay says x-recovered: false though nothing failed',
      options: historySpoiled(() => ({ recovered: false })),
      check: 'delivery_recovered',
      says: /x-recovered: false, though no fault was injected/,
    },
    {
      name: 'every second concurrent swap is acknowledged and not applied',
      options: {
        front: (app) => {
          const front = new Hono<HttpEnv>();
          let swaps = 0;
          front.patch('/api/v1/trips/:tripPlanId/daily-plans/:dayNumber/scheduled-places', (c) =>
            ++swaps % 2 === 0 ? c.body(null, 204) : app.hono.fetch(c.req.raw, c.env),
          );
          front.all('*', (c) => app.hono.fetch(c.req.raw, c.env));
          return front;
        },
      },
      check: 'concurrent_writes',
      says: /acknowledged edit lost/,
    },
    {
      name: 'a fault hook that fails',
      options: {},
      hooks: [{ point: 'after-day-1', command: 'echo cannot reach the instance >&2; exit 3' }],
      check: 'fault_hook',
      says: /exited with 3; output: cannot reach the instance/,
    },
    {
      name: 'a fault hook whose point never comes',
      options: {},
      hooks: [{ point: 'after-day-9', command: 'true' }],
      check: 'fault_hook',
      says: /the point never came/,
    },
  ];

  it.each(variants.map((v) => [v.name, v] as const))(
    'catches: %s',
    async (_name, variant) => {
      const report = await runDelivery(variant.options, variant.hooks);
      const failures = report.failures.filter((f) => f.check === variant.check);
      expect(failures.map((f) => f.message).join('\n'), JSON.stringify(report.failures.map((f) => `[${f.check}] ${f.message}`))).toMatch(variant.says);
      expect(failures.every((f) => f.replay.length > 0)).toBe(true);
    },
    60_000,
  );
});

describe('the delivery options of the bin', () => {
  it('refuses a fault hook without a known point or a command, and an instance that is not a URL, as usage errors', async () => {
    for (const [args, says] of [
      [['--instance', 'http://127.0.0.1:9', '--fault-hook', 'after-lunch=true'], /the point must be after-day-N \(N from 1\) or after-run/],
      [['--instance', 'http://127.0.0.1:9', '--fault-hook', 'after-day-1='], /give a command after the "="/],
      [['--instance', 'localhost:8080'], /the base URL must be an http\(s\) URL/],
      [['--instance', 'http://127.0.0.1:9,http://127.0.0.1:9/ws'], /the STOMP endpoint must be a ws\(s\) URL/],
    ] as const) {
      const run = await runConformanceBin([...args], 30_000);
      expect(run.code, run.stderr).toBe(64);
      expect(run.stderr).toMatch(says);
    }
  }, 120_000);
});
