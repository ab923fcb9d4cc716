// Two instances of the service (real HTTP and STOMP servers in this process) on one fresh PostgreSQL
// database and a Redis of the test's own (ownRedis.ts: it may be killed and come back empty), each
// instance reaching Redis through a TCP proxy of its own (tcpProxy.ts: cut, black-hole...). A runs
// no generation (its clients watch); B runs them with a gated planner, so a test decides when each
// day is made.
import { expect } from 'vitest';
import { createOfflinePlanner } from '../../src/generation/offline/offlinePlanner.js';
import type { Planner } from '../../src/generation/planner.js';
import { gatedPlanner, type GatedPlanner } from './plannerStubs.js';
import { startOwnRedis, type OwnRedis } from './ownRedis.js';
import { freshPostgresDatabase } from './postgres.js';
import { connectStomp, wsUrl, type StompTestClient } from './stompTestClient.js';
import { startTcpProxy, throughProxy, type TcpProxy } from './tcpProxy.js';
import { busanTrip } from './testApp.js';
import { startTestServer, type TestServer } from './testServer.js';

export interface InstancesOnOwnRedis {
  redis: OwnRedis;
  /** A: clients only (GENERATION_CONCURRENCY=0), and its proxy to Redis */
  a: TestServer;
  proxyA: TcpProxy;
  /** B: runs the generations, planned by `planner`, and its proxy to Redis */
  b: TestServer;
  proxyB: TcpProxy;
  planner: GatedPlanner;
  /** A STOMP client of `server`, disconnected by stop() */
  connect(server: TestServer, token: string): Promise<StompTestClient>;
  /** A member with a 3-day plan (created on B) and its three destinations */
  planOf(email: string): Promise<{ token: string; tripPlanId: number; chatRoomId: number; schedule: string; chat: string; errors: string }>;
  /** resolves once /readyz of `server` answers `status` */
  readiness(server: TestServer, status: 200 | 503): Promise<void>;
  stop(): Promise<void>;
}

export async function startInstancesOnOwnRedis(env: Record<string, string> = {}): Promise<InstancesOnOwnRedis> {
  const redis = await startOwnRedis();
  const database = await freshPostgresDatabase({ migrated: true });
  const [proxyA, proxyB] = await Promise.all([startTcpProxy({ host: '127.0.0.1', port: redis.port }), startTcpProxy({ host: '127.0.0.1', port: redis.port })]);
  const common = { DATABASE_URL: database.url, GENERATION_POLL_MS: '50', STOMP_SESSION_CHECK_MS: '3600000', ...env };
  let inner!: Planner;
  const planner = gatedPlanner(() => inner);
  const [a, b] = await Promise.all([
    startTestServer({ ...common, REDIS_URL: throughProxy(redis.url(), proxyA), GENERATION_CONCURRENCY: '0' }),
    startTestServer({ ...common, REDIS_URL: throughProxy(redis.url(), proxyB) }, { planner }),
  ]);
  inner = createOfflinePlanner({ db: b.app.services.db, delayMs: 0 });
  const clients: StompTestClient[] = [];

  return {
    redis,
    a,
    proxyA,
    b,
    proxyB,
    planner,
    async connect(server, token) {
      const client = await connectStomp(wsUrl(server.url), token);
      clients.push(client);
      return client;
    },
    async planOf(email) {
      const { accessToken: token } = await b.signIn(email);
      const created = await b.request<{ data: { tripPlanId: number; chatRoomId: number } }>('POST', '/api/v1/trips', { token, body: busanTrip });
      if (created.status !== 201) throw new Error(`plan not created: ${created.status} ${created.text}`);
      const { tripPlanId, chatRoomId } = created.body.data;
      return {
        token,
        tripPlanId,
        chatRoomId,
        schedule: `/user/sub/schedule/${tripPlanId}`,
        chat: `/user/sub/chat/${chatRoomId}`,
        errors: `/user/sub/errors/${chatRoomId}`,
      };
    },
    async readiness(server, status) {
      await expect.poll(async () => (await server.request('GET', '/readyz')).status, { timeout: 30_000, interval: 100 }).toBe(status);
    },
    async stop() {
      for (const tripPlanId of planner.started) planner.finish(tripPlanId);
      proxyA.restore();
      proxyB.restore();
      await Promise.all(clients.map((c) => c.disconnect()));
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([proxyA.close(), proxyB.close()]);
      await redis.stop();
      await database.drop();
    },
  };
}
