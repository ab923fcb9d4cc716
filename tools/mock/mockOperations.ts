// The HTTP half of the mock: every operation of the generated route table, checked the way the
// service checks it (a bearer token on secured operations; path, query and body through the same
// generated validators and error builder: 400 COMMON001 with `errors`, COMMON002), then answered
// from the spec's examples (mockResponse.ts). `answered` lets the real-time half react to a
// start, cancel, delete or swap the mock has just answered.
import type { Hono } from 'hono';
import { routes } from '../../generated/routes.js';
import type { OperationId } from '../../generated/operations.js';
import { type HttpEnv, readValidRequest } from '../../src/index.js';
import type { MockAuth } from './mockAuth.js';
import { mockAnswer } from './mockResponse.js';
import { parsePrefer } from './preferHeader.js';
import type { OperationAnswers } from './specAnswers.js';

export interface AnsweredRequest {
  operationId: OperationId;
  status: number;
  path: Record<string, unknown>;
  body: unknown;
}

export function registerMockOperations(
  app: Hono<HttpEnv>,
  deps: { answers: Map<string, OperationAnswers>; auth: MockAuth; answered: (request: AnsweredRequest) => void },
): void {
  for (const route of routes) {
    const answers = deps.answers.get(route.operationId);
    if (!answers) throw new Error(`${route.operationId} is in generated/routes.ts but not in openapi.yaml: run npm run codegen`);
    app.on(route.method, route.honoPath, async (c) => {
      c.set('route', route);
      // Any well-formed bearer token is a signed-in ADMIN: the mock has no accounts to check.
      if (route.secured) deps.auth.authenticate(c.req.header('authorization'));
      const request = await readValidRequest(c, route);
      const answer = mockAnswer(answers, deps.answers.values(), parsePrefer(c.req.header('prefer')));
      if (answer instanceof Response) return answer;
      deps.answered({ operationId: route.operationId, status: answer.status, path: request.path, body: request.body });
      if (answer.contentType === null) return c.body(null, answer.status as 204, answer.headers);
      const text = answer.contentType.includes('json') || typeof answer.body !== 'string' ? JSON.stringify(answer.body) : answer.body;
      return c.body(text, answer.status as 200, { ...answer.headers, 'content-type': answer.contentType });
    });
  }
}
