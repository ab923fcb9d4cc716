// `npm run bench:connections -- --connections 10000`: what an idle STOMP connection costs the server.
// Each server runs alone as a child process; this process opens N WebSockets to it (CONNECTed with a
// bearer token and heart-beats, one subscription each, idle afterwards) and reads the server's RSS
// before and with them, and its CPU time while they sit idle. Side by side in one run: a bare `ws`
// server holding the same WebSockets (the floor), the service of this checkout and, with
// `--baseline <rev>`, the service at another git revision.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { channelAddress } from '../generated/asyncapi.js';
import { checkOutBaseline } from './bench/baselineCheckout.js';
import { startChildServer, type ChildServer } from './bench/childServer.js';
import { connectionsUsage, parseConnectionsOptions, type ConnectionsOptions } from './bench/connectionsOptions.js';
import { freePort } from './bench/freePort.js';
import { openIdleClients, type IdleTarget } from './bench/idleStompClients.js';
import { loadLine, machineLines } from './bench/machine.js';
import { openFileLimit } from './bench/openFileLimit.js';
import { cpuSeconds } from './bench/processCpu.js';
import { rssBytes } from './bench/processRss.js';
import { textTable } from './bench/textTable.js';
import { createTripApi } from './client/tripApi.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const children: ChildServer[] = [];
const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-connections-'));

async function cleanUp(): Promise<void> {
  await Promise.all(children.splice(0).map((child) => child.stop()));
  fs.rmSync(tmpDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

interface Target {
  name: string;
  kind: 'bare ws' | 'service';
  /** the checkout to run it in */
  root: string;
}

interface TargetResult {
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
async function membersAndPlans(baseUrl: string, options: ConnectionsOptions): Promise<IdleTarget[]> {
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

async function startTarget(target: Target, options: ConnectionsOptions): Promise<ChildServer> {
  const port = await freePort();
  if (target.kind === 'bare ws') {
    return startChildServer({ entry: 'scripts/bench/bareWsServer.ts', cwd: target.root, port, env: {}, readyPath: '/readyz' });
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
    },
  });
}

async function measure(target: Target, options: ConnectionsOptions): Promise<TargetResult> {
  const server = await startTarget(target, options);
  children.push(server);
  try {
    const targets =
      target.kind === 'service'
        ? await membersAndPlans(server.baseUrl, options)
        : Array.from({ length: options.connections }, () => ({ token: 'none', destination: '/sub/none' }));
    // Let start-up and the setup requests' garbage settle before the first reading.
    await sleep(2_000);
    const before = rssBytes(server.pid);
    const startedAt = performance.now();
    const clients = await openIdleClients(`${server.baseUrl.replace(/^http/, 'ws')}/ws-stomp`, targets, options);
    const connectSeconds = (performance.now() - startedAt) / 1000;
    await sleep(2_000);
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

const mib = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024 ** 2).toFixed(1));
const kib = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024).toFixed(1));

function table(results: TargetResult[]): string {
  const floor = results.find((r) => r.name === 'bare ws')?.bytesPerConnection ?? null;
  return textTable(
    ['server', 'open', 'failed', 'connect s', 'RSS before MiB', 'RSS with MiB', 'after idle MiB', 'KiB/conn', 'x bare ws', 'idle CPU ms/s', 'load after'],
    results.map((r) => [
      r.name,
      String(r.opened),
      String(r.failed),
      r.connectSeconds.toFixed(1),
      mib(r.rss.before),
      mib(r.rss.with),
      mib(r.rss.afterIdle),
      kib(r.bytesPerConnection),
      floor && r.bytesPerConnection !== null ? (r.bytesPerConnection / floor).toFixed(2) : '-',
      r.idleCpuMsPerSecond === null ? '-' : r.idleCpuMsPerSecond.toFixed(1),
      r.loadAfter,
    ]),
  );
}

async function main(): Promise<number> {
  const options = parseConnectionsOptions(process.argv.slice(2), process.env);
  if (!options) {
    out(connectionsUsage);
    return 0;
  }
  // Each WebSocket is a descriptor here and one in the server (children inherit this limit).
  const limit = openFileLimit();
  if (limit !== null && limit < options.connections + 200) {
    throw new Error(
      `the open-file limit is ${limit}; ${options.connections} connections need about ${options.connections + 200}: raise it (ulimit -n ${options.connections + 200})`,
    );
  }
  const targets: Target[] = [
    { name: 'bare ws', kind: 'bare ws', root },
    { name: 'service', kind: 'service', root },
  ];
  if (options.baseline) {
    const baseline = checkOutBaseline(root, options.baseline, tmpDir);
    targets.push({ name: `service @${baseline.commit.slice(0, 9)}`, kind: 'service', root: baseline.root });
  }
  const log = options.json ? () => undefined : out;
  log('== Trip Itinerary Service: memory and idle CPU per STOMP connection');
  for (const line of machineLines()) log(line);
  log('');
  log(
    `clients: ${options.connections} WebSockets from this process, ${options.batchSize} at a time; each CONNECTs (bearer token, heart-beat ${options.heartBeatMs},${options.heartBeatMs})`,
  );
  log(
    `         and SUBSCRIBEs to its member's schedule channel with a receipt; ${options.perMember} connections per member, one plan each; then idle for ${options.idleSeconds} s`,
  );
  log(`servers: one at a time as a child process on 127.0.0.1; RSS = VmRSS of /proc/<pid>/status, CPU = utime + stime of /proc/<pid>/stat`);
  log(`         bare ws: node's HTTP server + ws (noServer), answers CONNECT and RECEIPT and keeps nothing (no heart-beats, no timers)`);
  log(
    `         service: src/main.ts, PLANNER=offline LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=0 RESPONSE_VALIDATION=off STOMP_MAX_CONNECTIONS_PER_USER=${options.perMember}`,
  );
  log('');

  const results: TargetResult[] = [];
  for (const target of targets) {
    log(`  ${target.name}: opening ${options.connections} connections (load ${loadLine()})`);
    const result = await measure(target, options);
    results.push(result);
    log(
      `  ${target.name}: ${result.opened} open, ${result.failed} failed${result.failures.length > 0 ? ` (${result.failures.join('; ')})` : ''}, ${kib(result.bytesPerConnection)} KiB each`,
    );
  }
  if (options.json) {
    out(JSON.stringify({ machine: machineLines(), options, results }, null, 2));
  } else {
    log('');
    log(`load average at the end: ${loadLine()}`);
    log(
      "KiB/conn = (RSS with - RSS before) / open connections (2 s after the last opened; GC noise: trust it at 1000+); x bare ws = that / the bare ws server's;",
    );
    log("idle CPU = the server's CPU time while the connections sat idle (heart-beats both ways), ms per second");
    log(table(results));
  }
  return results.some((r) => r.failed > 0) ? 1 : 0;
}

main().then(
  (code) => cleanUp().then(() => process.exit(code)),
  (error: unknown) =>
    cleanUp().then(() => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    }),
);
