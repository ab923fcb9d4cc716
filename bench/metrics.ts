// `npm run bench -- metrics`: what Prometheus metrics cost on the hot read, the list GET of
// `npm run bench -- http` (GET /api/v1/trips?size=20 on SQLite, 10,000 plans), measured with
// METRICS_ENABLED=true and =false on the same seeded database. The two runs alternate, off first,
// for BENCH_ROUNDS rounds (default 3), so drift of the machine's load falls on both alike; the
// median of each side and their ratio are printed (goal: metrics cost under 5% of req/s). Talks to
// 127.0.0.1 only and removes its child processes and temp files. BENCH_SECONDS: seconds per run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, createMetrics, requestSeries, routeFor } from '../src/index.js';
import { benchRun, runMain } from './lib/benchRun.js';
import { startChildServer } from './lib/childServer.js';
import { freePort } from './lib/freePort.js';
import { listPath } from './lib/listThroughput.js';
import { median, runLoad, type LoadResult } from './lib/loadTest.js';
import { loadLine, machineLines } from './lib/machine.js';
import { seedServerDb } from './lib/seedServerDb.js';
import { textTable } from './lib/textTable.js';
import { deploymentEnv } from './lib/deploymentEnv.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);
const connections = 50;
const warmupSeconds = 2;
const seededPlans = 10_000;
/** metrics on must keep this share of the list's req/s with metrics off */
const goal = 0.95;

function integerFromEnv(name: string, fallback: number, max: number): number {
  const raw = process.env[name] ?? String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be an integer from 1 to ${max}, got "${raw}"`);
  return value;
}

const { dir, children, cleanUp } = benchRun('trip-bench-metrics-');

/** One run of the list GET against a fresh server with metrics on or off; checks /metrics agrees. */
async function listRun(env: Record<string, string>, token: string, metrics: boolean, seconds: number): Promise<LoadResult> {
  const server = await startChildServer({
    entry: 'src/main.ts',
    cwd: root,
    port: await freePort(),
    env: { ...env, METRICS_ENABLED: String(metrics) },
    readyPath: '/readyz',
  });
  children.push(server);
  try {
    const url = `${server.baseUrl}${listPath}`;
    const result = await runLoad(
      { name: `list, metrics ${metrics ? 'on' : 'off'}`, url, headers: { Authorization: `Bearer ${token}` } },
      { seconds, connections, warmupSeconds },
    );
    const scrape = await fetch(`${server.baseUrl}/metrics`);
    const text = await scrape.text();
    if (scrape.status !== (metrics ? 200 : 404)) throw new Error(`GET /metrics with metrics ${metrics ? 'on' : 'off'} answered ${scrape.status}`);
    if (metrics && !/^http_server_requests_total\{operation_id="listTripPlans",http_response_status_code="200"\} [1-9]/m.test(text))
      throw new Error('the list requests are not counted in /metrics');
    return result;
  } finally {
    await server.stop();
    children.splice(children.indexOf(server), 1);
  }
}

/**
 * CPU time the request middleware (src/http/requestMetrics.ts) spends recording one request: its two
 * clock reads, the lookup of the list's bound series, the histogram observation and the counter increment.
 * Independent of the machine's load, unlike req/s.
 */
function recordingMicroseconds(): number {
  const metrics = createMetrics({ waitingGenerations: () => Promise.resolve(0), connectionPool: () => ({ idle: 0, used: 1, pending: 0 }) });
  const seriesOf = requestSeries(metrics);
  const route = routeFor('GET', listPath)!;
  const requests = 1_000_000;
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const requestStarted = performance.now();
    const seconds = (performance.now() - requestStarted) / 1000;
    const series = seriesOf('GET', route, 200);
    series.duration.observe(seconds);
    series.requests.inc();
  }
  return ((performance.now() - started) / requests) * 1000;
}

async function main(): Promise<void> {
  const seconds = integerFromEnv('BENCH_SECONDS', 10, 600);
  const rounds = integerFromEnv('BENCH_ROUNDS', 3, 20);
  const env = deploymentEnv({ dataDir: dir, databaseUrl: path.join(dir, 'server.sqlite') });
  out('== Trip Itinerary Service: the cost of Prometheus metrics on the list GET');
  for (const line of machineLines()) out(line);
  out(
    `load:   autocannon in this process, ${connections} connections, ${warmupSeconds} s warm-up then ${seconds} s per run, ${rounds} rounds of off then on; GET ${listPath} on SQLite (${seededPlans.toLocaleString('en-US')} plans)`,
  );
  out('');
  const { accessToken } = await seedServerDb(loadConfig(env), seededPlans);
  const rows: string[][] = [];
  const off: number[] = [];
  const on: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const metrics of [false, true]) {
      const result = await listRun(env, accessToken, metrics, seconds);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.name}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
      (metrics ? on : off).push(result.reqPerSec);
      rows.push([String(round), metrics ? 'on' : 'off', result.reqPerSec.toFixed(0), result.p50Ms.toFixed(2), result.p99Ms.toFixed(2), loadLine()]);
    }
  }
  out(textTable(['round', 'metrics', 'req/s', 'p50 ms', 'p99 ms', 'load after'], rows));
  const ratio = median(on) / median(off);
  out('');
  out(
    `median req/s: metrics off ${median(off).toFixed(0)}, on ${median(on).toFixed(0)}; on/off = ${ratio.toFixed(3)} (${((1 - ratio) * 100).toFixed(1)}% overhead)`,
  );
  out(`goal: metrics on >= ${goal * 100}% of off -> ${ratio >= goal ? 'MET' : 'NOT MET'}`);
  const microseconds = recordingMicroseconds();
  out(
    `recording one request (in process, 1M times): ${microseconds.toFixed(2)} µs of CPU, ${((microseconds * median(off)) / 10_000).toFixed(2)}% of one core at the off median's req/s`,
  );
}

await runMain(main, cleanUp);
