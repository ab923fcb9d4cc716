// What an idle STOMP connection costs a server, for `npm run bench -- connections` and `npm run bench -- summary`:
// the server runs alone as a child process; this process opens N WebSockets to it (CONNECTed with a
// bearer token and heart-beats, one subscription each, idle afterwards) and reads the server's RSS
// before and with them, and its CPU time while they sit idle. The service gets members and plans
// first (one plan per member, `perMember` connections each); the bare `ws` peer
// (bench/peers/bareWsServer.ts) needs none.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { wsUrl } from '../../conformance/index.js';
import { channelAddress } from '../../generated/asyncapi.js';
import { createTripApi } from '../../tools/client/tripApi.js';
import { startChildServer, type ChildServer } from './childServer.js';
import type { ConnectionsOptions } from './connectionsOptions.js';
import { freePort } from './freePort.js';
import { openIdleClients, type IdleTarget } from './idleStompClients.js';
import { loadLine } from './machine.js';
import { cpuSeconds } from './processCpu.js';
import { rssBytes } from './processRss.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type IdleOptions = Pick<ConnectionsOptions, 'connections' | 'perMember' | 'heartBeatMs' | 'idleSeconds' | 'batchSize'> & {
  /** pause before each RSS reading, for start-up garbage and the allocator to settle */
  settleMs: number;
};

export interface ConnectionTarget {
  name: string;
  kind: 'bare ws' | 'service';
  /** the checkout to run it in */
  root: string;
}

export interface ConnectionResult {
  name: string;
  opened: number;
  failed: number;
  failures: string[];
  /** the server's RSS in bytes before the WebSockets (members and plans already made), with them, after the idle time */
  rss: { before: number | null; with: number | null; afterIdle: number | null };
  /** (with - before) / opened */
  bytesPerConnection: number | null;
  /** CPU time of the server over the idle time, ms per second of it */
  idleCpuMsPerSecond: number | null;
  connectSeconds: number;
  loadAfter: string;
}

const tripStart = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

/** Members and their plans (one each), and a target per connection round the members. */
async function membersAndPlans(baseUrl: string, options: IdleOptions): Promise<IdleTarget[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
  const api = createTripApi(baseUrl, agent);
  const members = Math.ceil(options.connections / options.perMember);
  const plans: { token: string; tripPlanId: number }[] = [];
  for (let at = 0; at < members; at += 20) {
    const batch = Array.from({ length: Math.min(20, members - at) }, (_v, i) => at + i);
    plans.push(
      ...(await Promise.all(
        batch.map(async (i) => {
          const token = await api.devLogin(`idle-${i}@bench.example.com`);
          const { tripPlanId } = await api.createTrip(token, {
            region: 'Seoul',
            duration: 3,
            themes: ['FAMOUS_SPOT'],
            startDate: tripStart,
            peopleCount: 2,
            transportation: 'PUBLIC_TRANSIT',
          });
          return { token, tripPlanId };
        }),
      )),
    );
  }
  agent.destroy();
  return Array.from({ length: options.connections }, (_v, i) => {
    const plan = plans[i % members]!;
    return { token: plan.token, destination: channelAddress('scheduleUpdates', { tripPlanId: plan.tripPlanId }) };
  });
}

async function startTarget(target: ConnectionTarget, options: IdleOptions, tmpDir: string): Promise<ChildServer> {
  const port = await freePort();
  if (target.kind === 'bare ws') {
    return startChildServer({ entry: 'bench/peers/bareWsServer.ts', cwd: target.root, port, env: {}, readyPath: '/readyz' });
  }
  const dataDir = fs.mkdtempSync(path.join(tmpDir, 'data-'));
  return startChildServer({
    entry: 'src/main.ts',
    cwd: target.root,
    port,
    readyPath: '/readyz',
    env: {
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PLANNER: 'offline',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      RESPONSE_VALIDATION: 'off',
      STOMP_MAX_CONNECTIONS_PER_USER: String(options.perMember),
      // Every connection comes from this process: room for all of them (and the seeding's), from one address.
      MAX_CONNECTIONS: String(options.connections + 64),
      MAX_CONNECTIONS_PER_ADDRESS: String(options.connections + 64),
    },
  });
}

/**
 * One server alone as a child process (registered in `children` while it runs, for the caller's
 * clean-up on a signal): its RSS before and with the idle connections, its CPU while they sit idle.
 */
export async function measureIdleConnections(
  target: ConnectionTarget,
  options: IdleOptions,
  run: { tmpDir: string; children: ChildServer[] },
): Promise<ConnectionResult> {
  const { children } = run;
  const server = await startTarget(target, options, run.tmpDir);
  children.push(server);
  try {
    const targets =
      target.kind === 'service'
        ? await membersAndPlans(server.baseUrl, options)
        : Array.from({ length: options.connections }, () => ({ token: 'none', destination: '/sub/none' }));
    // Let start-up and the setup requests' garbage settle before the first reading.
    await sleep(options.settleMs);
    const before = rssBytes(server.pid);
    const startedAt = performance.now();
    const clients = await openIdleClients(wsUrl(server.baseUrl), targets, options);
    const connectSeconds = (performance.now() - startedAt) / 1000;
    await sleep(options.settleMs);
    const withThem = rssBytes(server.pid);
    const cpuBefore = cpuSeconds(server.pid);
    await sleep(options.idleSeconds * 1000);
    const cpuAfter = cpuSeconds(server.pid);
    const afterIdle = rssBytes(server.pid);
    await clients.close();
    return {
      name: target.name,
      opened: clients.opened,
      failed: clients.failed,
      failures: clients.failures,
      rss: { before, with: withThem, afterIdle },
      bytesPerConnection: before !== null && withThem !== null && clients.opened > 0 ? (withThem - before) / clients.opened : null,
      idleCpuMsPerSecond: cpuBefore !== null && cpuAfter !== null && options.idleSeconds > 0 ? ((cpuAfter - cpuBefore) * 1000) / options.idleSeconds : null,
      connectSeconds,
      loadAfter: loadLine(),
    };
  } finally {
    await server.stop();
    children.splice(children.indexOf(server), 1);
  }
}
