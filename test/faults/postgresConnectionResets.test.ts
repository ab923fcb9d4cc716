// PostgreSQL connections that break while the service is busy (a failover, a pgbouncer restart, a
// NAT timeout, pg_terminate_backend): every connection is reset by the TCP proxy in front of the
// database, or its backend terminated, while creates, generations (claims, day saves, lease
// renewals) and the sweeper have transactions open. The process lives; every answer during the fault
// is a documented one (2xx, or 503 COMMON503 with Retry-After; never a 500, never a dropped
// connection); afterwards everything works again. The service runs as a real process, so that an
// error nobody handles shows as a dead process rather than as a failure of the test runner.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { openRawStomp } from '../support/rawStompSocket.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { lineOf, spawnBuiltService } from '../support/serviceProcess.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcpProxy.js';
import { busanTrip } from '../support/testApp.js';

const HANG_LIMIT_MS = 60_000;
const POLL = { timeout: HANG_LIMIT_MS, interval: 100 };
/** Requests kept in flight during a fault: more than the pool has connections, so transactions are always open. */
const IN_FLIGHT = 24;

interface Answer {
  what: string;
  status: number;
  code?: string;
  retryAfter: string | null;
}

interface Service {
  child: ChildProcess;
  url: string;
  stderr(): string;
}

let fresh: FreshPostgresDatabase;
let proxy: TcpProxy;
let dataDir: string;
let service: Service | undefined;

beforeAll(ensureFreshBuild, 2 * HANG_LIMIT_MS);
beforeEach(async () => {
  fresh = await freshPostgresDatabase({ migrated: true });
  const server = new URL(fresh.url);
  proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-pg-resets-'));
});

