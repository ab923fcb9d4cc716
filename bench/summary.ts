// `npm run bench -- summary`: the performance table (docs/performance.md, "The performance table") in one run — each measure for our
// server and its peers (a bare Hono hello, a Fastify + ajv and a Hono + openapi-backend
// implementation of the same list route over the same database, a bare `ws` server, a Fastify
// hello), as ratios, with the machine and its load noted; and our server against the Fastify peer
// alone, in turns on one database (req/s, CPU and p99 of the list, req/s of a plan's detail, on SQLite;
// list req/s on PostgreSQL). `--json` prints the same as one JSON
// object (stable keys) to compare across commits; `--quick` runs every part on small sizes and
// short durations (a smoke test); `--only key,key` runs the parts of those rows only (the others
// are in the report as not run). BENCH_SECONDS sets the seconds of each load run (default 5; 1 with
// --quick), BENCH_ROUNDS the rounds in turns against the Fastify peer (default 5; 1 with --quick). Talks to 127.0.0.1 only and removes its child processes, temp files and PostgreSQL
// databases.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingRow, type BenchRow } from './lib/benchRow.js';
import { benchTable } from './lib/benchTable.js';
import { benchRun, runMain } from './lib/benchRun.js';
import { measureChatPages } from './lib/chatPageCosts.js';
import { openSqliteDatabasePort } from '../src/index.js';
import { keysetFlatnessOnPostgres } from './lib/keysetFlatnessPostgres.js';
import { keysetFlatnessReport, quickFlatnessShapes, flatnessShapes } from './lib/flatnessReport.js';
import { generationBaseline, generationInChild } from './lib/generationBaseline.js';
import { beforePerformanceWork, chatRow, chatRows, generationRow, generationRows, keysetPostgresRow, keysetRow, keysetSqliteRow } from './lib/inProcessRows.js';
import { measureIdleConnections } from './lib/idleConnectionCost.js';
import { measureListThroughput } from './lib/listThroughput.js';
import { connectionRow, connectionRows, startRow, startRows } from './lib/processRows.js';
import { measureStartVsFastify } from './lib/startupRun.js';
import { freshBuiltServer } from './lib/builtServer.js';
import type { ChildServer } from './lib/childServer.js';
import { listCpuRow, listRows, listShareRow } from './lib/listRows.js';
import { loadLine, machineLines } from './lib/machine.js';
import { measureVsFastify, type PeerRoute } from './lib/vsFastify.js';
import { getRpsVsFastifyRow, listRpsVsFastifyPgRow, postgresVsFastifyRow, sqliteVsFastifyRows, sqliteVsFastifyRowsOf } from './lib/vsFastifyRows.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const usage = 'npm run bench -- summary [--json] [--quick] [--only key,key]';
const json = argv.includes('--json');
const quick = argv.includes('--quick');
const onlyAt = argv.indexOf('--only');
/** --only: the rows (keys) whose parts run; the others stay in the report as not run. */
const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',').filter(Boolean)) : null;
for (const [i, arg] of argv.entries())
  if (arg !== '--json' && arg !== '--quick' && !(arg === '--only' && argv[i + 1]) && !(i > 0 && argv[i - 1] === '--only'))
    throw new Error(`unknown argument ${arg} (${usage})`);
// With --json stdout carries the one JSON object; progress goes to stderr either way.
const progress = (line: string) => process.stderr.write(`${line}\n`);

function integerFromEnv(name: string, fallback: number, max: number): number {
  const raw = process.env[name] ?? String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be an integer from 1 to ${max}, got "${raw}"`);
  return value;
}

function commitOf(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head}+changes` : head;
  } catch {
    return 'unknown';
  }
}

const { dir, children, cleanUp } = benchRun('trip-bench-');

