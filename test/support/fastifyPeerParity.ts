// The Fastify peer of the benchmarks (bench/peers/fastifyListServer.ts) answers what our server
// answers, on either engine (test/bench/fastifyPeerParity.test.ts on SQLite, .postgres.test.ts on
// PostgreSQL): on one seeded database with one JWT secret, its list pages (both orders, first and
// next page) and its plan detail are the same bytes as the built server's, and its errors carry the
// same status and code in an envelope openapi.yaml accepts. Otherwise the benchmark would compare
// our server with a peer doing less (or other) work.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationValidators } from '../../generated/validators.js';
import { createAuthService, createTokenSigner, loadConfig, openDatabasePort, type DatabasePort } from '../../src/index.js';
import { freshBuiltServer } from '../../bench/lib/builtServer.js';
import { startChildServer, type ChildServer } from '../../bench/lib/childServer.js';
import { deploymentEnv } from '../../bench/lib/deploymentEnv.js';
import { freePort } from '../../bench/lib/freePort.js';

/** One engine the suite runs on: where its database is, and how plans are inserted there in bulk. */
export interface ParityEngine {
  name: string;
  /** The service's DATABASE_URL (a SQLite file in `dir`, or a fresh PostgreSQL database) and how to remove it. */
  database(dir: string): Promise<{ url: string; drop(): Promise<void> }>;
  /** `count` plans (with chat rooms) of each member; returns each member's first plan id. */
  insertPlans(port: DatabasePort, plans: { memberId: number; count: number }[]): Promise<number[]>;
  /** The peer's settings naming the same database. */
  peerEnv(url: string): Record<string, string>;
}

