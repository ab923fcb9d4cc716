// Answers one matched operation from the spec: the lowest documented 2xx with its first example,
// unless the client's `Prefer` header asks for another documented status or named example. The body
// comes from openapi-backend's mockResponseForOperation; status, content type and required headers
// (e.g. `Location` on a 201) come from the same response object of the spec.
import type { Operation, OpenAPIBackend } from 'openapi-backend';
import type { MockPreference } from './preferHeader.js';
import { mediaOf, requiredHeaderExamples, responsesOf, type SpecResponse } from './specResponses.js';

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/** A mistake in the client's `Prefer` header, as RFC 9457 problem JSON so it is not mistaken for an API error. */
function preferProblem(detail: string): Response {
  const body = { type: 'about:blank', title: 'The mock cannot honour the Prefer header', status: 400, detail };
  return new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/problem+json' } });
}

function pickStatus(operationId: string, responses: Map<number, SpecResponse>, preference: MockPreference): number | Response {
  const documented = [...responses.keys()];
  if (preference.code !== undefined) {
    if (responses.has(preference.code)) return preference.code;
    return preferProblem(`${operationId} documents no ${preference.code} response; documented: ${documented.join(', ')}.`);
  }
  const success = documented.find((status) => status >= 200 && status < 300);
  if (success === undefined) return preferProblem(`${operationId} documents no 2xx response.`);
  const { example } = preference;
  if (example === undefined || mediaOf(responses.get(success)!)?.exampleNames.includes(example)) return success;
  // `Prefer: example=expiredToken` alone: the name is enough to find the (lowest) status that has it.
  const holder = documented.find((status) => mediaOf(responses.get(status)!)?.exampleNames.includes(example));
  return holder ?? preferProblem(`${operationId} has no example named "${example}".`);
}

export function mockResponse(api: OpenAPIBackend, operation: Operation, preference: MockPreference): Response {
  const operationId = operation.operationId!;
  const responses = responsesOf(operation);
  const status = pickStatus(operationId, responses, preference);
  if (status instanceof Response) return status;

  const response = responses.get(status)!;
  const headers = new Headers(requiredHeaderExamples(response));
  const media = mediaOf(response);
  if (!media) return new Response(null, { status, headers });

  const { example } = preference;
  if (example !== undefined && !media.exampleNames.includes(example)) {
    return preferProblem(`The ${status} response of ${operationId} has no example "${example}"; it has: ${media.exampleNames.join(', ')}.`);
  }
  const { mock } = api.mockResponseForOperation(operationId, { code: status, mediaType: media.type, ...(example !== undefined && { example }) });
  const json = isJson(media.type);
  headers.set('content-type', json ? media.type : `${media.type}; charset=utf-8`);
  const body = json || typeof mock !== 'string' ? JSON.stringify(mock) : mock;
  return new Response(body, { status, headers });
}
