// The conformance runner's delivery phase as a CI job runs it against a scaled-out deployment: two
// server processes on one PostgreSQL database and one Redis, the runner's bin given both instances
// and two fault hooks, shell commands it runs mid-generation: after day 1 Redis is killed and
// started again empty (a restart without persistence), after day 2 the second instance is killed
// (kill -9). Every delivery guarantee must still hold (docs/conformance.md, "Delivery across
// instances and faults"). Time limits only bound a hang.
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformanceBin } from '../support/conformanceBin.js';
import { describeOnPostgresWithOwnRedis, freePort } from '../support/ownRedis.js';
import { freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { lineOf, spawnBuiltService } from '../support/serviceProcess.js';

const HANG_LIMIT_MS = 120_000;

describeOnPostgresWithOwnRedis(
  'the delivery phase against two instances, with Redis restarted and an instance killed mid-run',
  { timeout: 2 * HANG_LIMIT_MS },
  () => {
    let database: FreshPostgresDatabase;
    let redisPort: number;
    let pidFile: string;
    const instances: { url: string; child: ChildProcess }[] = [];
    // A Redis that a shell command can restart: daemonized, with a pid file (the hook is a plain command, as in a CI job).
    const redisCommand = () => `redis-server --port ${redisPort} --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --pidfile ${pidFile}`;
    const untilRedisAnswers = () => `until redis-cli -p ${redisPort} ping >/dev/null 2>&1; do sleep 0.05; done`;

    beforeAll(ensureFreshBuild, HANG_LIMIT_MS);
    beforeAll(async () => {
      redisPort = await freePort();
      pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-redis-')), 'redis.pid');
      expect(spawnSync('sh', ['-c', `${redisCommand()} && ${untilRedisAnswers()}`], { timeout: 10_000 }).status).toBe(0);
      database = await freshPostgresDatabase({ migrated: true });
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
        JWT_SECRET: 'delivery-under-faults-secret-0123456789abcdef',
        AUTH_DEV_LOGIN: 'true',
        PORT: '0',
        LOG_LEVEL: 'warn',
        PLANNER_DELAY_MS: '100',
        RATE_LIMIT_PER_MINUTE: '100000',
        GENERATION_TAKEOVER: 'resume',
        GENERATION_LEASE_MS: '2000',
        GENERATION_HEARTBEAT_MS: '400',
        GENERATION_SWEEP_MS: '250',
        GENERATION_POLL_MS: '100',
      };
      // Side by side: the database is migrated already.
      const children = [0, 1].map(() => spawnBuiltService({ ...env, LOG_LEVEL: 'info' }));
      try {
        const listening = await Promise.all(children.map((child) => lineOf(child, /"msg":"listening/, HANG_LIMIT_MS)));
        children.forEach((child, i) => instances.push({ url: `http://127.0.0.1:${(JSON.parse(listening[i]!) as { port: number }).port}`, child }));
      } catch (error) {
        for (const child of children) child.kill('SIGKILL');
        throw error;
      }
    });

    afterAll(async () => {
      for (const { child } of instances) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      spawnSync('sh', ['-c', `kill -9 $(cat ${pidFile}) 2>/dev/null`]);
      await database?.drop();
    });

    it('holds every guarantee: each follower gets every message once, in order, or is told; acknowledged concurrent swaps are all kept', async () => {
      const killed = new Promise<NodeJS.Signals | null>((resolve) => instances[1]!.child.once('exit', (_code, signal) => resolve(signal)));
      const run = await runConformanceBin(
        [
          ...instances.flatMap(({ url }) => ['--instance', url]),
          '--phases',
          'delivery',
          '--seed',
          '3',
          '--fault-hook',
          `after-day-1=kill -9 $(cat ${pidFile}) && sleep 0.3 && ${redisCommand()} && ${untilRedisAnswers()}`,
          '--fault-hook',
          `after-day-2=kill -9 ${instances[1]!.child.pid}`,
        ],
        HANG_LIMIT_MS,
      );
      expect(run.stdout, run.stderr).toMatch(/conformance: \d+ passed, 0 failed/);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/held +fault_hook +2 checks/);
      for (const check of ['delivery_once', 'delivery_gap', 'delivery_recovered', 'delivery_consistent', 'concurrent_writes'])
        expect(run.stdout).toMatch(new RegExp(`held +${check} `));
      expect(await killed).toBe('SIGKILL');
      // The faults reached the subscribers: connections were lost, and a replay after Redis lost its data said so.
      const [, lost, falseReceipts] =
        /\d+ subscribers, \d+ connections, (\d+) lost; replaying SUBSCRIBEs: \d+ x-recovered: true, (\d+) x-recovered: false/.exec(run.stdout) ?? [];
      expect(Number(lost), run.stdout).toBeGreaterThanOrEqual(2);
      expect(Number(falseReceipts), run.stdout).toBeGreaterThan(0);
    });
  },
);