export function describeFastifyPeerParity(engine: ParityEngine): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fastify-peer-'));
  let env: Record<string, string>;
  let dropDatabase = () => Promise.resolve();
  const tokens = { member: '', expired: '', loggedOut: '' };
  let othersPlanId = 0;
  let ownPlanId = 0;
  let ours: ChildServer;
  let peer: ChildServer;

  async function seed(): Promise<void> {
    const config = loadConfig(env);
    const port = await openDatabasePort(config.database);
    try {
      const signer = createTokenSigner(config.jwtSecret!, { access: config.accessTokenTtlSeconds, refresh: config.refreshTokenTtlSeconds });
      const clock = Date.now;
      const auth = createAuthService({
        db: port,
        signer,
        clock,
        accessTtlSeconds: config.accessTokenTtlSeconds,
        refreshTtlSeconds: config.refreshTokenTtlSeconds,
      });
      const member = await auth.signIn({ email: 'parity@example.com', provider: 'DEV' });
      const other = await auth.signIn({ email: 'other@example.com', provider: 'DEV' });
      const gone = await auth.signIn({ email: 'parity@example.com', provider: 'DEV' });
      await auth.logout({ memberId: gone.member.id, sessionId: gone.sessionId, role: 'MEMBER', expiresAt: Date.now() + 60_000 });
      tokens.member = member.tokens.accessToken;
      tokens.loggedOut = gone.tokens.accessToken;
      const hourAgo = Date.now() - 2 * config.accessTokenTtlSeconds * 1000;
      tokens.expired = (await signer.issue(member.member.id, member.sessionId, 'access', hourAgo)).token;
      const [own, others] = await engine.insertPlans(port, [
        { memberId: member.member.id, count: 45 },
        { memberId: other.member.id, count: 3 },
      ]);
      ownPlanId = own!;
      othersPlanId = others!;
    } finally {
      await port.close();
    }
  }

  beforeAll(async () => {
    const database = await engine.database(dir);
    dropDatabase = () => database.drop();
    env = deploymentEnv({ dataDir: dir, databaseUrl: database.url });
    await seed();
    const entry = freshBuiltServer(root);
    [ours, peer] = await Promise.all([
      freePort().then((port) => startChildServer({ entry, cwd: root, port, env, readyPath: '/readyz' })),
      freePort().then((port) =>
        startChildServer({
          entry: 'bench/peers/fastifyListServer.ts',
          cwd: root,
          port,
          env: { NODE_ENV: 'production', ...engine.peerEnv(env.DATABASE_URL!), JWT_SECRET: env.JWT_SECRET! },
          readyPath: '/readyz',
        }),
      ),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([ours?.stop(), peer?.stop()]);
    await dropDatabase();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function get(server: ChildServer, url: string, token: string | null = tokens.member) {
    const res = await fetch(`${server.baseUrl}${url}`, { headers: token === null ? {} : { Authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text(), requestId: res.headers.get('x-request-id'), cors: res.headers.get('access-control-allow-origin') };
  }

  async function bothAnswerAlike(url: string): Promise<string> {
    const [fromOurs, fromPeer] = await Promise.all([get(ours, url), get(peer, url)]);
    expect(fromOurs.status).toBe(200);
    expect(fromPeer.status).toBe(200);
    expect(fromPeer.text).toBe(fromOurs.text);
    expect(fromPeer.cors).toBe(fromOurs.cors);
    expect(fromPeer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    return fromOurs.text;
  }

  describe(`the Fastify peer of the list and detail routes on ${engine.name}`, () => {
    it('answers the same bytes as our server for both orders, first and next pages', async () => {
      for (const sort of ['', '&sort=startDate:asc']) {
        const first = JSON.parse(await bothAnswerAlike(`/api/v1/trips?size=20${sort}`)) as { data: { nextCursor: number; content: unknown[] } };
        expect(first.data.content).toHaveLength(20);
        await bothAnswerAlike(`/api/v1/trips?size=20${sort}&cursor=${first.data.nextCursor}`);
      }
    });

    it('answers the same bytes as our server for one plan', async () => {
      await bothAnswerAlike(`/api/v1/trips/${ownPlanId}`);
    });

    it('keeps a valid X-Request-Id of the caller', async () => {
      const res = await fetch(`${peer.baseUrl}/api/v1/trips?size=1`, {
        headers: { Authorization: `Bearer ${tokens.member}`, 'X-Request-Id': 'parity-check-1' },
      });
      expect(res.headers.get('x-request-id')).toBe('parity-check-1');
    });

    const failures: [string, string, () => string | null, number, string][] = [
      ['no token', '/api/v1/trips?size=20', () => null, 401, 'AUTH011'],
      ['an expired token', '/api/v1/trips?size=20', () => tokens.expired, 401, 'AUTH002'],
      ["a logged-out session's token", '/api/v1/trips?size=20', () => tokens.loggedOut, 401, 'AUTH001'],
      ['size=0', '/api/v1/trips?size=0', () => tokens.member, 400, 'COMMON001'],
      ['a cursor that is no plan of the caller', '/api/v1/trips?size=20&cursor=OTHERS', () => tokens.member, 400, 'COMMON001'],
      ['a cursor that is not a number', '/api/v1/trips?size=20&cursor=abc', () => tokens.member, 400, 'COMMON001'],
      ["another member's plan", '/api/v1/trips/OTHERS', () => tokens.member, 404, 'TRIP101'],
    ];
    it.each(failures)('refuses %s as our server does, in an error envelope of openapi.yaml', async (_what, template, token, status, code) => {
      const url = template.replace('OTHERS', String(othersPlanId));
      const operation = url.startsWith('/api/v1/trips?') ? 'listTripPlans' : 'getTripPlan';
      const [fromOurs, fromPeer] = await Promise.all([get(ours, url, token()), get(peer, url, token())]);
      for (const answer of [fromOurs, fromPeer]) {
        expect(answer.status).toBe(status);
        const body: unknown = JSON.parse(answer.text);
        expect(body).toMatchObject({ success: false, status, data: { code } });
        const validate = operationValidators[operation].responses[status]!;
        expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      }
    });
  });
}
