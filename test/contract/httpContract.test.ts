// Replays specs/openapi.yaml against the running app. Every response any test here produces is
// checked three ways: the app's own strict response validation (generated validators), the status
// and content-type documented for the operation, and openapi-backend's validateResponse as a second
// opinion. At the end, a coverage report lists every (operation, documented status) pair; the suite
// fails if one was never produced, except the allow-list below, each with its reason.
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt, jsonText, readOperations, readYaml, type OperationFact } from '../../conformance/specModel/index.js';
import { Hono } from 'hono';
import type { Handlers } from '../../generated/operations.js';
import { routes } from '../../generated/routes.js';
import type { App } from '../../src/composition/app.js';
import { storageUnavailable } from '../../src/db/storageFailure.js';
import { handleErrors } from '../../src/http/errorHandlers.js';
import type { HttpEnv } from '../../src/http/httpEnv.js';
import { useMiddlewareStack } from '../../src/http/middlewareStack.js';
import { registerOperations } from '../../src/http/operationRouter.js';
import type { RequestContext } from '../../src/kernel/requestContext.js';
import { fillTemplate, mapPlaceholders } from '../../src/text/fillTemplate.js';
import { startOidcHarness, type OidcHarness } from '../support/oidcHarness.js';
import { heldPlanner } from '../support/plannerStubs.js';
import { scriptedBrowser, type ScriptedBrowser } from '../support/scriptedBrowser.js';
import { createSecondOpinion, type SecondOpinion } from '../support/secondOpinion.js';
import { bodyOf, errorCodeOf, errorOf } from '../support/responseBody.js';
import { seedItinerary } from '../support/seedItinerary.js';
import { busanTrip, startTestApp, type TestApp, type TestAppOptions, type TestResponse } from '../support/testApp.js';
import { getFrom, holdConnection, requestFrom } from '../support/rawConnections.js';
import { startTestServer } from '../support/testServer.js';

const spec = readYaml(path.resolve(import.meta.dirname, '../../specs/openapi.yaml'));
const operations = readOperations(spec);
const byId = new Map(operations.map((op) => [op.operationId, op]));

const allowList: Record<string, string> = {
  'getMe 404':
    'a member is deleted with its sessions (ON DELETE CASCADE), so its token fails with 401 before getMe runs; documented for compatibility with the original service',
  'getMyName 404': 'same as getMe 404',
};

const produced = new Map<string, number>();
const apps: TestApp[] = [];
let secondOpinion: SecondOpinion;

function observe(operationId: string | null, res: TestResponse): void {
  if (!operationId) return;
  const op = byId.get(operationId)!;
  const documented = op.responses.find((r) => r.status === res.status);
  expect(documented, `${operationId} answered undocumented status ${res.status}: ${res.text}`).toBeDefined();
  const contentType = res.headers.get('content-type');
  if (documented!.contentType === null) expect(res.text, `${operationId} ${res.status} must have no body`).toBe('');
  else expect(contentType ?? '', `${operationId} ${res.status} content-type`).toContain(documented!.contentType);
  for (const header of documented!.requiredHeaders) expect(res.headers.has(header), `${operationId} ${res.status} lacks ${header}`).toBe(true);
  if (documented!.contentType) expect(secondOpinion.validate(operationId, res.status, res.body), `${operationId} ${res.status} (openapi-backend)`).toEqual([]);
  const key = `${operationId} ${res.status}`;
  produced.set(key, (produced.get(key) ?? 0) + 1);
}

async function newApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const app = await startTestApp(env, { observe, ...options });
  apps.push(app);
  return app;
}

/**
 * The app's HTTP stack (middleware, every operation, error handlers) on its own services, with
 * handlers that all fail the same way: what a client gets when a handler fails, for every operation.
 */
function everyHandlerFails(failure: () => never): TestAppOptions['front'] {
  return (app: App) => {
    const { config, log, auth } = app.services;
    const handlers = Object.fromEntries(routes.map((r) => [r.operationId, failure])) as unknown as Handlers<RequestContext>;
    const disabled = new Set<never>();
    const http = new Hono<HttpEnv>();
    useMiddlewareStack(http, config, log);
    registerOperations(http, { handlers, authenticate: (authorization) => auth.authenticate(authorization), checker: app.checker, disabled });
    handleErrors(http, { log, checker: app.checker, disabled, storageUnavailable });
    return http;
  };
}

