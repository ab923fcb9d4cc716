// The rows of `npm run bench -- summary` about whole processes: start to ready, and memory per idle connection.
import type { BenchRow } from './benchRow.js';
import type { ConnectionResult } from './idleConnectionCost.js';
import { startupGoalRatio, type StartComparison, type StartupResult } from './startupRun.js';

const connectionGoalKiB = 12;

export const startRow = {
  key: 'start_to_ready',
  measure: '`npm start` until /readyz 200 (median)',
  ratioOf: 'ours ÷ Fastify hello, both by npm start',
  goal: `≤ ${startupGoalRatio}x`,
};
export const connectionRow = {
  key: 'rss_per_idle_stomp_connection',
  measure: 'RSS per idle STOMP connection',
  ratioOf: 'ours ÷ bare ws',
  goal: `≤ ${connectionGoalKiB} KiB`,
};

/** The goal compares launcher with launcher (npm start with npm start); node with node is in the note. */
export function startRows(m: StartComparison): BenchRow[] {
  const ours = m.ours.readyMs.median / 1000;
  const fastify = m.fastify.readyMs.median / 1000;
  const ratio = ours / fastify;
  const cpu = (r: StartupResult) => (r.cpuMs ? `${r.cpuMs.median.toFixed(0)} ms` : '-');
  const ms = (r: StartupResult) => `${r.readyMs.median.toFixed(0)} ms`;
  const nodeRatio = m.oursNode.readyMs.median / m.fastifyNode.readyMs.median;
  return [
    {
      ...startRow,
      ours: { value: ours, unit: 's' },
      peers: [
        { name: m.fastify.name, value: fastify, unit: 's' },
        { name: m.fastifyNode.name, value: m.fastifyNode.readyMs.median / 1000, unit: 's' },
      ],
      ratio,
      met: ratio <= startupGoalRatio,
      note:
        `${m.ours.runs} starts each, taking turns, fresh DATA_DIR each (bench/lib/startupRun.ts, as bench startup); ` +
        `without npm: ${m.oursNode.name} ${ms(m.oursNode)} ÷ ${m.fastifyNode.name} ${ms(m.fastifyNode)} = ${nodeRatio.toFixed(2)}x; ` +
        `CPU of the process tree until ready (what load disturbs least): npm start ours ${cpu(m.ours)}, Fastify hello ${cpu(m.fastify)}; node ours ${cpu(m.oursNode)}, Fastify hello ${cpu(m.fastifyNode)}`,
    },
  ];
}

export function connectionRows(m: { ours: ConnectionResult; bareWs: ConnectionResult }): BenchRow[] {
  const kib = (r: ConnectionResult) => {
    if (r.failed > 0) throw new Error(`${r.name}: ${r.failed} of ${r.failed + r.opened} connections failed (${r.failures.join('; ')})`);
    if (r.bytesPerConnection === null) throw new Error(`${r.name}: no /proc, the server's RSS is not readable here`);
    return r.bytesPerConnection / 1024;
  };
  const mib = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024 ** 2).toFixed(1));
  const idleCpu = (r: ConnectionResult) => (r.idleCpuMsPerSecond === null ? '' : `, idle CPU ${r.idleCpuMsPerSecond.toFixed(1)} ms/s`);
  const ours = kib(m.ours);
  const bareWs = kib(m.bareWs);
  return [
    {
      ...connectionRow,
      ours: { value: ours, unit: 'KiB' },
      peers: [{ name: 'bare ws', value: bareWs, unit: 'KiB' }],
      ratio: ours / bareWs,
      met: ours <= connectionGoalKiB,
      note: `${m.ours.opened < 1000 ? 'too few connections for the RSS delta to mean much (--quick); ' : ''}${m.ours.opened} connections (as bench connections: heart-beats both ways, one subscription each, 20 per member); ours ${mib(m.ours.rss.before)} -> ${mib(m.ours.rss.with)} MiB${idleCpu(m.ours)}, bare ws ${mib(m.bareWs.rss.before)} -> ${mib(m.bareWs.rss.with)} MiB${idleCpu(m.bareWs)}`,
    },
  ];
}