/** Runs one part; a part that fails leaves its rows in the table with the reason. */
async function part(name: string, missing: Pick<BenchRow, 'key' | 'measure' | 'ratioOf' | 'goal'>[], measure: () => Promise<BenchRow[]>): Promise<BenchRow[]> {
  if (only && !missing.some((row) => only.has(row.key))) return missing.map((row) => missingRow(row, 'not run (--only)'));
  progress(`-- ${name} (load ${loadLine()})`);
  const started = performance.now();
  try {
    return await measure();
  } catch (error) {
    progress(`!! ${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
    return missing.map((row) => missingRow(row, `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`));
  } finally {
    progress(`   ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function main(): Promise<void> {
  const vsFastifyRows = [...sqliteVsFastifyRows, listRpsVsFastifyPgRow];
  const keys = [listShareRow, listCpuRow, ...vsFastifyRows, startRow, connectionRow, generationRow, chatRow, keysetSqliteRow, keysetPostgresRow].map(
    (row) => row.key,
  );
  const unknown = [...(only ?? [])].filter((key) => !keys.includes(key));
  if (unknown.length > 0 || only?.size === 0) throw new Error(`--only takes row keys, some of ${keys.join(', ')}; got "${[...(only ?? [])].join(',')}"`);
  const seconds = integerFromEnv('BENCH_SECONDS', quick ? 1 : 5, 600);
  const rounds = integerFromEnv('BENCH_ROUNDS', quick ? 1 : 5, 100);
  const loadBefore = os.loadavg();
  const sizes = quick
    ? {
        warmupSeconds: 1,
        plans: 500,
        generations: 20,
        starts: 1,
        connections: 200,
        pageRows: 200,
        pageRounds: 1,
        keyset: '1k vs 10k',
        keysetIterations: 100,
      }
    : {
        warmupSeconds: 2,
        plans: 10_000,
        generations: 200,
        starts: 5,
        connections: 2000,
        pageRows: 2000,
        pageRounds: 10,
        keyset: '1k vs 1M',
        keysetIterations: 500,
      };
  const keysetShapes = quick ? quickFlatnessShapes : flatnessShapes;
  const rows: BenchRow[] = [];
  rows.push(
    ...(await part('list route: ours, Fastify + ajv, Hono + openapi-backend, hello', [listShareRow, listCpuRow], async () => {
      const m = await measureListThroughput({
        root,
        dir,
        seconds,
        warmupSeconds: sizes.warmupSeconds,
        connections: 50,
        plans: sizes.plans,
        started: (c) => children.push(c),
      });
      return listRows(m);
    })),
  );
  // Against the Fastify peer alone, in turns: the routes of the rows asked for (all without --only).
  const asked = (row: { key: string }) => !only || only.has(row.key);
  const sqliteRoutes: PeerRoute[] = [
    ...(sqliteVsFastifyRows.some((row) => row !== getRpsVsFastifyRow && asked(row)) ? ['list' as const] : []),
    ...(asked(getRpsVsFastifyRow) ? ['get' as const] : []),
  ];
  const vsFastify = {
    root,
    dir,
    rounds,
    seconds,
    warmupSeconds: sizes.warmupSeconds,
    connections: 50,
    plans: sizes.plans,
    progress,
    started: (c: ChildServer) => children.push(c),
  };
  rows.push(
    ...(await part(`list and detail in turns with Fastify + ajv, SQLite, ${rounds} round(s)`, sqliteVsFastifyRows, async () => {
      const measured = sqliteVsFastifyRowsOf(await measureVsFastify({ ...vsFastify, engine: 'sqlite', routes: sqliteRoutes }));
      // A row whose route --only left out stays in the table as not run.
      return sqliteVsFastifyRows.map((row) => measured.find((m) => m.key === row.key) ?? missingRow(row, 'not run (--only)'));
    })),
  );
  rows.push(
    ...(await part(`list in turns with Fastify + ajv, PostgreSQL, ${rounds} round(s)`, [listRpsVsFastifyPgRow], async () => [
      postgresVsFastifyRow(await measureVsFastify({ ...vsFastify, engine: 'postgres', routes: ['list'] })),
    ])),
  );
  rows.push(
    ...(await part('start to ready: npm start, Fastify hello', [startRow], async () => {
      // `npm start` runs dist/ and refuses a stale build outside production.
      freshBuiltServer(root, progress);
      return startRows(await measureStartVsFastify(root, sizes.starts, !quick));
    })),
  );
  rows.push(
    ...(await part('idle STOMP connections: ours, bare ws', [connectionRow], async () => {
      const options = {
        connections: sizes.connections,
        perMember: 20,
        heartBeatMs: 10_000,
        idleSeconds: quick ? 0 : 5,
        batchSize: 200,
        settleMs: quick ? 300 : 2000,
      };
      const bareWs = await measureIdleConnections({ name: 'bare ws', kind: 'bare ws', root }, options, { tmpDir: dir, children });
      const ours = await measureIdleConnections({ name: 'service', kind: 'service', root }, options, { tmpDir: dir, children });
      return connectionRows({ ours, bareWs });
    })),
  );
  // The servers are stopped: the in-process measures below have the cores (less other work) to themselves.
  rows.push(
    ...(await part(`generations (offline planner, SQLite): ours and ${beforePerformanceWork}`, [generationRow], async () => {
      const baseline = generationBaseline(root, beforePerformanceWork);
      try {
        const before = await generationInChild(baseline.tree, 'sqlite', sizes.generations);
        const ours = await generationInChild(root, 'sqlite', sizes.generations);
        if (!before || !ours) throw new Error('a generation run reported nothing');
        return generationRows(ours, before);
      } finally {
        baseline.remove();
      }
    })),
  );
  rows.push(
    ...(await part('chat page vs list page', [chatRow], async () => {
      const port = openSqliteDatabasePort(path.join(dir, 'chat-pages.sqlite'), { guardReentry: false });
      try {
        return chatRows(await measureChatPages(port, { rows: sizes.pageRows, rounds: sizes.pageRounds, perRound: 200 }), sizes.pageRows);
      } finally {
        await port.close();
      }
    })),
  );
  rows.push(
    ...(await part(`keyset paging on SQLite, ${sizes.keyset} rows`, [keysetSqliteRow], async () => {
      const flatness = await keysetFlatnessReport(dir, progress, { shapes: keysetShapes, iterations: sizes.keysetIterations });
      return [keysetRow(keysetSqliteRow, flatness, keysetShapes[0].label, keysetShapes[1].label)];
    })),
  );
  rows.push(
    ...(await part(`keyset paging on PostgreSQL, ${sizes.keyset} rows`, [keysetPostgresRow], async () => {
      const flatness = await keysetFlatnessOnPostgres(keysetShapes, sizes.keysetIterations, progress);
      return [keysetRow(keysetPostgresRow, flatness, keysetShapes[0].label, keysetShapes[1].label)];
    })),
  );
  const report = {
    commit: commitOf(),
    machine: { lines: machineLines(), cores: os.cpus().length, loadBefore, loadAfter: os.loadavg() },
    settings: { quick, seconds, rounds, ...(only && { only: [...only] }), ...sizes },
    rows,
  };
  if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${benchTable(report)}\n`);
}

await runMain(main, cleanUp);
