// Answers one valid request from the spec: the lowest documented 2xx (or 3xx: the sign-in redirects)
// with its first example, unless
// the client's `Prefer` header asks for another documented status or named example (as Prism does).
// Every header the chosen response declares is sent with its example value (X-Request-Id and
// RateLimit-* are then overwritten by the middlewares with real ones) and `Location` is a real path.
import { errorTextLimits, truncateText } from '../../src/index.js';
import type { MockPreference } from './preferHeader.js';
import { createdLocation, type DocumentedResponse, type OperationAnswers } from './specAnswers.js';

export interface MockAnswer {
  status: number;
  /** null: no body */
  contentType: string | null;
  body: unknown;
  headers: Record<string, string>;
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/**
 * A mistake in a header only the mock reads (`Prefer`, `x-mock-fault`), as RFC 9457 problem JSON so
 * it is not mistaken for an API error. Bounded as the service bounds its error bodies: the detail
 * is cut like an error's `message`, and the client's text in it like a rejected value, so a huge
 * header is not echoed.
 */
export function mockProblem(header: string, detail: string): Response {
  const body = {
    type: 'about:blank',
    title: `The mock cannot honour the ${header} header`,
    status: 400,
    detail: truncateText(detail, errorTextLimits.message),
  };
  return new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/problem+json' } });
}

const preferProblem = (detail: string) => mockProblem('Prefer', detail);

/** What the client sent, as the problem's detail quotes it: cut like a rejected value of an error body. */
const clientText = (text: string) => truncateText(text, errorTextLimits.rejectedValue);

const exampleNames = (response: DocumentedResponse) => response.examples.map((e) => e.name);

function pickStatus(operationId: string, responses: Map<number, DocumentedResponse>, preference: MockPreference): number | Response {
  const documented = [...responses.keys()];
  if (preference.code !== undefined) {
    if (responses.has(preference.code)) return preference.code;
    return preferProblem(`${operationId} documents no ${preference.code} response; documented: ${documented.join(', ')}.`);
  }
  const success = documented.find((status) => status >= 200 && status < 400);
  if (success === undefined) return preferProblem(`${operationId} documents no 2xx or 3xx response.`);
  const { example } = preference;
  if (example === undefined || exampleNames(responses.get(success)!).includes(example)) return success;
  // `Prefer: example=expiredToken` alone: the name is enough to find the (lowest) status that has it.
  const holder = documented.find((status) => exampleNames(responses.get(status)!).includes(example));
  return holder ?? preferProblem(`${operationId} has no example named "${clientText(example)}".`);
}

export function mockAnswer(answers: OperationAnswers, all: Iterable<OperationAnswers>, preference: MockPreference): MockAnswer | Response {
  const { operation, responses } = answers;
  const status = pickStatus(operation.operationId, responses, preference);
  if (status instanceof Response) return status;
  const response = responses.get(status)!;
  const headers = { ...response.headerExamples };
  if (response.contentType === null) return { status, contentType: null, body: undefined, headers };

  const { example: wanted } = preference;
  const example = wanted === undefined ? response.examples[0] : response.examples.find((e) => e.name === wanted);
  if (!example) {
    return preferProblem(
      `The ${status} response of ${operation.operationId} has no example "${clientText(String(wanted))}"; it has: ${exampleNames(response).join(', ') || 'none'}.`,
    );
  }
  if ('Location' in headers) {
    const location = createdLocation(all, operation, example.value);
    if (location) headers.Location = location;
  }
  const contentType = isJson(response.contentType) ? response.contentType : `${response.contentType}; charset=utf-8`;
  return { status, contentType, body: example.value, headers };
}
