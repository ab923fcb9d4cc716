// One level of the realtime benchmark: a fresh deployment (one instance or two, see
// realtimeDeployment.ts; fresh databases) and `users` simulated users in this process. Setup in batches (HTTP, then STOMP), every start POST issued at
// once, then wait for every COMPLETED or the level's deadline. Reads the RSS of the server holding
// the WebSockets before them, with them, and after the run.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { wsUrl } from '../../conformance/index.js';
import { createTripApi } from '../../tools/client/tripApi.js';
import type { ChildServer } from './childServer.js';
import { checkGenerationSequence } from './generationSequence.js';
import { missingOffsets } from './offsetOrder.js';
import { startDeployment, type DeploymentKind } from './realtimeDeployment.js';
import { cpuSeconds } from './processCpu.js';
import { rssBytes } from './processRss.js';
import { connectAndSubscribe, newUser, signUpAndPlan, startGeneration, type SimulatedUser } from './simulatedUser.js';

export const tripDays = 3;
const regions = ['Busan', 'Seoul', 'Jeju'];
/** HTTP sockets of the whole level: bounded so 1000 users add 1000 WebSockets, not 2000 sockets */
export const httpSockets = 50;

export interface LevelSettings {
  root: string;
  /** a fresh directory under it holds this level's database */
  tmpDir: string;
  users: number;
  deployment: DeploymentKind;
  /** Redis of a `cluster` deployment */
  redisUrl: string;
  generationConcurrency: number;
  timeoutMs: number;
  batchSize: number;
  started(child: ChildServer): void;
  progress(line: string): void;
}

