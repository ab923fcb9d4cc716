// The rows of `npm run bench` about whole processes: start to ready, and memory per idle connection.
import type { BenchRow } from './benchRow.js';
import type { IdleConnections } from './idleConnections.js';
import { median } from './startToReady.js';

const startGoalS = 0.5;
const connectionGoalKiB = 12;

export const startRow = {
  key: 'start_to_ready',
  measure: '`npm start` until /readyz 200 (median)',
  ratioOf: 'ours ÷ Fastify hello',
  goal: `≤ ${startGoalS} s`,
};
export const connectionRow = {
  key: 'rss_per_idle_stomp_connection',
  measure: 'RSS per idle STOMP connection',
  ratioOf: 'ours ÷ bare ws',
  goal: `≤ ${connectionGoalKiB} KiB`,
};

export function startRows(m: { oursMs: number[]; fastifyMs: number[] }): BenchRow[] {
  const ours = median(m.oursMs) / 1000;
  const fastify = median(m.fastifyMs) / 1000;
  const range = (ms: number[]) => `${(Math.min(...ms) / 1000).toFixed(2)}-${(Math.max(...ms) / 1000).toFixed(2)} s`;
  return [
    {
      ...startRow,
      ours: { value: ours, unit: 's' },
      peers: [{ name: 'Fastify hello (node, plain JS)', value: fastify, unit: 's' }],
      ratio: ours / fastify,
      met: ours <= startGoalS,
      note: `${m.oursMs.length} starts each, alternated, fresh DATA_DIR each; ours ${range(m.oursMs)}, Fastify hello ${range(m.fastifyMs)}`,
    },
  ];
}

export function connectionRows(m: { ours: IdleConnections; bareWs: IdleConnections }): BenchRow[] {
  const kib = (c: IdleConnections) => c.bytesPerConnection / 1024;
  const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(1);
  return [
    {
      ...connectionRow,
      ours: { value: kib(m.ours), unit: 'KiB' },
      peers: [{ name: 'bare ws', value: kib(m.bareWs), unit: 'KiB' }],
      ratio: kib(m.ours) / kib(m.bareWs),
      met: kib(m.ours) <= connectionGoalKiB,
      note: `${m.ours.count < 1000 ? 'too few connections for the RSS delta to mean much (--quick); ' : ''}${m.ours.count} connections, each CONNECTed without heart-beats and one SUBSCRIBE; ours ${mib(m.ours.rssBefore)} -> ${mib(m.ours.rssAfter)} MiB, bare ws ${mib(m.bareWs.rssBefore)} -> ${mib(m.bareWs.rssAfter)} MiB`,
    },
  ];
}