/** A concrete path for an operation, with its path parameters filled in. */
function pathOf(op: OperationFact, values: Record<string, number | string>): string {
  return fillTemplate(op.path, values);
}

/** The local OpenID Connect provider the main app signs in with (test/auth/oidcSignIn.test.ts has the flows). */
let oidc: OidcHarness;

beforeAll(async () => {
  secondOpinion = await createSecondOpinion();
  oidc = await startOidcHarness();
});

afterAll(async () => {
  for (const app of apps) {
    expect(app.app.checker.violations, 'responses that broke the spec (strict mode)').toEqual([]);
    await app.close();
  }
  await oidc.stop();
});

/** A browser whose requests to the service go through `t.request`, so every response is observed. */
function observedBrowser(t: TestApp): ScriptedBrowser {
  return scriptedBrowser(oidc.origin, async (pathAndQuery, init) => {
    const res = await t.request(init.method, pathAndQuery, { headers: init.headers, rawBody: init.body });
    return new Response(res.status === 204 ? null : res.text, { status: res.status, headers: res.headers });
  });
}

/** The redirect back from the provider for `login`, opened: the callback's response. */
async function completedSignIn(t: TestApp, login: string, change?: (callback: URL) => URL): Promise<Response> {
  const browser = observedBrowser(t);
  const callback = await browser.signInAtProvider(login);
  return browser.open(change ? change(callback) : callback);
}

