// `npm run bench:generations`: generations per second through the lease runner (the plan row is
// the job) on SQLite and on PostgreSQL, side by side. In one process, without HTTP or STOMP: every
// plan is started as the start handler does (conditional UPDATE + the in-process wake-up), the
// runner(s) claim, run the offline planner with no delay, save each day and summary through the
// fence, and complete. Two runners on one PostgreSQL database stand for two instances (they share
// this process's CPU, so they show the claim's overhead, not a scale-out gain). BENCH_PLANS sets the
// plans per engine (default 200); BENCH_POSTGRES_URL the server (default the local test one). Uses a
// temp SQLite file and a fresh PostgreSQL database, both removed at the end.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { syncCatalogue } from '../src/catalogue/placeRepository.js';
import { loadConfig } from '../src/config.js';
import { databasePort, postgresPort, type DatabasePort } from '../src/db/databasePort.js';
import { openSqliteDatabasePort } from '../src/db/openDatabasePort.js';
import { openPostgresDatabase } from '../src/db/postgresDatabase.js';
import { createInProcessEventBus } from '../src/events/eventBus.js';
import { startGenerationRunner, type GenerationRunner } from '../src/generation/generationRunner.js';
import { createOfflinePlanner } from '../src/generation/offline/offlinePlanner.js';
import { createLogger } from '../src/logger.js';
import { createInProcessBroker } from '../src/realtime/broker.js';
import { createInMemoryPlanLog } from '../src/realtime/inMemoryPlanLog.js';
import { createPublishers, type Publishers } from '../src/realtime/publishers.js';
import { startGeneration } from '../src/trips/generationRequests.js';
import { insertTripPlan } from '../src/trips/tripPlanRepository.js';
import { machineLines } from './bench/machine.js';
import { textTable } from './bench/textTable.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const CONCURRENCY = 4;
const DURATION_DAYS = 3;
const MEMBERS = 50;

function plansFromEnv(): number {
  const raw = process.env.BENCH_PLANS ?? '200';
  const plans = Number(raw);
  if (!Number.isInteger(plans) || plans < 1 || plans > 100_000) throw new Error(`BENCH_PLANS must be an integer from 1 to 100000, got "${raw}"`);
  return plans;
}

/** The embedded plan log and broker, with nobody subscribed: the cost of publishing, not of delivery. */
function embeddedPublishers(): Publishers {
  const broker = createInProcessBroker((error) => {
    throw error;
  });
  return createPublishers(createInMemoryPlanLog({ broker, historySize: 1000, historyTtlMs: 86_400_000, clock: Date.now }), 'off', createLogger('silent'));
}

interface Result {
  engine: string;
  runners: number;
  plans: number;
  days: number;
  ms: number;
}

async function measure(engine: string, port: DatabasePort, plans: number, runnerCount: number): Promise<Result> {
  await syncCatalogue(port);
  const now = Date.now();
  const memberIds = await addMembers(port);
  const created = [];
  for (let i = 0; i < plans; i++) {
    const memberId = memberIds[i % MEMBERS]!;
    created.push(
      await insertTripPlan(port, {
        memberId,
        title: 'Bench',
        region: 'Busan',
        startDate: '2026-12-24',
        endDate: '2026-12-26',
        duration: DURATION_DAYS,
        peopleCount: 2,
        themes: ['FAMOUS_SPOT', 'RESTAURANT'],
        transportation: 'PUBLIC_TRANSIT',
        generationStatus: 'PENDING',
        createdAt: now,
        updatedAt: now,
      }),
    );
  }
  const events = createInProcessEventBus((error) => {
    throw error;
  });
  const log = createLogger('silent');
  const runners: GenerationRunner[] = [];
  for (let r = 0; r < runnerCount; r++) {
    runners.push(
      startGenerationRunner({
        port,
        events,
        planner: createOfflinePlanner({ db: port, delayMs: 0 }),
        publishers: embeddedPublishers(),
        log,
        clock: Date.now,
        concurrency: CONCURRENCY,
        concurrencyPerMember: 2,
        jobs: loadConfig({}).generationJobs,
        owner: `bench-${r}`,
        failWaitingOnStop: false,
      }),
    );
  }
  const started = performance.now();
  for (const plan of created) {
    if (!(await startGeneration(port, plan.id, Date.now()))) throw new Error(`plan ${plan.id} did not start`);
    events.publish('tripPlanGenerationRequested', {
      tripPlanId: plan.id,
      memberId: plan.memberId,
      chatRoomId: plan.chatRoomId,
      request: {
        themes: ['FAMOUS_SPOT', 'RESTAURANT'],
        startDate: plan.startDate,
        duration: plan.duration,
        region: plan.region,
        peopleCount: 2,
        transportation: 'PUBLIC_TRANSIT',
      },
    });
  }
  for (;;) {
    const stats = await Promise.all(runners.map((r) => r.stats()));
    const done = stats.reduce((sum, s) => sum + s.completed + s.failed, 0);
    if (stats.some((s) => s.failed > 0)) throw new Error(`${engine}: a generation failed`);
    if (done === plans) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const ms = performance.now() - started;
  for (const runner of runners) await runner.stop();
  return { engine, runners: runnerCount, plans, days: plans * DURATION_DAYS, ms };
}

async function addMembers(port: DatabasePort): Promise<number[]> {
  const { members } = port.t;
  const rows = await port.run((q) =>
    q
      .insert(members)
      .values(
        Array.from({ length: MEMBERS }, (_, n) => ({ email: `bench-${n}@example.com`, name: `Bench ${n}`, provider: 'bench', createdAt: 0, updatedAt: 0 })),
      )
      .returning({ id: members.id }),
  );
  return rows.map((r) => r.id);
}

async function onSqlite(plans: number): Promise<Result> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-gen-'));
  const port = openSqliteDatabasePort(path.join(dir, 'bench.sqlite'));
  try {
    return await measure('SQLite (file, WAL)', port, plans, 1);
  } finally {
    await port.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(adminUrl: string, plans: number, runners: number): Promise<Result> {
  const name = `trip_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const port = databasePort(postgresPort(await openPostgresDatabase(url.toString(), { poolMax: 10 })));
  try {
    return await measure('PostgreSQL', port, plans, runners);
  } finally {
    await port.close();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

async function main(): Promise<void> {
  const plans = plansFromEnv();
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  out('== Trip Itinerary Service: generation jobs benchmark (lease runner, offline planner, no delay)');
  for (const line of machineLines()) out(line);
  // Other work on the machine moves these numbers more than anything measured here.
  out(`load:   ${os.loadavg()[0]!.toFixed(1)} (1-minute average at the start)`);
  out(`plans:  ${plans} per row, ${DURATION_DAYS} days each, ${MEMBERS} members, GENERATION_CONCURRENCY=${CONCURRENCY} per runner`);
  out('');
  const results = [await onSqlite(plans)];
  try {
    results.push(await onPostgres(adminUrl, plans, 1), await onPostgres(adminUrl, plans, 2));
  } catch (error) {
    out(`PostgreSQL skipped: ${String((error as Error).cause ?? error)} (set BENCH_POSTGRES_URL)`);
  }
  const rows = results.map((r) => [
    r.engine,
    String(r.runners),
    String(r.plans),
    (r.ms / 1000).toFixed(2),
    (r.plans / (r.ms / 1000)).toFixed(1),
    (r.days / (r.ms / 1000)).toFixed(0),
  ]);
  out(textTable(['engine', 'runners', 'generations', 'seconds', 'generations/s', 'days saved/s'], rows));
}

await main();
