// The two rows of the list measure: req/s relative to a bare Hono hello-world, and CPU per request.
import type { BenchRow } from './benchRow.js';
import type { ListThroughput, ServerLoad } from './listThroughput.js';

const listShareGoal = 0.15;
const cpuGoalUs = 200;

export const listShareRow = {
  key: 'list_vs_hello',
  measure: 'GET /api/v1/trips req/s ÷ bare Hono hello req/s',
  ratioOf: 'ours ÷ hello',
  goal: `≥ ${listShareGoal}, ahead of Fastify`,
};
export const listCpuRow = {
  key: 'list_cpu_per_request',
  measure: 'CPU per list request (server process)',
  ratioOf: 'ours ÷ Fastify',
  goal: `≤ ${cpuGoalUs} µs`,
};

export function listRows(m: ListThroughput): BenchRow[] {
  const share = (reqPerSec: number) => reqPerSec / m.hello.reqPerSec;
  const ours = share(m.ours.reqPerSec);
  const fastify = share(m.fastify.reqPerSec);
  const failures = (Object.entries(m) as [string, ServerLoad][])
    .filter(([, load]) => load.failures > 0)
    .map(([name, load]) => `${name}: ${load.failures} failed requests`);
  const note = failures.length > 0 ? failures.join('; ') : undefined;
  const cpu = (name: string, us: number | null) => (us === null ? [] : [{ name, value: us, unit: 'µs' }]);
  return [
    {
      ...listShareRow,
      ours: { value: ours, unit: `(${Math.round(m.ours.reqPerSec)} req/s)` },
      peers: [
        { name: 'Fastify + ajv', value: fastify, unit: `(${Math.round(m.fastify.reqPerSec)} req/s)` },
        { name: 'Hono + openapi-backend', value: share(m.openapiBackend.reqPerSec), unit: `(${Math.round(m.openapiBackend.reqPerSec)} req/s)` },
        { name: 'hello', value: 1, unit: `(${Math.round(m.hello.reqPerSec)} req/s)` },
      ],
      ratio: ours,
      met: failures.length === 0 && ours >= listShareGoal && ours > fastify,
      ...(note && { note }),
    },
    {
      ...listCpuRow,
      ours: m.ours.cpuUsPerRequest === null ? null : { value: m.ours.cpuUsPerRequest, unit: 'µs' },
      peers: [
        ...cpu('Fastify + ajv', m.fastify.cpuUsPerRequest),
        ...cpu('Hono + openapi-backend', m.openapiBackend.cpuUsPerRequest),
        ...cpu('hello', m.hello.cpuUsPerRequest),
      ],
      ratio: m.ours.cpuUsPerRequest !== null && m.fastify.cpuUsPerRequest !== null ? m.ours.cpuUsPerRequest / m.fastify.cpuUsPerRequest : null,
      met: m.ours.cpuUsPerRequest === null ? null : failures.length === 0 && m.ours.cpuUsPerRequest <= cpuGoalUs,
      ...(m.ours.cpuUsPerRequest === null ? { note: 'no /proc: process CPU time not readable here' } : note && { note }),
    },
  ];
}
