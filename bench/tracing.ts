// `npm run bench -- tracing`: what tracing costs on the list GET (GET /api/v1/trips?size=20,
// SQLite, production settings as `npm run bench -- http` uses them): the service with tracing off, on,
// and on with OTEL_TRACES_SAMPLER_ARG=0.1, in turn (off, on, 10 %, off, ...) so a neighbour's load
// on the shared cores hits each alike. "on" exports its spans as OTLP/JSON to a receiver in this
// process that reads and drops them.
// Besides req/s (which a busy neighbour moves a lot), the server's own CPU time per 1,000
// responses (from /proc), which the neighbour moves far less.
// BENCH_SECONDS per run (default 8), BENCH_ROUNDS rounds (default 3).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/index.js';
import { runMain } from './lib/benchRun.js';
import { startChildServer } from './lib/childServer.js';
import { freePort } from './lib/freePort.js';
import { listPath } from './lib/listThroughput.js';
import { runLoad, type LoadResult } from './lib/loadTest.js';
import { machineLines } from './lib/machine.js';
import { cpuSeconds } from './lib/processCpu.js';
import { seedServerDb } from './lib/seedServerDb.js';
import { deploymentEnv } from './lib/deploymentEnv.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = (line: string) => process.stdout.write(`${line}\n`);
const seconds = Number(process.env.BENCH_SECONDS ?? '8');
const rounds = Number(process.env.BENCH_ROUNDS ?? '3');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-bench-tracing-'));

/** An OTLP/HTTP endpoint that reads every export and drops it, counting the spans' bytes. */
async function discardingReceiver(): Promise<{ url: string; bytes: () => number; close(): Promise<void> }> {
  let bytes = 0;
  const server = http.createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const serverEnv = deploymentEnv({ dataDir: dir, databaseUrl: path.join(dir, 'server.sqlite') });
  const seeded = await seedServerDb(loadConfig(serverEnv), 10_000);
  const receiver = await discardingReceiver();
  out(`== Tracing overhead on GET ${listPath} (SQLite, 10,000 plans)`);
  for (const line of machineLines()) out(line);
  out(`load: autocannon in this process, 50 connections, 2 s warm-up then ${seconds} s per run, ${rounds} rounds of off/on/10 %`);
  const modes = {
    off: {},
    on: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    '10%': { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER_ARG: '0.1' },
  };
  type Mode = keyof typeof modes;
  const results: Record<Mode, LoadResult[]> = { off: [], on: [], '10%': [] };
  /** server CPU seconds per 1,000 responses */
  const cpuPerThousand: Record<Mode, number[]> = { off: [], on: [], '10%': [] };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const mode of Object.keys(modes) as Mode[]) {
        const env = { ...serverEnv, ...modes[mode] };
        const server = await startChildServer({ entry: 'src/main.ts', cwd: root, port: await freePort(), env, readyPath: '/readyz' });
        try {
          const target = { name: mode, url: `${server.baseUrl}${listPath}`, headers: { Authorization: `Bearer ${seeded.accessToken}` } };
          // A warm-up run of its own, so that the CPU read below covers exactly the measured responses.
          await runLoad(target, { seconds: 2, connections: 50, warmupSeconds: 0 });
          const cpuBefore = cpuSeconds(server.pid);
          const result = await runLoad(target, { seconds, connections: 50, warmupSeconds: 0 });
          const cpuAfter = cpuSeconds(server.pid);
          if (result.non2xx > 0 || result.errors > 0) throw new Error(`${mode}: ${result.non2xx} non-2xx, ${result.errors} errors`);
          results[mode].push(result);
          const cpu = cpuBefore === null || cpuAfter === null || result.responses === 0 ? Number.NaN : ((cpuAfter - cpuBefore) / result.responses) * 1000;
          cpuPerThousand[mode].push(cpu);
          out(
            `round ${round + 1} ${mode.padEnd(3)} ${result.reqPerSec.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms  server CPU ${cpu.toFixed(3)} s per 1,000`,
          );
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await receiver.close();
  }
  const mean = (list: number[]) => list.reduce((sum, v) => sum + v, 0) / list.length;
  const off = { rps: mean(results.off.map((r) => r.reqPerSec)), cpu: mean(cpuPerThousand.off) };
  for (const mode of Object.keys(modes) as Mode[]) {
    const rps = mean(results[mode].map((r) => r.reqPerSec));
    const cpu = mean(cpuPerThousand[mode]);
    out(
      `mean ${mode.padEnd(3)} ${rps.toFixed(0).padStart(6)} req/s (${(((rps - off.rps) / off.rps) * 100).toFixed(1)} % vs off)  server CPU ${cpu.toFixed(3)} s per 1,000 (${(((cpu - off.cpu) / off.cpu) * 100).toFixed(1)} % vs off)`,
    );
  }
  out(`spans received: ${(receiver.bytes() / 1024 / 1024).toFixed(1)} MiB of OTLP/JSON`);
}

await runMain(main, () => fs.rmSync(dir, { recursive: true, force: true }));