describe('the spec replayed against the app', () => {
  let t: TestApp;
  let member: { accessToken: string; refreshToken: string };
  let other: { accessToken: string; refreshToken: string };
  let admin: { accessToken: string; refreshToken: string };
  let plan: { tripPlanId: number; chatRoomId: number };
  let otherPlan: { tripPlanId: number; chatRoomId: number };
  let promptId: number;

  beforeAll(async () => {
    // Generations stay running until cancelled, so cancel and the 409s are reachable.
    t = await newApp(oidc.env, { planner: heldPlanner() });
    member = await t.signIn('traveller@example.com', 'Min-ji');
    other = await t.signIn('someone.else@example.com');
    admin = await t.signInAdmin('admin@example.com');
    plan = bodyOf(await t.request('POST', '/api/v1/trips', { token: member.accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
    otherPlan = bodyOf(await t.request('POST', '/api/v1/trips', { token: other.accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
    await seedItinerary(t.app.services.db, plan.tripPlanId, busanTrip.startDate, 3);
    promptId = bodyOf(
      await t.request('POST', '/api/v1/admin/prompts', {
        token: admin.accessToken,
        body: { promptType: 'USER', agentType: 'CHAT_AGENT', prompt: 'Answer briefly.' },
      }),
      'createPromptTemplate',
      201,
    ).data.id;
  });

  const ids = () => ({ tripPlanId: plan.tripPlanId, chatRoomId: plan.chatRoomId, promptId, dayNumber: 1 });

  describe('every request-body example is accepted', () => {
    const cases = operations.flatMap((op) => (op.body?.examples ?? []).map((ex) => [op.operationId, ex.name, ex.value] as const));
    it.each(cases)('%s "%s"', async (operationId, _name, example) => {
      const op = byId.get(operationId)!;
      const body = structuredClone(example) as Record<string, unknown>;
      if ('chatRoomId' in body) body.chatRoomId = plan.chatRoomId; // the example's 42 is someone else's room here
      const token = op.requiredRole ? admin.accessToken : member.accessToken;
      const res = await t.request(op.method.toUpperCase(), pathOf(op, ids()), { token: op.secured ? token : undefined, body });
      const success = op.responses.find((r) => r.status < 400)!.status;
      if (operationId === 'reissueToken') {
        // The example token is not signed by this server: the documented answer is 401 AUTH004.
        expect([res.status, errorCodeOf(res)]).toEqual([401, 'AUTH004']);
      } else if (operationId === 'exchangeOidcSignInCode') {
        // Nor is the example's one-time code one of its sign-ins: 400 AUTH027.
        expect([res.status, errorCodeOf(res)]).toEqual([400, 'AUTH027']);
      } else {
        expect(res.status, res.text).toBe(success);
      }
    });
  });

  describe('every operation answers its documented success with valid parameters', () => {
    it.each(operations.map((op) => op.operationId))('%s', async (operationId) => {
      const op = byId.get(operationId)!;
      const success = op.responses.find((r) => r.status < 400)!.status;
      const token = op.requiredRole ? admin.accessToken : member.accessToken;
      let body: unknown;
      if (op.body) body = structuredClone(op.body.examples[0]!.value);
      if (operationId === 'swapScheduledPlaces') body = { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 3 };
      if (operationId === 'reissueToken') body = { refreshToken: member.refreshToken };
      if (operationId === 'startOidcSignIn') {
        const res = await t.request('GET', '/api/v1/auth/oidc/login', { query: { returnTo: '/' } });
        expect(res.status, res.text).toBe(302);
        expect(res.headers.get('location')).toMatch(new RegExp(`^${oidc.idp.issuer}/`));
        return;
      }
      if (operationId === 'completeOidcSignIn' || operationId === 'exchangeOidcSignInCode') {
        const browser = observedBrowser(t);
        const done = await browser.open(await browser.signInAtProvider('alice'));
        expect(done.status).toBe(302);
        const code = new URLSearchParams(new URL(done.headers.get('location')!).hash.slice(1)).get('oidcCode')!;
        const res = await browser.exchange(code);
        expect(res.status, await res.text()).toBe(200);
        return;
      }
      if (operationId === 'deleteTripPlan') {
        const fresh = bodyOf(await t.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
        expect((await t.request('DELETE', `/api/v1/trips/${fresh.tripPlanId}`, { token })).status).toBe(204);
        expect((await t.request('GET', `/api/v1/trips/${fresh.tripPlanId}`, { token })).status).toBe(404);
        return;
      }
      if (operationId === 'deletePromptTemplate') {
        const fresh = bodyOf(
          await t.request('POST', '/api/v1/admin/prompts', { token, body: { promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'Plan carefully.' } }),
          'createPromptTemplate',
          201,
        ).data;
        expect((await t.request('DELETE', `/api/v1/admin/prompts/${fresh.id}`, { token })).status).toBe(204);
        return;
      }
      if (operationId === 'logout') {
        const leaving = await t.signIn('leaving@example.com');
        expect((await t.request('POST', '/api/v1/auth/logout', { token: leaving.accessToken })).status).toBe(204);
        return;
      }
      if (operationId === 'startTripPlanGeneration') {
        const fresh = bodyOf(await t.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
        const res = await t.request('POST', `/api/v1/trips/${fresh.tripPlanId}`, { token });
        expect(res.status, res.text).toBe(200);
        return;
      }
      if (operationId === 'cancelTripPlanGeneration') {
        const fresh = bodyOf(await t.request('POST', '/api/v1/trips', { token, body: busanTrip }), 'createTripPlanSession', 201).data;
        await t.request('POST', `/api/v1/trips/${fresh.tripPlanId}`, { token });
        const res = await t.request('POST', `/api/v1/trips/${fresh.tripPlanId}/cancel`, { token });
        expect(res.status, res.text).toBe(200);
        return;
      }
      const query = Object.fromEntries(
        op.parameters
          .filter((p) => p.in === 'query' && p.name !== 'cursor')
          .map((p) => [
            p.name,
            jsonText(
              jsonAt(
                spec,
                'components',
                'parameters',
                p.name === 'size' ? (operationId === 'listChatMessages' ? 'ChatPageSize' : 'TripPageSize') : 'TripSort',
                'example',
              ),
            ),
          ]),
      );
      const res = await t.request(op.method.toUpperCase(), pathOf(op, ids()), { token: op.secured ? token : undefined, body, query });
      expect(res.status, res.text).toBe(success);
      if (operationId === 'createTripPlanSession') {
        const location = res.headers.get('location')!;
        expect((await t.request('GET', location, { token })).status).toBe(200);
      }
    });
  });

  describe('errors documented per operation', () => {
    const secured = operations.filter((op) => op.secured);
    it.each(secured.map((op) => op.operationId))('%s: 401 without a token and with a garbage token', async (operationId) => {
      const op = byId.get(operationId)!;
      const url = pathOf(op, ids());
      const body = op.body?.examples[0]?.value;
      const missing = await t.request(op.method.toUpperCase(), url, { body });
      expect([missing.status, errorCodeOf(missing)]).toEqual([401, 'AUTH011']);
      const garbage = await t.request(op.method.toUpperCase(), url, { body, token: 'not.a.jwt' });
      expect([garbage.status, errorCodeOf(garbage)]).toEqual([401, 'AUTH001']);
    });

    const withBadRequest = operations.filter((op) => op.responses.some((r) => r.status === 400));
    it.each(withBadRequest.map((op) => op.operationId))('%s: 400 for input outside the schema', async (operationId) => {
      const op = byId.get(operationId)!;
      const token = op.requiredRole ? admin.accessToken : member.accessToken;
      const pathParams = op.parameters.filter((p) => p.in === 'path');
      let res: TestResponse;
      if (pathParams.length > 0) {
        res = await t.request(op.method.toUpperCase(), pathOf(op, { ...ids(), [pathParams[0]!.name]: 0 }), {
          token: op.secured ? token : undefined,
          body: op.body?.examples[0]?.value,
        });
        expect(errorOf(res).errors?.[0]?.field).toBe(`path.${pathParams[0]!.name}`);
      } else if (operationId === 'startOidcSignIn' || operationId === 'completeOidcSignIn') {
        const name = operationId === 'startOidcSignIn' ? 'returnTo' : 'state';
        res = await t.request('GET', pathOf(op, ids()), { query: { [name]: '' } });
        expect(errorOf(res).errors).toEqual([{ field: `query.${name}`, rejectedValue: '', message: 'must NOT have fewer than 1 characters' }]);
      } else if (op.body) {
        res = await t.request(op.method.toUpperCase(), pathOf(op, ids()), {
          token: op.secured ? token : undefined,
          rawBody: '{"oops":',
          headers: { 'content-type': 'application/json' },
        });
        expect(errorCodeOf(res)).toBe('COMMON002');
      } else {
        res = await t.request(op.method.toUpperCase(), pathOf(op, ids()), { token, query: { size: 0 } });
        expect(errorOf(res).errors).toEqual([{ field: 'query.size', rejectedValue: 0, message: 'must be >= 1' }]);
      }
      expect(res.status).toBe(400);
    });

    const tripScoped = operations.filter((op) => op.parameters.some((p) => p.name === 'tripPlanId' || p.name === 'chatRoomId'));
    it.each(tripScoped.map((op) => op.operationId))("%s: 404 on another member's plan or room, never 403", async (operationId) => {
      const op = byId.get(operationId)!;
      const example = op.body?.examples[0]?.value as Record<string, unknown> | undefined;
      const body = example && 'chatRoomId' in example ? { ...example, chatRoomId: otherPlan.chatRoomId } : example;
      const res = await t.request(op.method.toUpperCase(), pathOf(op, { ...otherPlan, dayNumber: 1 }), { token: member.accessToken, body });
      expect(res.status).toBe(404);
      expect(['TRIP101', 'CHAT301']).toContain(errorCodeOf(res));
    });

    const adminOnly = operations.filter((op) => op.requiredRole === 'ADMIN');
    it.each(adminOnly.map((op) => op.operationId))('%s: 403 for a member without the ADMIN role', async (operationId) => {
      const op = byId.get(operationId)!;
      const res = await t.request(op.method.toUpperCase(), pathOf(op, ids()), { token: member.accessToken, body: op.body?.examples[0]?.value });
      expect([res.status, errorCodeOf(res)]).toEqual([403, 'COMMON403']);
    });

    it.each(['getPromptTemplate', 'updatePromptTemplate', 'deletePromptTemplate'])('%s: 404 AI005 for an unknown template', async (operationId) => {
      const op = byId.get(operationId)!;
      const res = await t.request(op.method.toUpperCase(), pathOf(op, { promptId: 999_999 }), { token: admin.accessToken, body: op.body?.examples[0]?.value });
      expect([res.status, errorCodeOf(res)]).toEqual([404, 'AI005']);
    });

    it('completeOidcSignIn: 400 AUTH022 for another state, 401 AUTH026 when the person declines, 403 AUTH025 for an unverified e-mail', async () => {
      const forged = await completedSignIn(t, 'alice', (callback) => {
        callback.searchParams.set('state', 'forged');
        return callback;
      });
      expect(forged.status).toBe(400);
      const declined = await completedSignIn(t, 'alice', (callback) => {
        callback.searchParams.delete('code');
        callback.searchParams.set('error', 'access_denied');
        return callback;
      });
      expect(declined.status).toBe(401);
      expect((await completedSignIn(t, 'bob')).status).toBe(403);
    });

    it('swapScheduledPlaces: 404 TRIP103 for a missing day and TRIP104 for a missing stop', async () => {
      const day = await t.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/9/scheduled-places`, {
        token: member.accessToken,
        body: { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 2 },
      });
      expect([day.status, errorCodeOf(day)]).toEqual([404, 'TRIP103']);
      const stop = await t.request('PATCH', `/api/v1/trips/${plan.tripPlanId}/daily-plans/1/scheduled-places`, {
        token: member.accessToken,
        body: { chatRoomId: plan.chatRoomId, visitOrderA: 1, visitOrderB: 9 },
      });
      expect([stop.status, errorCodeOf(stop)]).toEqual([404, 'TRIP104']);
    });

    it('startTripPlanGeneration and cancelTripPlanGeneration: 409 TRIP106 in the wrong state', async () => {
      const fresh = bodyOf(await t.request('POST', '/api/v1/trips', { token: member.accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
      const cancel = await t.request('POST', `/api/v1/trips/${fresh.tripPlanId}/cancel`, { token: member.accessToken });
      expect([cancel.status, errorCodeOf(cancel)]).toEqual([409, 'TRIP106']);
      await t.request('POST', `/api/v1/trips/${fresh.tripPlanId}`, { token: member.accessToken });
      const again = await t.request('POST', `/api/v1/trips/${fresh.tripPlanId}`, { token: member.accessToken });
      expect([again.status, errorCodeOf(again)]).toEqual([409, 'TRIP106']);
    });

    it('swapScheduledPlaces: 409 TRIP106 while the plan is generating', async () => {
      const running = bodyOf(await t.request('POST', '/api/v1/trips', { token: member.accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
      expect((await t.request('POST', `/api/v1/trips/${running.tripPlanId}`, { token: member.accessToken })).status).toBe(200);
      const swap = await t.request('PATCH', `/api/v1/trips/${running.tripPlanId}/daily-plans/1/scheduled-places`, {
        token: member.accessToken,
        body: { chatRoomId: running.chatRoomId, visitOrderA: 1, visitOrderB: 2 },
      });
      expect([swap.status, errorCodeOf(swap)]).toEqual([409, 'TRIP106']);
    });

    const withBody = operations.filter((op) => op.body);
    it.each(withBody.map((op) => op.operationId))('%s: 413 for a body over 1 MiB', async (operationId) => {
      const op = byId.get(operationId)!;
      const res = await t.request(op.method.toUpperCase(), pathOf(op, ids()), {
        token: member.accessToken,
        rawBody: JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      expect([res.status, errorCodeOf(res)]).toEqual([413, 'COMMON413']);
    });
  });
});

describe('statuses that need a differently configured app', () => {
  it('every operation: 429 COMMON429 with Retry-After past the rate limit', async () => {
    const limited = await newApp({ RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY_HOPS: '1' });
    for (const [i, route] of routes.entries()) {
      const url = mapPlaceholders(route.path, () => '1');
      // A client address per operation: its first request is answered as without the limit.
      const headers = { 'x-forwarded-for': `198.51.100.${i + 1}` };
      await limited.request(route.method, url, { headers });
      const res = await limited.request(route.method, url, { headers });
      expect([res.status, errorCodeOf(res)], route.operationId).toEqual([429, 'COMMON429']);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('every operation: 500 COMMON500 without internals when a handler fails', async () => {
    const broken = await newApp(
      {},
      {
        front: everyHandlerFails(() => {
          throw new Error('SQLITE_CORRUPT: secret internals at /srv/app.ts:12');
        }),
      },
    );
    const admin = await broken.signInAdmin('admin@example.com');
    for (const route of routes) {
      const op = byId.get(route.operationId)!;
      const res = await broken.request(route.method, pathOf(op, { tripPlanId: 1, chatRoomId: 1, promptId: 1, dayNumber: 1 }), {
        token: admin.accessToken,
        body: op.body?.examples[0]?.value,
      });
      expect([res.status, errorCodeOf(res)], route.operationId).toEqual([500, 'COMMON500']);
      expect(res.text).not.toMatch(/SQLITE|secret|\.ts/);
    }
  });

  it('every operation that writes: 503 COMMON503 with Retry-After when the storage cannot take the write', async () => {
    // The same error better-sqlite3 throws on a full disk; test/db/storageFailures.test.ts makes the disk fail for real.
    const full = () => {
      throw new BetterSqlite3.SqliteError('database or disk is full', 'SQLITE_FULL');
    };
    // Their 503 is the storage's (the others' is the connection cap's, produced below with a real server).
    const writers = operations.filter((op) => op.responses.some((r) => r.status === 503 && r.examples.some((e) => e.name === 'storageFull')));
    const broken = await newApp({}, { front: everyHandlerFails(full) });
    const admin = await broken.signInAdmin('admin@example.com');
    for (const op of writers) {
      const res = await broken.request(op.method.toUpperCase(), pathOf(op, { tripPlanId: 1, chatRoomId: 1, promptId: 1, dayNumber: 1 }), {
        token: op.secured ? admin.accessToken : undefined,
        body: op.body?.examples[0]?.value,
      });
      expect([res.status, errorCodeOf(res)], op.operationId).toEqual([503, 'COMMON503']);
      expect(Number(res.headers.get('retry-after')), op.operationId).toBeGreaterThan(0);
    }
    expect(writers.length).toBeGreaterThanOrEqual(12);
  });

  it('every operation but the probes: 503 COMMON503 with Retry-After while the instance holds MAX_CONNECTIONS connections', async () => {
    const busy = await startTestServer({ MAX_CONNECTIONS: '1' }, { observe });
    try {
      const held = await holdConnection(busy.server.port);
      // Answered once the server counted the held connection: a probe is served beyond the cap.
      expect((await getFrom(busy.server.port, '/healthz')).status).toBe(200);
      const probes = new Set(['getHealth', 'getReadiness', 'getMetrics']);
      for (const op of operations.filter((o) => !probes.has(o.operationId))) {
        const body = op.body ? JSON.stringify(op.body.examples[0]?.value ?? {}) : undefined;
        const path = pathOf(op, { tripPlanId: 1, chatRoomId: 1, promptId: 1, dayNumber: 1 });
        const raw = await requestFrom(busy.server.port, op.method.toUpperCase(), path, { body, headers: body ? { 'content-type': 'application/json' } : {} });
        const res: TestResponse = {
          ...raw,
          headers: new Headers(raw.headers as Record<string, string>),
          body: JSON.parse(raw.body) as unknown,
          text: raw.body,
          operationId: op.operationId,
        };
        observe(op.operationId, res);
        expect([res.status, errorCodeOf(res), res.headers.get('retry-after')], op.operationId).toEqual([503, 'COMMON503', '5']);
      }
      held.socket.destroy();
    } finally {
      await busy.stop();
    }
  });

  it('getReadiness: 503 COMMON503 when the database is gone', async () => {
    const app = await newApp();
    expect((await app.request('GET', '/readyz')).status).toBe(200);
    await app.app.services.db.close();
    const res = await app.request('GET', '/readyz');
    expect([res.status, errorCodeOf(res)]).toEqual([503, 'COMMON503']);
  });

  it('getMetrics: 401 AUTH028 without the METRICS_TOKEN, 404 COMMON404 on a non-loopback HOST without one', async () => {
    const guarded = await newApp({ METRICS_TOKEN: 'metrics-token-0123456789' });
    expect(errorCodeOf(await guarded.request('GET', '/metrics', { token: 'another-token-0123456789' }))).toBe('AUTH028');
    const exposed = await newApp({ HOST: '0.0.0.0' });
    const res = await exposed.request('GET', '/metrics');
    expect([res.status, errorCodeOf(res)]).toEqual([404, 'COMMON404']);
  });

  it('devLogin: 404 COMMON404 when AUTH_DEV_LOGIN is off', async () => {
    const app = await newApp({ AUTH_DEV_LOGIN: 'false' });
    const res = await app.request('POST', '/api/v1/auth/dev-login', { body: { email: 'a@example.com' } });
    expect([res.status, errorCodeOf(res)]).toEqual([404, 'COMMON404']);
  });
});

describe('coverage of (operation, documented status)', () => {
  it('produced every pair, or the pair is allow-listed with a reason', () => {
    const rows = operations.flatMap((op) => op.responses.map((r) => `${op.operationId} ${r.status}`));
    const report = rows.map(
      (key) =>
        `${produced.has(key) ? `produced ×${String(produced.get(key)).padEnd(4)}` : allowList[key] ? 'allow-listed  ' : 'MISSING       '} ${key}${allowList[key] ? `  (${allowList[key]})` : ''}`,
    );
    process.stdout.write(
      `\nHTTP contract coverage (${rows.filter((k) => produced.has(k)).length}/${rows.length} produced, ${Object.keys(allowList).length} allow-listed):\n${report.join('\n')}\n`,
    );
    expect(rows.filter((key) => !produced.has(key) && !allowList[key])).toEqual([]);
    expect(
      Object.keys(allowList).filter((key) => produced.has(key)),
      'allow-listed pairs that are produced after all',
    ).toEqual([]);
  });
});
