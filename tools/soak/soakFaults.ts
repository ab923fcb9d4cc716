// The faults the soak injects while its users work, one at a time, and how long the deployment
// takes to recover from each: from the moment the fault is over (the process restarted, the link
// healed) until every running instance answers /readyz 200 and takes a new plan.
import type { OwnRedis } from './ownRedis.js';
import type { SoakCluster } from './soakCluster.js';
import type { SoakHttp } from './soakHttp.js';

export interface Fault {
  name: string;
  /** injects the fault and resolves once it is over */
  run(cluster: SoakCluster, redis: OwnRedis): Promise<void>;
}

export interface FaultRecord {
  name: string;
  /** when it began and ended (ISO), to read the instances' logs and the subscribers' traces against */
  began: string;
  ended: string;
  /** ms from the end of the fault until the deployment served again; null: not within the bound */
  recoveryMs: number | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const SOAK_FAULTS: Fault[] = [
  {
    name: 'kill -9 of instance B (restarted 3 s later)',
    async run(cluster) {
      await cluster.kill9('B');
      await sleep(3_000);
      await cluster.restart('B');
    },
  },
  {
    name: 'SIGTERM of instance C (restarted once it exited)',
    async run(cluster) {
      await cluster.terminate('C');
      await cluster.restart('C');
    },
  },
  {
    name: 'Redis restart: down 2 s, back empty',
    run: (_cluster, redis) => redis.restart(2_000),
  },
  {
    name: 'PostgreSQL paused 10 s (every instance)',
    async run(cluster) {
      for (const instance of cluster.instances) instance.postgres.pause();
      await sleep(10_000);
      for (const instance of cluster.instances) instance.postgres.restore();
    },
  },
  {
    name: 'PostgreSQL connections reset (every instance)',
    async run(cluster) {
      for (const instance of cluster.instances) instance.postgres.reset();
      await sleep(500);
      for (const instance of cluster.instances) instance.postgres.reset();
    },
  },
  {
    name: 'PostgreSQL latency +300 ms per chunk for 20 s (every instance)',
    async run(cluster) {
      for (const instance of cluster.instances) instance.postgres.latency(300);
      await sleep(20_000);
      for (const instance of cluster.instances) instance.postgres.restore();
    },
  },
  {
    name: 'Redis black hole for instance A for 15 s',
    async run(cluster) {
      const a = cluster.instances.find((i) => i.label === 'A')!;
      a.redis.blackHole();
      await sleep(15_000);
      a.redis.restore();
    },
  },
];

/** Until every running instance is ready and takes a create, at most `boundMs`; the time it took, or null. */
export async function timeToRecover(cluster: SoakCluster, http: SoakHttp, token: string, boundMs: number): Promise<number | null> {
  const began = Date.now();
  while (Date.now() - began < boundMs) {
    const running = cluster.instances.filter((i) => i.running());
    const answers = await Promise.all(
      running.map(async (instance) => {
        const ready = await http.once(instance.baseUrl, 'GET', '/readyz');
        if (ready?.status !== 200) return false;
        const created = await http.once(instance.baseUrl, 'POST', '/api/v1/trips', token, {
          themes: ['FAMOUS_SPOT'],
          startDate: '2027-03-01',
          duration: 1,
          region: 'Busan',
          peopleCount: 1,
        });
        return created?.status === 201;
      }),
    );
    if (running.length === cluster.instances.length && answers.every(Boolean)) return Date.now() - began;
    await sleep(100);
  }
  return null;
}
