// What the HTTP operators share: which operation a request is, and the small rewrites of a
// response (its envelope's data, a header, the whole answer) that their bugs are made of.
import type { Mutation, ProxyRequest, ProxyResponse } from '../mutation.js';

type JsonObject = Record<string, unknown>;

/** The request's path without its query. */
export const pathOf = (request: ProxyRequest): string => request.path.split('?')[0]!;

/** The request's query parameters. */
export const queryOf = (request: ProxyRequest): URLSearchParams => new URLSearchParams(request.path.split('?')[1] ?? '');

/** Whether the request is `method` on a path matching `path` (the whole path, query left out). */
export const isRequest = (request: ProxyRequest, method: string, path: RegExp): boolean => request.method === method && path.test(pathOf(request));

/** A header's value (the first, when repeated). */
export function headerValue(message: ProxyRequest | ProxyResponse, name: string): string | undefined {
  const value = message.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The message with headers set (undefined removes one). */
export const withHeaders = <T extends ProxyRequest | ProxyResponse>(message: T, headers: Record<string, string | undefined>): T => ({
  ...message,
  headers: { ...message.headers, ...headers },
});

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body as a JSON object, or undefined when it is not one. */
export function jsonObjectOf(message: ProxyRequest | ProxyResponse): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(message.body.toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The message with `value` as its JSON body. */
export const withJson = <T extends ProxyRequest | ProxyResponse>(message: T, value: unknown): T => ({
  ...withHeaders(message, { 'content-type': 'application/json' }),
  body: Buffer.from(JSON.stringify(value), 'utf8'),
});

/** The envelope's `data` when it is an object. */
export function dataOf(response: ProxyResponse): JsonObject | undefined {
  const data = jsonObjectOf(response)?.data;
  return isObject(data) ? data : undefined;
}

/** The response with its envelope's `data` object replaced by `change(data)`; undefined when it has none. */
export function withData(response: ProxyResponse, change: (data: JsonObject) => JsonObject): ProxyResponse | undefined {
  const envelope = jsonObjectOf(response);
  const data = envelope?.data;
  return isObject(data) ? withJson(response, { ...envelope, data: change(data) }) : undefined;
}

/** The response at another status, its envelope's `status` repeating it as the specs say. */
export function withStatus(response: ProxyResponse, status: number): ProxyResponse {
  const envelope = jsonObjectOf(response);
  return envelope && 'status' in envelope ? withJson({ ...response, status }, { ...envelope, status }) : { ...response, status };
}

/** An error envelope as the specs write one (ErrorEnvelope), at `status` with `code`. */
export function errorAnswer(request: ProxyRequest, status: number, code: string, message: string): ProxyResponse {
  const body = {
    success: false,
    status,
    data: { timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), code, message, path: pathOf(request), errors: null },
  };
  return { status, headers: { 'content-type': 'application/json', 'x-request-id': 'mutated-answer' }, body: Buffer.from(JSON.stringify(body), 'utf8') };
}

/** A mutation that rewrites the responses to requests `matches` picks (`rewrite` returns undefined to leave one alone). */
export const rewriteResponses = (
  matches: (request: ProxyRequest, response: ProxyResponse) => boolean,
  rewrite: (response: ProxyResponse, request: ProxyRequest) => ProxyResponse | undefined,
): (() => Mutation) => {
  return () => ({ response: (response, request) => (matches(request, response) ? rewrite(response, request) : undefined) });
};

/** A path of the trip plans (`/api/v1/trips/42`, `/api/v1/trips/42/...`) and its plan id. */
export const tripPlanIdIn = (path: string): number | undefined => {
  const match = /^\/api\/v1\/trips\/(?:daily-plans\/)?(\d+)(?:\/|$)/.exec(path);
  return match ? Number(match[1]) : undefined;
};

/** The code of an error envelope. */
export const errorCodeOf = (response: ProxyResponse): unknown => dataOf(response)?.code;