export interface LevelResult {
  users: number;
  deployment: DeploymentKind;
  ready: number;
  completed: number;
  httpSetupMs: number;
  stompSetupMs: number;
  /** first start POST to last COMPLETED */
  windowMs: number;
  frames: number;
  /** start POST -> COMPLETED of each completed user, ascending */
  latenciesMs: Float64Array;
  lost: number;
  /** by x-offset: numbers below the highest seen that never arrived, and arrivals at or below one seen */
  offsetGaps: number;
  outOfOrder: number;
  /** frames without a usable x-epoch/x-offset, or from a second epoch */
  badOffsetHeaders: number;
  /** publish (payload timestamp) -> arrival of every chat MESSAGE frame, ascending */
  deliveryMs: Float64Array;
  errorMessages: number;
  timedOut: boolean;
  rss: { beforeConnections: number | null; withConnections: number | null; afterRun: number | null };
  /** CPU used during the run (start POSTs to the last COMPLETED) as a share of one core */
  cpuShare: { server: number | null; client: number };
  /** a few examples of what went wrong */
  problems: string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
const tripStart = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

async function inBatches(users: SimulatedUser[], size: number, deadline: number, step: (user: SimulatedUser) => Promise<void>, what: string): Promise<void> {
  for (let at = 0; at < users.length; at += size) {
    const batch = users.slice(at, at + size);
    if (performance.now() >= deadline) {
      for (const user of batch) user.failure ??= `${what} not reached before the level timeout`;
      continue;
    }
    const done = new Set<SimulatedUser>();
    await Promise.race([Promise.all(batch.map((user) => step(user).then(() => done.add(user)))), sleep(deadline - performance.now())]);
    // Still in flight at the deadline: out of the run, so nobody starts half set up.
    for (const user of batch) if (!done.has(user)) user.failure ??= `${what} did not finish before the level timeout`;
  }
}

export async function runLevel(settings: LevelSettings): Promise<LevelResult> {
  const dir = fs.mkdtempSync(path.join(settings.tmpDir, `level-${settings.users}-`));
  try {
    return await runOnFreshServer(settings, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function runOnFreshServer(settings: LevelSettings, dir: string): Promise<LevelResult> {
  const deployment = await startDeployment(settings.deployment, {
    root: settings.root,
    dir,
    generationConcurrency: settings.generationConcurrency,
    redisUrl: settings.redisUrl,
    started: (child) => settings.started(child),
  });
  const server = deployment.clientServer;
  const serversCpu = () => {
    const times = deployment.servers.map((s) => cpuSeconds(s.pid));
    return times.some((t) => t === null) ? null : times.reduce<number>((sum, t) => sum + t!, 0);
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: httpSockets });
  const api = createTripApi(server.baseUrl, agent);
  const users = Array.from({ length: settings.users }, (_v, i) =>
    newUser(`user-${i}@bench.example.com`, {
      region: regions[i % regions.length]!,
      duration: tripDays,
      themes: ['FAMOUS_SPOT', 'RESTAURANT'],
      startDate: tripStart,
      peopleCount: 2,
      transportation: 'PUBLIC_TRANSIT',
    }),
  );
  const deadline = performance.now() + settings.timeoutMs;
  try {
    let t0 = performance.now();
    await inBatches(users, settings.batchSize, deadline, (user) => signUpAndPlan(api, user), 'login and create');
    const httpSetupMs = performance.now() - t0;
    await sleep(300);
    const beforeConnections = rssBytes(server.pid);

    let finished = 0;
    let allFinished!: () => void;
    const everyoneFinished = new Promise<void>((resolve) => (allFinished = resolve));
    let awaited = Number.POSITIVE_INFINITY;
    const onFinished = () => ++finished >= awaited && allFinished();
    t0 = performance.now();
    await inBatches(users, settings.batchSize, deadline, (user) => connectAndSubscribe(wsUrl(server.baseUrl), user, onFinished), 'connect and subscribe');
    const stompSetupMs = performance.now() - t0;
    await sleep(300);
    const withConnections = rssBytes(server.pid);
    const ready = users.filter((u) => !u.failure).length;
    settings.progress(
      `${settings.users} users: setup ${((httpSetupMs + stompSetupMs) / 1000).toFixed(1)} s (HTTP ${(httpSetupMs / 1000).toFixed(1)} s, STOMP ${(stompSetupMs / 1000).toFixed(1)} s), ${ready} ready; starting all`,
    );

    const runStarted = { wall: performance.now(), server: serversCpu(), client: process.cpuUsage() };
    // Every start POST is issued now; at most `httpSockets` are on the wire at once, the rest queue
    // in the agent. startedAt is taken when a POST is issued, so queueing counts against the server.
    await Promise.race([Promise.all(users.map((user) => startGeneration(api, user))), sleep(deadline - performance.now())]);
    awaited = users.filter((u) => !u.failure && u.startedAt !== undefined).length;
    if (finished >= awaited) allFinished();
    const timedOut = await Promise.race([everyoneFinished.then(() => false), sleep(deadline - performance.now()).then(() => true)]);
    const runWallSeconds = (performance.now() - runStarted.wall) / 1000;
    const serverCpu = serversCpu();
    const clientCpu = process.cpuUsage(runStarted.client);
    const afterRun = rssBytes(server.pid);

    const problems: string[] = [];
    let lost = 0;
    for (const user of users) {
      if (user.failure) problems.push(`${user.email}: ${user.failure}`);
      const check = checkGenerationSequence(user.received, tripDays, user.tripPlanId ?? -1);
      lost += check.lost;
      if (check.problems.length > 0 && !user.failure) problems.push(`${user.email}: ${check.problems.join('; ')}`);
      const offsetProblems = [user.planOffsets, user.chatOffsets].filter((q) => missingOffsets(q) + q.outOfOrder + q.malformed > 0);
      for (const q of offsetProblems)
        problems.push(`${user.email}: x-offset up to ${q.highest}, ${missingOffsets(q)} missing, ${q.outOfOrder} out of order, ${q.malformed} bad headers`);
      for (const error of user.errors) problems.push(`${user.email}: errors channel ${error.code} ${error.message}`);
    }
    const completedUsers = users.filter((u) => u.startedAt !== undefined && u.completedAt !== undefined);
    const firstStart = Math.min(...users.filter((u) => u.startedAt !== undefined).map((u) => u.startedAt!));
    const lastCompleted = Math.max(...completedUsers.map((u) => u.completedAt!));
    const deliveryMs = Float64Array.from(users.flatMap((u) => u.deliveriesMs)).sort();
    const sequences = users.flatMap((u) => [u.planOffsets, u.chatOffsets]);
    return {
      users: settings.users,
      deployment: settings.deployment,
      ready,
      completed: completedUsers.length,
      httpSetupMs,
      stompSetupMs,
      windowMs: completedUsers.length > 0 ? lastCompleted - firstStart : Number.NaN,
      frames: users.reduce((sum, u) => sum + u.frames, 0),
      latenciesMs: Float64Array.from(completedUsers.map((u) => u.completedAt! - u.startedAt!)).sort(),
      lost,
      offsetGaps: sequences.reduce((sum, s) => sum + missingOffsets(s), 0),
      outOfOrder: sequences.reduce((sum, s) => sum + s.outOfOrder, 0),
      badOffsetHeaders: sequences.reduce((sum, s) => sum + s.malformed, 0),
      deliveryMs,
      errorMessages: users.reduce((sum, u) => sum + u.errors.length, 0),
      timedOut,
      rss: { beforeConnections, withConnections, afterRun },
      cpuShare: {
        server: serverCpu !== null && runStarted.server !== null ? (serverCpu - runStarted.server) / runWallSeconds : null,
        client: (clientCpu.user + clientCpu.system) / 1e6 / runWallSeconds,
      },
      problems,
    };
  } finally {
    // Close the WebSockets before the server goes, bounded: a wedged close must not hang the run.
    await Promise.race([Promise.allSettled(users.flatMap((u) => (u.connection ? [u.connection.disconnect()] : []))), sleep(10_000)]);
    agent.destroy();
    await deployment.stop();
  }
}
