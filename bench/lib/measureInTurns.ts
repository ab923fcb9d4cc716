// Servers measured in turns, round after round (each of them once per round, in the same order), so
// that other work on the machine weighs on each alike: each measurement is a warm-up run whose numbers
// are discarded, then the measured run with the server process's CPU time read before and after
// (/proc/<pid>/stat; CPU per response is the measure load moves least). `npm run bench -- request`
// and the summary's rows against the Fastify peer both measure this way.
import type { ChildServer } from './childServer.js';
import { loadLine } from './machine.js';
import { runLoad, type LoadTarget } from './loadTest.js';
import { cpuSeconds } from './processCpu.js';

/** One server and route, and what each round measured of it (in round order). */
export interface Measured {
  name: string;
  server: Pick<ChildServer, 'pid'>;
  target: LoadTarget;
  reqPerSec: number[];
  /** CPU µs per response; empty where /proc is not readable */
  cpuUs: number[];
  /** the 99th percentile of the response times */
  p99Ms: number[];
  /** non-2xx responses, socket errors and timeouts over all rounds: 0, or the numbers mean little */
  failures: number;
}

export interface TurnSettings {
  rounds: number;
  /** of each measured run */
  seconds: number;
  /** of the warm-up run before each measured one */
  warmupSeconds: number;
  connections: number;
}

export function toMeasure(name: string, server: Pick<ChildServer, 'pid'>, target: LoadTarget): Measured {
  return { name, server, target, reqPerSec: [], cpuUs: [], p99Ms: [], failures: 0 };
}

async function measureOnce(m: Measured, settings: TurnSettings): Promise<void> {
  const { seconds, warmupSeconds, connections } = settings;
  if (warmupSeconds > 0) await runLoad(m.target, { seconds: warmupSeconds, connections, warmupSeconds: 0 });
  const before = cpuSeconds(m.server.pid);
  const result = await runLoad(m.target, { seconds, connections, warmupSeconds: 0 });
  const after = cpuSeconds(m.server.pid);
  m.reqPerSec.push(result.reqPerSec);
  m.p99Ms.push(result.p99Ms);
  if (before !== null && after !== null && result.responses > 0) m.cpuUs.push(((after - before) * 1e6) / result.responses);
  m.failures += result.non2xx + result.errors;
}

/** Measures every entry of `measured` once per round, in order; returns the machine's load after each round. */
export async function measureInTurns(measured: Measured[], settings: TurnSettings, afterRound?: (round: number, load: string) => void): Promise<string[]> {
  const loads: string[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    for (const m of measured) await measureOnce(m, settings);
    loads.push(loadLine());
    afterRound?.(round, loads.at(-1)!);
  }
  return loads;
}
