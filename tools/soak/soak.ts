// `npm run soak [-- --minutes 9] [--users 50] [--seed 1]`: three instances of the built service on
// a fresh PostgreSQL database and a Redis of its own, simulated users going round the whole flow
// (soakUser.ts), and one fault after another injected meanwhile (soakFaults.ts). It stops
// by itself within --minutes (at most 9, and in any case within 10), reads everything back, and prints one table of what must
// be zero, plus the recovery time after each fault. Exit code 0 when every bar is met, else 1.
// Logs of the instances are kept in .tmp/soak/. Not part of `npm test`.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchPostgres } from '../../bench/lib/benchPostgres.js';
import { freshBuiltServer } from '../../bench/lib/builtServer.js';
import { freePort } from '../../bench/lib/freePort.js';
import { integerOption } from '../../bench/lib/integerOption.js';
import { machineLines } from '../../bench/lib/machine.js';
import { startOwnRedis } from './ownRedis.js';
import { startSoakCluster } from './soakCluster.js';
import { SOAK_FAULTS, timeToRecover, type FaultRecord } from './soakFaults.js';
import { createSoakHttp } from './soakHttp.js';
import { createSoakLedger } from './soakLedger.js';
import { soakRows, soakTable } from './soakTable.js';
import { runSoakUser, type SoakUserContext } from './soakUser.js';

const USAGE = 'usage: npm run soak [-- --minutes 9] [--users 50] [--seed 1]';
const root = fileURLToPath(new URL('../..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function options(argv: string[]): { minutes: number; users: number; seed: number } {
  const result = { minutes: 9, users: 50, seed: 1 };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1] ?? ''];
    if (name === '--minutes') result.minutes = Math.min(9, integerOption('minutes', value, USAGE, 3));
    else if (name === '--users') result.users = integerOption('users', value, USAGE);
    else if (name === '--seed') result.seed = integerOption('seed', value, USAGE);
    else throw new Error(`unknown option ${name}\n${USAGE}`);
  }
  return result;
}

/** A small seeded generator (mulberry32), so that two runs with one seed make the same choices. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(): Promise<number> {
  const { minutes, users, seed } = options(process.argv.slice(2));
  const began = Date.now();
  const budgetMs = minutes * 60_000;
  // Whatever happens, the soak ends within ten minutes.
  setTimeout(() => {
    out('soak: still running 10 min after it began; stopping without a table');
    process.exit(2);
  }, 600_000).unref();
  for (const line of machineLines()) out(line);
  const entry = freshBuiltServer(root, out);
  const logDir = path.join(root, '.tmp', 'soak');
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const postgres = await benchPostgres();
  if (!postgres.available) throw new Error(postgres.reason);
  const redis = await startOwnRedis(await freePort());
  const cluster = await startSoakCluster({
    root,
    entry,
    logDir,
    databaseUrl: postgres.url,
    redisPort: redis.port,
    jwtSecret: randomBytes(32).toString('hex'),
    env: {
      AUTH_DEV_LOGIN: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      // Every simulated user connects from 127.0.0.1: the per-address cap would be the soak's bottleneck.
      MAX_CONNECTIONS_PER_ADDRESS: '4096',
      PLANNER_DELAY_MS: '40',
      GENERATION_LEASE_MS: '4000',
      GENERATION_HEARTBEAT_MS: '1000',
      GENERATION_SWEEP_MS: '1000',
      GENERATION_POLL_MS: '500',
      GENERATION_TAKEOVER: 'resume',
      GENERATION_MAX_ATTEMPTS: '5',
    },
  });
  const http = createSoakHttp();
  const ledger = createSoakLedger();
  const random = seededRandom(seed);
  const faults: FaultRecord[] = [];
  // Traffic until the last part of the budget, which is kept for the runs in flight and the reading back.
  const trafficEndsAt = began + budgetMs - 100_000;
  const pick = (avoid: string[] = []) => {
    const running = cluster.instances.filter((i) => i.running()).map((i) => i.baseUrl);
    const preferred = running.filter((url) => !avoid.includes(url));
    const from = preferred.length > 0 ? preferred : running.length > 0 ? running : cluster.instances.map((i) => i.baseUrl);
    return from[Math.floor(random() * from.length)]!;
  };
  const ctx: SoakUserContext = { http, ledger, pick, trafficEndsAt, random };
  out(
    `soak: ${users} users on instances ${cluster.instances.map((i) => `${i.label} ${i.baseUrl}`).join(', ')}; traffic for ${Math.round((trafficEndsAt - Date.now()) / 1000)} s`,
  );

  const userRuns = Array.from({ length: users }, async (_, i) => {
    await sleep((i * 10_000) / users);
    await runSoakUser(ctx, i);
  });

  const probeToken = await http.call(() => pick(), 'POST', '/api/v1/auth/dev-login', undefined, { email: 'soak-probe@example.com' });
  const token = (probeToken?.body as { data: { accessToken: string } }).data.accessToken;
  const slotMs = Math.max(20_000, (trafficEndsAt - Date.now() - 30_000) / SOAK_FAULTS.length);
  await sleep(20_000);
  for (const fault of SOAK_FAULTS) {
    const slotEnds = Date.now() + slotMs;
    if (slotEnds > trafficEndsAt + 10_000) break;
    out(`soak: ${Math.round((Date.now() - began) / 1000)} s: ${fault.name}`);
    const faultBegan = new Date().toISOString();
    await fault.run(cluster, redis);
    const faultEnded = new Date().toISOString();
    const recoveryMs = await timeToRecover(cluster, http, token, 60_000);
    faults.push({ name: fault.name, began: faultBegan, ended: faultEnded, recoveryMs });
    out(`soak:   recovered in ${recoveryMs === null ? 'more than 60 s' : `${(recoveryMs / 1000).toFixed(1)} s`}`);
    await sleep(Math.max(0, slotEnds - Date.now()));
  }

  out(`soak: ${Math.round((Date.now() - began) / 1000)} s: traffic ends; waiting for the runs in flight`);
  await Promise.race([Promise.all(userRuns), sleep(Math.max(10_000, trafficEndsAt + 70_000 - Date.now()))]);
  // Plans whose lease holder died are resumed by the sweeper within a few leases; give them that.
  const settleUntil = Date.now() + 15_000;
  while (Date.now() < settleUntil && ledger.plans.some((p) => p.watchers.some((w) => !w.finished()))) await sleep(500);
  for (const plan of ledger.plans) for (const watcher of plan.watchers) await watcher.close();
  out(`soak: reading back ${ledger.plans.length} plans`);
  await ledger.verify(http, () => pick());
  await cluster.stop();
  await redis.stop();
  await postgres.drop();

  const rows = soakRows({ outcome: ledger.outcome, http: http.tally, crashes: cluster.crashes, faults });
  out('');
  out(`== soak: ${users} users, 3 instances on PostgreSQL + Redis, ${minutes} min budget, seed ${seed} (took ${Math.round((Date.now() - began) / 1000)} s)`);
  out(soakTable(rows));
  for (const sample of [...ledger.outcome.missingSamples, ...http.tally.samples, ...cluster.crashes]) out(`  - ${sample}`);
  out(`plans by status at the end: ${JSON.stringify(ledger.outcome.plansByStatus)}; instance logs in ${path.relative(root, logDir)}/`);
  writeFileSync(
    path.join(logDir, 'report.json'),
    JSON.stringify({ rows, outcome: ledger.outcome, http: http.tally, crashes: cluster.crashes, faults }, null, 2),
  );
  return rows.some((r) => r.ok === false) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    out(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(2);
  },
);
