// Response bodies with the spec's types: a test names the operation and the status it expects, this
// checks both and hands back the body as the generated type of that response. The test app
// validates every response against openapi.yaml (RESPONSE_VALIDATION=strict), so a body that got
// here as a documented status has that status's shape.
import type { components, operations } from '../../generated/openapi.js';
import type { OperationId } from '../../generated/operations.js';
import type { TestResponse } from './testApp.js';

type Responses<K extends OperationId> = operations[K]['responses'];
export type DocumentedStatus<K extends OperationId> = keyof Responses<K> & number;
export type ResponseBody<K extends OperationId, S extends DocumentedStatus<K>> = Responses<K>[S] extends { content: { 'application/json': infer Body } }
  ? Body
  : never;

export function bodyOf<K extends OperationId, S extends DocumentedStatus<K>>(response: TestResponse<unknown>, operationId: K, status: S): ResponseBody<K, S> {
  if (response.operationId !== operationId || response.status !== status) {
    throw new Error(`expected ${operationId} ${status}, got ${response.operationId ?? 'no operation'} ${response.status}: ${response.text.slice(0, 300)}`);
  }
  return response.body as ResponseBody<K, S>;
}

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

/** The `data` of an error response (every documented 4xx and 5xx body is an ErrorEnvelope). */
export function errorOf(response: TestResponse<unknown>): ErrorEnvelope['data'] {
  if (response.status < 400) throw new Error(`expected an error response, got ${response.status}: ${response.text.slice(0, 300)}`);
  return (response.body as ErrorEnvelope).data;
}

/** The `data.code` of an error response. */
export const errorCodeOf = (response: TestResponse<unknown>): ErrorEnvelope['data']['code'] => errorOf(response).code;