afterEach(async () => {
  if (service && service.child.exitCode === null && service.child.signalCode === null) {
    const exited = new Promise((resolve) => service!.child.once('exit', resolve));
    service.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
    service.child.kill('SIGKILL');
  }
  service = undefined;
  proxy.restore();
  await proxy.close();
  await fresh.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startService(): Promise<Service> {
  const child = spawnBuiltService({
    DATABASE_URL: throughProxy(fresh.url, proxy),
    JWT_SECRET: 'connection-resets-test-secret-0123456789',
    DATA_DIR: dataDir,
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    // Generations that stream for a while, with heartbeats (lease renewals) and sweeps all the time.
    PLANNER_DELAY_MS: '20',
    GENERATION_CONCURRENCY: '8',
    GENERATION_CONCURRENCY_PER_USER: '8',
    GENERATION_LEASE_MS: '3000',
    GENERATION_HEARTBEAT_MS: '50',
    GENERATION_SWEEP_MS: '50',
    GENERATION_POLL_MS: '50',
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const listening = await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS);
  return { child, url: `http://127.0.0.1:${(JSON.parse(listening) as { port: number }).port}`, stderr: () => stderr };
}

const alive = (s: Service) => s.child.exitCode === null && s.child.signalCode === null;

async function call<T>(
  s: Service,
  method: string,
  route: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; data: T; code?: string; retryAfter: string | null }> {
  const res = await fetch(`${s.url}${route}`, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? (JSON.parse(text) as { data: T & { code?: string } }).data : undefined;
  return { status: res.status, data: data as T, code: res.status >= 400 ? data?.code : undefined, retryAfter: res.headers.get('retry-after') };
}

/**
 * Answers that are neither a 2xx nor 503 COMMON503 with Retry-After (a dropped connection is status
 * 0), and STOMP chat SENDs answered neither by their RECEIPT nor by ERROR WS503.
 */
const undocumented = (answers: Answer[]) =>
  answers.filter((a) =>
    a.what === 'chat'
      ? a.code !== 'RECEIPT' && a.code !== 'WS503'
      : !(a.status >= 200 && a.status < 300) && !(a.status === 503 && a.code === 'COMMON503' && /^[1-9][0-9]*$/.test(a.retryAfter ?? '')),
  );

/** One STOMP connection at a time sending chat messages with receipts to `chatRoomId`, a new one after each ERROR. */
async function chatter(s: Service, token: string, chatRoomId: number, going: () => boolean, answers: Answer[]): Promise<void> {
  let receipt = 0;
  while (going() && alive(s)) {
    const stomp = await openRawStomp(s.url, token);
    try {
      while (going() && !stomp.errorCode()) {
        const id = `r-${++receipt}`;
        stomp.send(
          `SEND\ndestination:/pub/chat/${chatRoomId}/message\ncontent-type:application/json\nreceipt:${id}\n\n${JSON.stringify({ content: 'Where should we eat?' })}\0`,
        );
        const outcome = await stomp.receiptOrClose(id);
        answers.push({ what: 'chat', status: 0, code: outcome === 'RECEIPT' ? 'RECEIPT' : (stomp.errorCode() ?? 'closed without ERROR'), retryAfter: null });
      }
      // A CONNECT refused while the database is away: the same ERROR WS503.
      if (!stomp.frames.some((f) => f.command === 'CONNECTED'))
        answers.push({ what: 'chat', status: 0, code: stomp.errorCode() ?? 'closed without ERROR', retryAfter: null });
    } finally {
      stomp.close();
    }
  }
}

/** Generations started during a fault: as many as run at once (GENERATION_CONCURRENCY), so none waits long after it. */
const STARTS = 8;

/**
 * Keeps IN_FLIGHT creates going (the first STARTS created plans are started too) until `fault`
 * resolves; every answer is recorded.
 */
async function underLoad(s: Service, tokens: string[], chat: { token: string; chatRoomId: number }, fault: () => Promise<void>): Promise<Answer[]> {
  const answers: Answer[] = [];
  let faulting = true;
  let starts = 0;
  const record = async (what: string, request: () => ReturnType<typeof call>) => {
    try {
      const res = await request();
      answers.push({ what, status: res.status, code: res.code, retryAfter: res.retryAfter });
      return res;
    } catch (error) {
      answers.push({ what: `${what}: ${(error as Error).message}`, status: 0, retryAfter: null });
      return null;
    }
  };
  const worker = async (token: string) => {
    while (faulting) {
      const created = await record('create', () => call<{ tripPlanId: number }>(s, 'POST', '/api/v1/trips', token, busanTrip));
      if (!created || !alive(s)) return;
      if (created.status === 201 && starts++ < STARTS) {
        await record('start', () => call(s, 'POST', `/api/v1/trips/${(created.data as { tripPlanId: number }).tripPlanId}`, token));
      }
    }
  };
  const workers = [
    ...Array.from({ length: IN_FLIGHT }, (_, i) => worker(tokens[i % tokens.length]!)),
    chatter(s, chat.token, chat.chatRoomId, () => faulting, answers),
  ];
  try {
    await fault();
  } finally {
    faulting = false;
    await Promise.all(workers);
  }
  return answers;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signIn(s: Service, email: string): Promise<string> {
  const res = await call<{ accessToken: string }>(s, 'POST', '/api/v1/auth/dev-login', undefined, { email });
  expect(res.status).toBe(200);
  return res.data.accessToken;
}

/** The service works again: ready, a create, a list with it, a generation that completes. */
async function worksAgain(s: Service, token: string): Promise<void> {
  await vi.waitFor(async () => expect((await call(s, 'GET', '/readyz')).status).toBe(200), POLL);
  const created = await call<{ tripPlanId: number }>(s, 'POST', '/api/v1/trips', token, busanTrip);
  expect(created.status).toBe(201);
  const list = await call<{ content: { id: number }[] }>(s, 'GET', '/api/v1/trips?size=100', token);
  expect(list.status).toBe(200);
  expect(list.data.content.map((p) => p.id)).toContain(created.data.tripPlanId);
  expect((await call(s, 'POST', `/api/v1/trips/${created.data.tripPlanId}`, token)).status).toBe(200);
  await vi.waitFor(
    async () =>
      expect((await call<{ generationStatus: string }>(s, 'GET', `/api/v1/trips/${created.data.tripPlanId}`, token)).data.generationStatus).toBe('COMPLETED'),
    POLL,
  );
}

/** Terminates the service's backends on the test's own database (the shared server's other databases are not touched). */
async function terminateBackends(database: FreshPostgresDatabase): Promise<number> {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    // Materialized first: the terminations must not run before the filter that spares this session.
    const { rows } = await admin.query<{ terminated: number }>(
      `WITH service AS MATERIALIZED (
         SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'trip-itinerary-service' AND pid <> pg_backend_pid())
       SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS terminated FROM service`,
      [database.name],
    );
    return rows[0]!.terminated;
  } finally {
    await admin.end();
  }
}

describeOnPostgres('PostgreSQL connections broken while transactions are open', { timeout: 4 * HANG_LIMIT_MS }, () => {
  it('connections reset (RST), then backends terminated, under load: the process lives, answers are 2xx or 503 COMMON503 with Retry-After, and it works again after each', async () => {
    service = await startService();
    const s = service;
    const tokens = await Promise.all([1, 2, 3, 4].map((n) => signIn(s, `busy-${n}@example.com`)));
    const chat = { token: tokens[0]!, chatRoomId: (await call<{ chatRoomId: number }>(s, 'POST', '/api/v1/trips', tokens[0], busanTrip)).data.chatRoomId };

    const duringResets = await underLoad(s, tokens, chat, async () => {
      for (let reset = 0; reset < 6 && alive(s); reset++) {
        await pause(300);
        proxy.reset();
      }
      await pause(300);
    });
    expect(alive(s), `the service died: ${s.stderr().slice(-2000)}`).toBe(true);
    expect(undocumented(duringResets)).toEqual([]);
    // The resets hit requests: some were refused with 503, and others went through.
    expect(duringResets.some((a) => a.status === 503)).toBe(true);
    expect(duringResets.some((a) => a.status === 201)).toBe(true);
    expect(duringResets.some((a) => a.what === 'chat')).toBe(true);
    await worksAgain(s, await signIn(s, 'after-resets@example.com'));

    let terminated = 0;
    const duringTerminations = await underLoad(s, tokens, chat, async () => {
      for (let round = 0; round < 4 && alive(s); round++) {
        await pause(300);
        terminated += await terminateBackends(fresh);
      }
      await pause(300);
    });
    expect(terminated).toBeGreaterThan(0);
    expect(alive(s), `the service died: ${s.stderr().slice(-2000)}`).toBe(true);
    expect(undocumented(duringTerminations)).toEqual([]);
    await worksAgain(s, await signIn(s, 'after-terminations@example.com'));
  });
});
