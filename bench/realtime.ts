// `npm run bench -- realtime`: N concurrent users each run the documented generation flow (dev-login,
// create, STOMP CONNECT, three SUBSCRIBEs with receipts, start, stream until COMPLETED) against the
// real server as a child process on 127.0.0.1, all starting at once. Reports throughput, latency,
// lost and out-of-order messages (by payload and by x-offset; must be 0), errors-channel messages
// (must be 0) and the server's memory per connection. `--instances 2` runs each level on one
// instance and then across two (clients on A, generations on B, PostgreSQL + Redis), side by side.
// Exits 1 if anything was lost or an error arrived. Bounded per level; cleans up.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchRun, runMain } from './lib/benchRun.js';
import { percentile } from './lib/loadTest.js';
import { loadLine, machineLines } from './lib/machine.js';
import { openFileLimit } from './lib/openFileLimit.js';
import { httpSockets, runLevel, tripDays, type LevelResult } from './lib/realtimeLevel.js';
import { describeDeployment, type DeploymentKind } from './lib/realtimeDeployment.js';
import { parseRealtimeOptions, realtimeUsage, type RealtimeOptions } from './lib/realtimeOptions.js';
import { textTable } from './lib/textTable.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);

const { dir: tmpDir, children, cleanUp } = benchRun('trip-realtime-');

/** Each WebSocket is a descriptor in this process and one in the server, which inherits our limit. */
function checkOpenFiles(levels: number[]): void {
  const limit = openFileLimit();
  const needed = Math.max(...levels) + httpSockets + 200;
  if (limit !== null && limit < needed) {
    throw new Error(`the open-file limit is ${limit}, ${Math.max(...levels)} users need about ${needed}: raise it (ulimit -n ${needed}) or pass fewer --users`);
  }
}

const mib = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024 ** 2).toFixed(1));
const seconds = (ms: number) => (Number.isNaN(ms) ? '-' : (ms / 1000).toFixed(2));
const perSecond = (count: number, ms: number) => (Number.isNaN(ms) || ms <= 0 ? '-' : (count / (ms / 1000)).toFixed(0));

function row(r: LevelResult): string[] {
  const { beforeConnections, withConnections, afterRun } = r.rss;
  const perConnection =
    beforeConnections !== null && withConnections !== null && r.ready > 0 ? ((withConnections - beforeConnections) / r.ready / 1024).toFixed(1) : '-';
  return [
    r.deployment === 'single' ? '1' : '2 (A+B)',
    String(r.users),
    `${r.completed}/${r.users}`,
    seconds(r.httpSetupMs + r.stompSetupMs),
    seconds(r.windowMs),
    perSecond(r.completed, r.windowMs),
    perSecond(r.frames, r.windowMs),
    r.latenciesMs.length > 0 ? percentile(r.latenciesMs, 0.5).toFixed(0) : '-',
    r.latenciesMs.length > 0 ? percentile(r.latenciesMs, 0.99).toFixed(0) : '-',
    r.deliveryMs.length > 0 ? percentile(r.deliveryMs, 0.5).toFixed(0) : '-',
    r.deliveryMs.length > 0 ? percentile(r.deliveryMs, 0.99).toFixed(0) : '-',
    String(r.lost),
    String(r.offsetGaps),
    String(r.outOfOrder + r.badOffsetHeaders),
    String(r.errorMessages),
    mib(beforeConnections),
    mib(withConnections),
    mib(afterRun),
    perConnection,
    r.cpuShare.server === null || r.completed === 0 ? '-' : `${(r.cpuShare.server * 100).toFixed(0)}%`,
    r.completed === 0 ? '-' : `${(r.cpuShare.client * 100).toFixed(0)}%`,
  ];
}

function describeSetup(options: RealtimeOptions): string[] {
  return [
    `server:  node --import tsx src/main.ts as a child process on 127.0.0.1 (its pid is the server itself; RSS = VmRSS of /proc/<pid>/status)`,
    `         PLANNER=offline PLANNER_DELAY_MS=0 LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=0 MAX_CONNECTIONS_PER_ADDRESS=1000000 RESPONSE_VALIDATION=off`,
    ...deploymentsOf(options).map((kind) => `         ${describeDeployment(kind, options)}`),
    `         rate limiting off and connections per address uncapped: every user comes from 127.0.0.1, and the default 6000 requests/minute and 256 connections per address would answer 429 within the first level`,
    `         at most ${options.generationConcurrency} generations run at once and the rest queue in the server, so start -> COMPLETED includes the wait in that queue`,
    `         a fresh server and empty database per level, so RSS per connection is not blurred by an earlier level's heap`,
    `clients: all users in this one process (@stomp/stompjs on ws), STOMP heart-beats off; setup in batches of ${options.batchSize}:`,
    `         dev-login + create a ${tripDays}-day plan (Busan, Seoul, Jeju in turn) over ${httpSockets} keep-alive HTTP sockets, then CONNECT + 3 SUBSCRIBEs, each waiting for its RECEIPT`,
    `         then every start POST is issued at once (queued on the ${httpSockets} sockets); the level ends at the last COMPLETED or after ${options.levelTimeoutSeconds} s`,
    `lost:    per user, the order of asyncapi.yaml: for day 1..${tripDays} schedule DAILY_PLAN_GENERATED(day), CHAT chunks, full CHAT = the chunks joined; then COMPLETED.`,
    `         every expected message missing, out of order or unexpected counts one; a user that never got set up or did not complete loses what it did not receive`,
    `x-offset: per plan (schedule + errors) and per chat room, one epoch each from offset 1: gaps = offsets below the highest seen that never came,`,
    `         disorder = arrivals at or below an offset already seen, plus frames without x-epoch/x-offset or from a second epoch`,
  ];
}

