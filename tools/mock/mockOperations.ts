// The HTTP half of the mock: every operation of the generated route table but the documents and
// docs pages (mockDocuments.ts), checked the way the service checks it (a bearer token on secured
// operations; path, query and body through the same generated validators and error builder: 400
// COMMON001 with `errors`, COMMON002), then answered from the spec's examples (mockResponse.ts),
// a list's page by the mock's paging rule (mockPaging.ts); or refused first with a 429 or 503 the
// client asked for (httpFaults.ts). `answered` lets the real-time half react to a start, cancel,
// delete or swap the mock has just answered.
import type { Context, Hono } from 'hono';
import { routes } from '../../generated/routes.js';
import type { OperationId } from '../../generated/operations.js';
import { type HttpEnv, readValidRequest } from '../../src/index.js';
import { FAULT_HEADER } from './faultHeader.js';
import type { FaultUses } from './faultUses.js';
import { httpFaultOf } from './httpFaults.js';
import type { MockAuth } from './mockAuth.js';
import { pageOf } from './mockPaging.js';
import { mockAnswer, mockProblem, type MockAnswer } from './mockResponse.js';
import { parsePrefer } from './preferHeader.js';
import type { OperationAnswers } from './specAnswers.js';

export interface AnsweredRequest {
  operationId: OperationId;
  status: number;
  path: Record<string, unknown>;
  body: unknown;
  /** x-mock-fault new-epoch-after of a start: its run begins a new epoch after that many messages */
  newEpochAfter?: number;
}

/** The answer as sent: `body` in place of the example's (a page, mockPaging.ts), headers added. */
function send(c: Context, answer: MockAnswer, body: unknown, headers: Record<string, string> = {}): Response {
  if (answer.contentType === null) return c.body(null, answer.status as 204, { ...answer.headers, ...headers });
  const text = answer.contentType.includes('json') || typeof body !== 'string' ? JSON.stringify(body) : body;
  return c.body(text, answer.status as 200, { ...answer.headers, ...headers, 'content-type': answer.contentType });
}

export function registerMockOperations(
  app: Hono<HttpEnv>,
  deps: {
    answers: Map<string, OperationAnswers>;
    auth: MockAuth;
    answered: (request: AnsweredRequest) => void;
    /** operations answered by the service's own handlers (mockDocuments.ts), not from examples */
    served: ReadonlySet<OperationId>;
    faultUses: FaultUses;
  },
): void {
  for (const route of routes) {
    if (deps.served.has(route.operationId)) continue;
    const answers = deps.answers.get(route.operationId);
    if (!answers) throw new Error(`${route.operationId} is in generated/routes.ts but not in openapi.yaml: run npm run codegen`);
    app.on(route.method, route.honoPath, async (c) => {
      c.set('route', route);
      const fault = httpFaultOf(c.req.header(FAULT_HEADER), answers.operation, deps.faultUses);
      if ('problem' in fault) return mockProblem(FAULT_HEADER, fault.problem);
      if ('status' in fault) {
        const refusal = mockAnswer(answers, deps.answers.values(), { code: fault.status });
        return refusal instanceof Response ? refusal : send(c, refusal, refusal.body, { 'Retry-After': String(fault.retryAfter) });
      }
      // Any well-formed bearer token is a signed-in ADMIN: the mock has no accounts to check.
      if (route.secured) deps.auth.authenticate(c.req.header('authorization'));
      const request = await readValidRequest(c, route);
      const preference = parsePrefer(c.req.header('prefer'));
      const answer = mockAnswer(answers, deps.answers.values(), preference);
      if (answer instanceof Response) return answer;
      deps.answered({ operationId: route.operationId, status: answer.status, path: request.path, body: request.body, ...fault });
      // A page the client asked for by its example or status is that example, cursor or not.
      const byDefault = preference.code === undefined && preference.example === undefined;
      return send(c, answer, byDefault && answer.status === 200 ? pageOf(answers.operation.paging, request.query, answer.body) : answer.body);
    });
  }
}
