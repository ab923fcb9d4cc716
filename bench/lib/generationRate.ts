// How fast the lease runner turns plans into itineraries, in this process, without HTTP or STOMP:
// every plan is started as the start handler does, the runner(s) claim, run the offline planner with
// no delay, save each day and summary through the fence, and complete. Besides wall-clock time, what
// moves less with the machine's load: this process's CPU time, and on PostgreSQL its backends' CPU
// time and the statements sent. `npm run bench -- generations` and `npm run bench -- summary` use it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  syncCatalogue,
  loadConfig,
  databasePortOf,
  postgresPort,
  type DatabasePort,
  openSqliteDatabasePort,
  openPostgresDatabase,
  createInProcessEventBus,
  startGenerationRunner,
  type GenerationRunner,
  createOfflinePlanner,
  createLogger,
  createInProcessBroker,
  createInMemoryPlanLog,
  createPublishers,
  type Publishers,
  startGeneration,
  insertTripPlan,
} from '../../src/index.js';
import { cpuSeconds } from './processCpu.js';

export const CONCURRENCY = 4;
export const DURATION_DAYS = 3;
export const MEMBERS = 50;

/** The embedded plan log and broker, with nobody subscribed: the cost of publishing, not of delivery. */
function embeddedPublishers(): Publishers {
  const broker = createInProcessBroker((error) => {
    throw error;
  });
  return createPublishers(createInMemoryPlanLog({ broker, historySize: 1000, historyTtlMs: 86_400_000, clock: Date.now }), 'off', createLogger('silent'));
}

export interface GenerationResult {
  engine: string;
  runners: number;
  plans: number;
  days: number;
  ms: number;
  /** this process's CPU time over the run */
  cpuMs: number;
  /** PostgreSQL only: its backends' CPU time over the run (null where /proc cannot tell) */
  serverCpuMs: number | null;
  /** PostgreSQL only: statements sent over the run */
  statements: number | null;
}

/** What the database server did over a run: CPU of its backends and statements sent to it. */
interface ServerWatch {
  stop(): Promise<{ serverCpuMs: number | null; statements: number | null }>;
}

const noServer: ServerWatch = { stop: () => Promise.resolve({ serverCpuMs: null, statements: null }) };

/** Counts pg.Client#query calls and the CPU of the backends serving `database` until stop(). */
async function watchPostgres(admin: pg.Client, database: string): Promise<ServerWatch> {
  const backends = async () => (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database])).rows.map((r) => r.pid);
  const cpuAtStart = new Map<number, number | null>();
  for (const pid of await backends()) cpuAtStart.set(pid, cpuSeconds(pid));
  let statements = 0;
  const { prototype } = pg.Client;
  const query = Object.getOwnPropertyDescriptor(prototype, 'query')!;
  const original = query.value as (this: pg.Client, ...args: unknown[]) => unknown;
  Object.defineProperty(prototype, 'query', {
    ...query,
    value(this: pg.Client, ...args: unknown[]) {
      statements++;
      return original.apply(this, args);
    },
  });
  return {
    async stop() {
      Object.defineProperty(prototype, 'query', query);
      let cpu: number | null = 0;
      // Backends that closed during the run are missed (the pool keeps them 10 s idle; runs are shorter).
      for (const pid of await backends()) {
        const now = cpuSeconds(pid);
        const before = cpuAtStart.has(pid) ? cpuAtStart.get(pid)! : 0;
        cpu = now === null || before === null || cpu === null ? null : cpu + (now - before);
      }
      return { serverCpuMs: cpu === null ? null : cpu * 1000, statements };
    },
  };
}

async function measure(
  engine: string,
  port: DatabasePort,
  plans: number,
  runnerCount: number,
  watchServer: () => Promise<ServerWatch> = () => Promise.resolve(noServer),
): Promise<GenerationResult> {
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
  const server = await watchServer();
  const cpuAtStart = process.cpuUsage();
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
  const cpu = process.cpuUsage(cpuAtStart);
  const seen = await server.stop();
  for (const runner of runners) await runner.stop();
  return { engine, runners: runnerCount, plans, days: plans * DURATION_DAYS, ms, cpuMs: (cpu.user + cpu.system) / 1000, ...seen };
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

// As main.ts opens the database in production: without the development check for reentrant tx()/run()
// (AsyncLocalStorage, which costs every promise of the process).
const production = { guardReentry: false };

export async function onSqlite(plans: number): Promise<GenerationResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-gen-'));
  const port = openSqliteDatabasePort(path.join(dir, 'bench.sqlite'), production);
  try {
    return await measure('SQLite (file, WAL)', port, plans, 1);
  } finally {
    await port.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function onPostgres(adminUrl: string, plans: number, runners: number): Promise<GenerationResult> {
  const name = `trip_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const port = databasePortOf(postgresPort(await openPostgresDatabase(url.toString(), { poolMax: 10 }), production));
  try {
    return await measure('PostgreSQL', port, plans, runners, () => watchPostgres(admin, name));
  } finally {
    await port.close();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

export type EngineRow = 'sqlite' | 'postgres' | 'postgres-2';