const deploymentsOf = (options: RealtimeOptions): DeploymentKind[] => (options.instances === 2 ? ['single', 'cluster'] : ['single']);

async function main(): Promise<number> {
  const options = parseRealtimeOptions(process.argv.slice(2), process.env);
  if (!options) {
    out(realtimeUsage);
    return 0;
  }
  checkOpenFiles(options.levels);
  out('== Trip Itinerary Service: realtime benchmark (STOMP over WebSocket)');
  for (const line of machineLines()) out(line);
  out('');
  for (const line of describeSetup(options)) out(line);
  out('');

  const results: LevelResult[] = [];
  for (const users of options.levels) {
    for (const deployment of deploymentsOf(options)) {
      const result = await runLevel({
        root,
        tmpDir,
        users,
        deployment,
        redisUrl: options.redisUrl,
        generationConcurrency: options.generationConcurrency,
        timeoutMs: options.levelTimeoutSeconds * 1000,
        batchSize: options.batchSize,
        started: (child) => children.push(child),
        progress: (line) => out(`  ${line}`),
      });
      children.splice(0);
      results.push(result);
      out(
        `  ${users} users on ${deployment === 'single' ? 'one instance' : 'two instances'}: ${result.completed} completed in ${seconds(result.windowMs)} s${result.timedOut ? `, TIMED OUT after ${options.levelTimeoutSeconds} s` : ''}, ${result.frames} MESSAGE frames, lost ${result.lost}, errors ${result.errorMessages}`,
      );
    }
  }

  out('');
  out(`load average at the end: ${loadLine()}`);
  out('setup = login + create + connect + subscribe of all users; run = first start POST to last COMPLETED; runs/s and msgs/s over the run;');
  out(
    "p50/p99 = start POST -> that user's COMPLETED; deliver p50/p99 = payload timestamp (set as the server publishes) -> arrival, over every chat MESSAGE of every user (one machine, one clock);",
  );
  out(
    'lost = by payload order (generationSequence.ts); gaps, disorder = by x-offset; RSS of the server holding the WebSockets (A of two) in MiB before the WebSockets (after login + create), with them, after the run;',
  );
  out('KiB/conn = (RSS with - RSS before) / connections, one connection = one WebSocket with 3 subscriptions (GC noise: trust it at 500+ users);');
  out(
    `server CPU (both instances summed), client CPU = CPU time used during the run / its wall time (100% = one of the ${os.cpus().length} cores; all processes share them)`,
  );
  out(
    textTable(
      [
        'instances',
        'users',
        'completed',
        'setup s',
        'run s',
        'runs/s',
        'msgs/s',
        'p50 ms',
        'p99 ms',
        'deliver p50',
        'deliver p99',
        'lost',
        'gaps',
        'disorder',
        'errors',
        'RSS before',
        'RSS conns',
        'RSS after',
        'KiB/conn',
        'server CPU',
        'client CPU',
      ],
      results.map(row),
    ),
  );

  const problems = results.flatMap((r) => r.problems.slice(0, 5).map((p) => `  [${r.users} users, ${r.deployment}] ${p}`));
  if (problems.length > 0) {
    out('');
    out('first problems per level:');
    for (const line of problems) out(line);
  }
  const lost = results.reduce((sum, r) => sum + r.lost + r.offsetGaps + r.outOfOrder + r.badOffsetHeaders, 0);
  const errors = results.reduce((sum, r) => sum + r.errorMessages, 0);
  out('');
  out(
    lost === 0 && errors === 0
      ? 'OK: no message lost or out of order, no errors-channel message'
      : `FAILED: ${lost} messages lost or out of order, ${errors} errors-channel messages`,
  );
  return lost === 0 && errors === 0 ? 0 : 1;
}

await runMain(main, cleanUp);
