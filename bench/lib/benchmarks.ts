// The benchmarks `npm run bench -- <name>` runs: each name, its file in bench/, and what it measures
// (the line `npm run bench -- --list` prints). test/bench/benchList.test.ts checks that every
// benchmark file is here and every file here exists.

export interface Benchmark {
  name: string;
  /** relative to bench/ */
  file: string;
  /** one line: what it measures, and its main options */
  what: string;
}

export const benchmarks: Benchmark[] = [
  {
    name: 'summary',
    file: 'summary.ts',
    what: 'the performance table: each measure of our server next to its peers, as ratios with their goals [--json] [--quick] [--only key,key]',
  },
  {
    name: 'http',
    file: 'http.ts',
    what: 'HTTP req/s and latency of list, read and create on SQLite and PostgreSQL next to a bare Hono hello, then keyset paging at 1k vs 1M rows (BENCH_SECONDS)',
  },
  {
    name: 'request',
    file: 'requestPath.ts',
    what: 'CPU µs per list GET of the built server next to a bare Hono hello, in turns [--fastify (and GET by id) [--list-only]] [--profile <dir>] [--baseline <dir>] [--engine postgres]',
  },
  {
    name: 'metrics',
    file: 'metrics.ts',
    what: 'what Prometheus metrics cost on the list GET: METRICS_ENABLED off and on, alternating, against the 5% goal (BENCH_ROUNDS, BENCH_SECONDS)',
  },
  {
    name: 'tracing',
    file: 'tracing.ts',
    what: 'what tracing costs on the list GET: off, on and sampled at 10%, in turns, req/s and server CPU per 1,000 responses (BENCH_ROUNDS, BENCH_SECONDS)',
  },
  {
    name: 'realtime',
    file: 'realtime.ts',
    what: 'N users each generating a plan over STOMP: runs/s, messages/s, latency, lost and out-of-order messages, RSS per connection [--users 100,500] [--instances 2]',
  },
  {
    name: 'generations',
    file: 'generations.ts',
    what: 'generations/s through the lease runner on SQLite and PostgreSQL, in process, CPU per generation [--baseline <git ref>] [--rounds n] [--json] (BENCH_PLANS)',
  },
  {
    name: 'planlog',
    file: 'planLog.ts',
    what: 'the plan logs behind replay: appends/s and delivery latency of the embedded and the Redis log [--messages 20000] [--plans 100]',
  },
  {
    name: 'chatpage',
    file: 'chatPage.ts',
    what: 'the database work of a chat history page next to a trip list page, in process on SQLite and PostgreSQL, CPU µs per page (BENCH_ROUNDS)',
  },
  {
    name: 'connections',
    file: 'connections.ts',
    what: 'RSS and idle CPU per idle STOMP connection next to a bare ws server [--connections 10000] [--baseline <git rev>] [--json]',
  },
  {
    name: 'startup',
    file: 'startup.ts',
    what: 'start to the first 200 of /readyz of npm start, npm run dev and their node commands, in turns, wall and CPU time [--runs 10] [--no-build] [--baseline <git ref>] [--json]',
  },
];
