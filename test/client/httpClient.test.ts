// The client's typed operations against the real server: each answer is a Result (the envelope's
// data, or the ErrorResponse with its typed code), never a thrown status; tokens from a sign-in are
// kept and sent; the URL is built from the spec's template and query style; no answer at all rejects.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createHttpClient, operationTable, type HttpErrorCode, type RetryEvent } from '../../client/src/index.js';
import { requestUrl } from '../../client/src/http/requestUrl.js';
import { readOperations, readYaml } from '../../conformance/specModel/index.js';
import { openapiPath } from '../../codegen/specFiles.js';
import { startOidcHarness } from '../support/oidcHarness.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { signedInClient, watchedClient } from './httpTestClient.js';

const trip = { themes: ['FAMOUS_SPOT' as const], startDate: '2026-12-24', duration: 2, region: 'Busan', peopleCount: 2 };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe('typed operations', () => {
  it('has one function per operation of openapi.yaml', () => {
    const operationIds = readOperations(readYaml(openapiPath)).map((op) => op.operationId);
    const { client } = watchedClient(server.url);
    expect(Object.keys(client.operations)).toEqual(operationIds);
    expect(Object.keys(operationTable)).toEqual(operationIds);
  });

  it('signs in, keeps the token pair, sends it, and returns each success data as the envelope carries it', async () => {
    const { client, sent, issued } = await signedInClient(server, 'typed@example.com');
    expect(issued).toHaveLength(1);
    expect(await client.accessToken()).toBe(issued[0]!.accessToken);

    // transportation has a spec default: the body may leave it out.
    const created = await client.operations.createTripPlanSession({ body: trip });
    if (!created.ok) throw new Error(`createTripPlanSession: ${created.status}`);
    expect(created.status).toBe(201);
    expectTypeOf(created.data.tripPlanId).toEqualTypeOf<number>();

    const plan = await client.operations.getTripPlan({ path: { tripPlanId: created.data.tripPlanId } });
    expect(plan).toMatchObject({ ok: true, status: 200, data: { tripPlanId: created.data.tripPlanId, region: 'Busan', transportation: 'PUBLIC_TRANSIT' } });
    expect(plan.headers.get('x-request-id')).toBeTruthy();

    const me = await client.call('getMe', {});
    expect(me.ok && me.data.email).toBe('typed@example.com');
    expect(sent.map((r) => `${r.method} ${r.target} ${r.status}`)).toEqual([
      'POST /api/v1/auth/dev-login 200',
      'POST /api/v1/trips 201',
      `GET /api/v1/trips/${created.data.tripPlanId} 200`,
      'GET /api/v1/members/me 200',
    ]);

    const deleted = await client.operations.deleteTripPlan({ path: { tripPlanId: created.data.tripPlanId } });
    expect([deleted.ok, deleted.status, deleted.ok && deleted.data]).toEqual([true, 204, undefined]);
  });

  it('returns an error status as a Result whose ErrorResponse code is typed', async () => {
    const { client } = await signedInClient(server, 'errors@example.com');
    const missing = await client.operations.getTripPlan({ path: { tripPlanId: 999_999 } });
    expect(missing.ok).toBe(false);
    if (missing.ok) return;
    expectTypeOf(missing.error!.code).toEqualTypeOf<HttpErrorCode>();
    expect([missing.status, missing.error?.code]).toEqual([404, 'TRIP101']);

    const refused = await client.operations.createTripPlanSession({ body: { ...trip, region: 'Atlantis' } });
    expect(refused).toMatchObject({ ok: false, status: 400, error: { code: 'TRIP107', path: '/api/v1/trips' } });

    const invalid = await client.operations.createTripPlanSession({ body: { ...trip, duration: 0 } });
    expect(invalid).toMatchObject({ ok: false, status: 400, error: { code: 'COMMON001', errors: [expect.objectContaining({ field: 'body.duration' })] } });
  });

  it('sends no token to an unsecured operation, and a secured one without a token gets its 401 as a Result', async () => {
    const { client, sent } = watchedClient(server.url);
    const regions = await client.operations.listRegions();
    expect(regions.ok && regions.data.regions.length).toBeGreaterThan(0);
    const anonymous = await client.operations.getMe();
    expect(anonymous).toMatchObject({ ok: false, status: 401, error: { code: 'AUTH011' } });
    expect(sent).toHaveLength(2);
    await expect(client.accessToken()).rejects.toThrow(/no access token/);
  });

  it('reads a non-JSON success as its text', async () => {
    const { client } = watchedClient(server.url);
    const document = await client.operations.getOpenApiDocument();
    expect(document.ok && document.data).toMatch(/^openapi: 3\.1\.0$/m);
  });

  it('returns a redirect the spec documents as the answer, not the page it points to', async () => {
    const harness = await startOidcHarness();
    const withOidc = await startTestServer(harness.env);
    try {
      const { client, sent } = watchedClient(withOidc.url);
      const signIn = await client.operations.startOidcSignIn({ query: { returnTo: '/app' } });
      expect([signIn.ok, signIn.status, signIn.ok && signIn.data]).toEqual([true, 302, undefined]);
      expect(signIn.headers.get('location')).toMatch(new RegExp(`^${harness.idp.issuer}/.*[?&]code_challenge_method=S256`));
      expect(sent).toHaveLength(1);
    } finally {
      await withOidc.stop();
      await harness.stop();
    }
  });

  it('fills the path template with encoded values and writes the query as form style, one value each', () => {
    const { client } = watchedClient(`${server.url}/`);
    expect(client.url('listTripPlans', { query: { size: 10, sort: 'startDate:asc' } })).toBe(`${server.url}/api/v1/trips?size=10&sort=startDate%3Aasc`);
    expect(client.url('startOidcSignIn', { query: { returnTo: '/app?tab=trips & more' } })).toBe(
      `${server.url}/api/v1/auth/oidc/login?returnTo=%2Fapp%3Ftab%3Dtrips+%26+more`,
    );
    const entry = { ...operationTable.getTripPlan, path: '/things/{name}/parts/{part}', pathParams: ['name', 'part'] };
    expect(requestUrl('https://api.example.com/prefix', entry, { path: { name: 'a/b c?', part: 7 } })).toBe(
      'https://api.example.com/prefix/things/a%2Fb%20c%3F/parts/7',
    );
  });

  it('rejects, with what was tried, when no answer comes: a GET after its attempts, a POST after one', async () => {
    const retries: RetryEvent[] = [];
    const client = createHttpClient({ baseUrl: 'http://127.0.0.1:1', retry: { attempts: 3, maxDelayMs: 1, onRetry: (event) => retries.push(event) } });
    await expect(client.operations.listRegions()).rejects.toThrow(
      /^listRegions: no answer from GET http:\/\/127\.0\.0\.1:1\/api\/v1\/regions after 3 attempt\(s\): /,
    );
    expect(retries.map((r) => [r.attempt, r.status])).toEqual([
      [1, null],
      [2, null],
    ]);
    await expect(client.operations.devLogin({ body: { email: 'x@example.com' } })).rejects.toThrow(/after 1 attempt\(s\) \(a POST is not sent again/);
  });

  it('checks inputs at compile time', () => {
    const { client } = watchedClient(server.url);
    // Never called: tsc (npm run typecheck) checks these lines.
    const wrongInputs = () => [
      // @ts-expect-error the path parameter is an integer
      client.operations.getTripPlan({ path: { tripPlanId: 'seven' } }),
      // @ts-expect-error the path is required
      client.operations.getTripPlan({}),
      // @ts-expect-error an unknown body field
      client.operations.devLogin({ body: { email: 'a@example.com', role: 'ADMIN' } }),
      // @ts-expect-error not a paged list
      client.pages('getMe', {}),
      // @ts-expect-error no such operation
      client.call('getEverything', {}),
    ];
    expect(typeof wrongInputs).toBe('function');
  });
});
