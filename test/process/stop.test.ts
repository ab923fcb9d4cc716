// The service stops on SIGTERM or SIGINT in every case, and `npm start`
// passes the signal on. The real entry runs as a child process. Time limits only bound a hang (the
// service's own limit is 10 s); no test asserts how fast it stopped.
import { jsonAt } from '../../conformance/specModel/index.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { busanTrip } from '../support/testApp.js';
import { connectStomp, wsUrl } from '../support/stompTestClient.js';
import { exitOf, lineOf, repoRoot, serviceEnv, spawnBuiltService, spawnService } from '../support/serviceProcess.js';

const HANG_LIMIT_MS = 60_000;
/** Twice the service's own stop limit (10 s): a process still there then hangs. */
const STOP_DEADLINE_MS = 20_000;
// `npm start` runs dist/: built again first when a source is newer.
beforeAll(ensureFreshBuild, 2 * HANG_LIMIT_MS);
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-stop-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const portOf = (listening: string): number => JSON.parse(listening).port as number;

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  return res.json();
}

describe('stop', { timeout: 4 * HANG_LIMIT_MS }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s stops the service while nobody reads its stdout (LOG_LEVEL=trace, a full pipe)', async (signal) => {
    const child = spawnService({ DATA_DIR: tempDir(), PORT: '0', LOG_LEVEL: 'trace' });
    cleanups.push(() => child.kill('SIGKILL'));
    const port = portOf(await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS));
    // From here on nobody reads stdout: the pipe fills up (64 KiB) and stays full.
    child.stdout!.pause();
    child.stdout!.removeAllListeners('data');
    for (let i = 0; i < 1000; i++) await (await fetch(`http://127.0.0.1:${port}/healthz`)).arrayBuffer();
    // Still serving with the pipe full.
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
    child.kill(signal);
    const outcome = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), HANG_LIMIT_MS).unref())]);
    expect(outcome).toEqual({ code: 0, signal: null });
  });

  it('SIGTERM stops the compiled service while nobody reads its stdout and about 4 MB of 8 KB log lines wait for it', async () => {
    // What npm start runs. The sources run through tsx, which opens stdout for itself and so hid the hang.
    const child = spawn(process.execPath, ['dist/server/main.js'], {
      cwd: repoRoot,
      env: serviceEnv({ DATA_DIR: tempDir(), PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    const port = portOf(await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS));
    child.stdout.pause();
    child.stdout.removeAllListeners('data');
    // A request's log line names its path: 8 KB paths make 8 KB lines, 500 of them about 4 MB.
    const longPath = `/${'x'.repeat(8000)}`;
    for (let i = 0; i < 500; i++) await (await fetch(`http://127.0.0.1:${port}${longPath}${i}`)).arrayBuffer();

    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
    child.kill('SIGTERM');
    // The service's own bound is 10 s; this only tells an exit from a hang.
    const outcome = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), STOP_DEADLINE_MS).unref())]);
    expect(outcome).toEqual({ code: 0, signal: null });
  });

  it('npm start passes SIGTERM on: the server stops and no process of it remains', async () => {
    const npm = spawn('npm', ['start'], {
      cwd: repoRoot,
      env: serviceEnv({ DATA_DIR: tempDir(), PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const group = npm.pid!;
    const alive = () => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    };
    cleanups.push(() => alive() && process.kill(-group, 'SIGKILL'));
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await lineOf(npm, /"msg":"listening/, HANG_LIMIT_MS);

    const npmExit = exitOf(npm, HANG_LIMIT_MS);
    npm.kill('SIGTERM'); // npm only, not its process group
    await npmExit;
    for (let waited = 0; alive() && waited < HANG_LIMIT_MS; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(), 'a process of npm start is still running').toBe(false);
    expect(output).toMatch(/"msg":"stopped"/);
  });

  it('generations in flight or queued get AI002 on their errors channel before the connection closes, and are saved FAILED', async () => {
    const dir = tempDir();
    // The offline planner pauses a minute between summary chunks, so day 1 is saved and the run is still going.
    const child = spawnBuiltService({ DATA_DIR: dir, PORT: '0', PLANNER_DELAY_MS: '60000', GENERATION_CONCURRENCY: '1' });
    cleanups.push(() => child.kill('SIGKILL'));
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${portOf(await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS))}`;
    const exit = exitOf(child, HANG_LIMIT_MS);

    const token = (await json(`${url}/api/v1/auth/dev-login`, { method: 'POST', body: JSON.stringify({ email: 'stopper@example.com' }) })).data.accessToken;
    const auth = { authorization: `Bearer ${token}` };
    const running = (await json(`${url}/api/v1/trips`, { method: 'POST', headers: auth, body: JSON.stringify(busanTrip) })).data;
    const queued = (await json(`${url}/api/v1/trips`, { method: 'POST', headers: auth, body: JSON.stringify(busanTrip) })).data;
    const client = await connectStomp(wsUrl(url), token);
    cleanups.push(() => client.disconnect());
    for (const plan of [running, queued]) {
      await client.subscribe(`/user/sub/schedule/${plan.tripPlanId}`);
      await client.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
      expect((await json(`${url}/api/v1/trips/${plan.tripPlanId}`, { method: 'POST', headers: auth })).data.message).toBeDefined();
    }
    await client.waitFor((m) => jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED' && jsonAt(m.body, 'tripPlanId') === running.tripPlanId, HANG_LIMIT_MS);

    child.kill('SIGTERM');
    const failures = await Promise.all(
      [running, queued].map((plan) =>
        client.waitFor((m) => m.destination === `/user/sub/errors/${plan.chatRoomId}` && jsonAt(m.body, 'code') === 'AI002', HANG_LIMIT_MS),
      ),
    );
    expect(failures.map((m) => jsonAt(m.body, 'message'))).toEqual([expect.stringMatching(/service stopped/), expect.stringMatching(/service stopped/)]);
    expect((await exit).code, output).toBe(0);

    const db = new BetterSqlite3(path.join(dir, 'trip-itinerary.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT id, generation_status AS status, failure_code AS failure FROM trip_plan ORDER BY id').all();
    const days = db.prepare('SELECT count(*) AS n FROM daily_plan WHERE trip_plan_id = ?').get(running.tripPlanId) as { n: number };
    db.close();
    expect(rows).toEqual([
      { id: running.tripPlanId, status: 'FAILED', failure: 'AI002' },
      { id: queued.tripPlanId, status: 'FAILED', failure: 'AI002' },
    ]);
    expect(days.n, 'the day saved before the stop stays').toBe(1);
  });
});
