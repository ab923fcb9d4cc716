// openapi.yaml keeps every operation clients rely on with its exact operationId, method, path and
// success status. The table below is that acceptance list, written once: renaming or moving an
// operation in the spec fails here before it breaks a client (a new operation joins the list).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonAt, jsonText, readOperations, readYaml, type Json } from '../../conformance/specModel/index.js';
import { valueAtPointer } from '../../src/text/jsonPointer.js';

const contract: [operationId: string, method: string, path: string, success: number][] = [
  ['listTripPlans', 'get', '/api/v1/trips', 200],
  ['createTripPlanSession', 'post', '/api/v1/trips', 201],
  ['getTripPlan', 'get', '/api/v1/trips/{tripPlanId}', 200],
  ['startTripPlanGeneration', 'post', '/api/v1/trips/{tripPlanId}', 200],
  ['cancelTripPlanGeneration', 'post', '/api/v1/trips/{tripPlanId}/cancel', 200],
  ['updateTripPlanTitle', 'patch', '/api/v1/trips/{tripPlanId}', 204],
  ['deleteTripPlan', 'delete', '/api/v1/trips/{tripPlanId}', 204],
  ['listDailyPlans', 'get', '/api/v1/trips/daily-plans/{tripPlanId}', 200],
  ['swapScheduledPlaces', 'patch', '/api/v1/trips/{tripPlanId}/daily-plans/{dayNumber}/scheduled-places', 204],
  // Added after the original interface: the regions the planner supports, so an unknown region is
  // refused up front.
  ['listRegions', 'get', '/api/v1/regions', 200],
  ['devLogin', 'post', '/api/v1/auth/dev-login', 200],
  ['reissueToken', 'post', '/api/v1/auth/reissue', 200],
  ['logout', 'post', '/api/v1/auth/logout', 204],
  // Added after the original interface: OpenID Connect sign-in (authorization code + PKCE).
  ['startOidcSignIn', 'get', '/api/v1/auth/oidc/login', 302],
  ['completeOidcSignIn', 'get', '/api/v1/auth/oidc/callback', 302],
  ['exchangeOidcSignInCode', 'post', '/api/v1/auth/oidc/token', 200],
  ['getMe', 'get', '/api/v1/members/me', 200],
  ['getMyName', 'get', '/api/v1/members/me/name', 200],
  ['listChatMessages', 'get', '/api/v1/chats/{chatRoomId}/messages', 200],
  ['listPromptTemplates', 'get', '/api/v1/admin/prompts', 200],
  ['getPromptTemplate', 'get', '/api/v1/admin/prompts/{promptId}', 200],
  ['createPromptTemplate', 'post', '/api/v1/admin/prompts', 201],
  ['updatePromptTemplate', 'patch', '/api/v1/admin/prompts/{promptId}', 200],
  ['deletePromptTemplate', 'delete', '/api/v1/admin/prompts/{promptId}', 204],
  ['getLandingPage', 'get', '/', 200],
  ['getHealth', 'get', '/healthz', 200],
  ['getReadiness', 'get', '/readyz', 200],
  // Added after the original interface: Prometheus metrics (its own bearer token, METRICS_TOKEN,
  // not an access token).
  ['getMetrics', 'get', '/metrics', 200],
  ['getOpenApiDocument', 'get', '/openapi.yaml', 200],
  ['getAsyncApiDocument', 'get', '/asyncapi.yaml', 200],
  ['getApiDocs', 'get', '/docs', 200],
  ['getAsyncApiDocs', 'get', '/docs/asyncapi', 200],
  // Added after the original interface: live charts of /metrics.
  ['getMetricsDashboard', 'get', '/docs/dashboard', 200],
  // Added after the original interface: the client package in a page, to try the flow by hand.
  ['getPlayground', 'get', '/docs/playground', 200],
];

const spec = readYaml(path.resolve(import.meta.dirname, '../../specs/openapi.yaml'));
const operations = readOperations(spec);

describe('openapi.yaml against the accepted operations', () => {
  it.each(contract)('%s is %s %s answering %i', (operationId, method, route, success) => {
    const op = operations.find((o) => o.operationId === operationId);
    expect(op, `${operationId} missing`).toBeDefined();
    expect([op!.method, op!.path]).toEqual([method, route]);
    expect(op!.responses.filter((r) => r.status < 400).map((r) => r.status)).toEqual([success]);
  });

  it('has no operation the list does not name', () => {
    expect(operations.map((o) => o.operationId).sort()).toEqual(contract.map(([id]) => id).sort());
  });

  it('documents 401 on every secured operation, 500 everywhere, and public ones are explicit', () => {
    for (const op of operations) {
      const statuses = op.responses.map((r) => r.status);
      if (op.secured) expect(statuses, op.operationId).toContain(401);
      expect(statuses, op.operationId).toContain(500);
    }
    expect(operations.filter((o) => !o.secured).map((o) => o.operationId).sort()).toEqual(
      [
        'completeOidcSignIn',
        'devLogin',
        'exchangeOidcSignInCode',
        'getApiDocs',
        'getAsyncApiDocs',
        'getAsyncApiDocument',
        'getHealth',
        'getLandingPage',
        'getMetrics',
        'getMetricsDashboard',
        'getOpenApiDocument',
        'getPlayground',
        'getReadiness',
        'listRegions',
        'reissueToken',
        'startOidcSignIn',
      ],
    );
  });

  it('closes every request body schema (unknown fields are rejected)', () => {
    for (const op of operations.filter((o) => o.body)) {
      const ref = jsonText(jsonAt(op.body!.schema, '$ref'));
      expect(jsonAt(valueAtPointer(spec, ref) as Json, 'additionalProperties'), ref).toBe(false);
    }
  });
});
