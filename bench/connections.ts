// `npm run bench -- connections --connections 10000`: what an idle STOMP connection costs the server.
// Each server runs alone as a child process; this process opens N WebSockets to it (CONNECTed with a
// bearer token and heart-beats, one subscription each, idle afterwards) and reads the server's RSS
// before and with them, and its CPU time while they sit idle. Side by side in one run: a bare `ws`
// server holding the same WebSockets (the floor), the service of this checkout and, with
// `--baseline <rev>`, the service at another git revision.
import { fileURLToPath } from 'node:url';
import { benchRun } from './lib/benchRun.js';
import { checkOutBaseline } from './lib/baselineCheckout.js';
import { connectionsUsage, parseConnectionsOptions } from './lib/connectionsOptions.js';
import { measureIdleConnections, type ConnectionResult, type ConnectionTarget } from './lib/idleConnectionCost.js';
import { loadLine, machineLines } from './lib/machine.js';
import { openFileLimit } from './lib/openFileLimit.js';
import { textTable } from './lib/textTable.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);

const { dir: tmpDir, children, cleanUp } = benchRun('trip-connections-');

const mib = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024 ** 2).toFixed(1));
const kib = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024).toFixed(1));

function table(results: ConnectionResult[]): string {
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
  const targets: ConnectionTarget[] = [
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
    `         service: src/main.ts, PLANNER=offline LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=0 RESPONSE_VALIDATION=off STOMP_MAX_CONNECTIONS_PER_USER=${options.perMember} MAX_CONNECTIONS(_PER_ADDRESS)=${options.connections + 64}`,
  );
  log('');

  const results: ConnectionResult[] = [];
  for (const target of targets) {
    log(`  ${target.name}: opening ${options.connections} connections (load ${loadLine()})`);
    const result = await measureIdleConnections(target, { ...options, settleMs: 2_000 }, { tmpDir, children });
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
