// Sends one HTTP request to the server under test and applies the checks every response gets:
// not a 5xx, status documented for the operation, content type documented, body valid against the
// documented schema, required headers present and every documented header's value valid against
// its schema, what the envelope says beyond its schema (envelopeChecks.ts), body within the size
// limit. Failures carry a curl line to replay them.
import { checkEnvelope } from './envelopeChecks.js';
import { checkHeaderValues } from './headerValues.js';
import { mediaTypeSatisfies } from './mediaType.js';
import { BodyTooLargeError, jsonAt, readTextWithin, type Json } from '../specModel/index.js';
import type { PhaseRecorder } from './checks.js';
import type { SchemaProblem, SchemaVerdict } from './sandbox/sandbox.js';
import type { SpecIndex } from './specIndex.js';

export interface ProbeRequest {
  operationId: string;
  method: string;
  /** concrete path, parameters filled in */
  path: string;
  query?: Record<string, string>;
  /** sent as is instead of `query`, e.g. with a repeated name */
  rawQuery?: string;
  token?: string | null;
  body?: unknown;
  /** sent as is instead of JSON-encoding `body` */
  rawBody?: string;
  contentType?: string;
  /** request headers beyond Authorization and Content-Type */
  headers?: Record<string, string>;
  /** the run's seed, when the request was generated from it (the replay line says so) */
  seed?: number;
}

export interface ProbeResponse {
  status: number;
  headers: Headers;
  text: string;
  /** the parsed body when its content type is JSON and it parses */
  json: Json | undefined;
  /** set when the body was over the target's maxBodyBytes (text is then empty): what was refused */
  oversized?: string;
}

/** The start of the body for a message, or what was refused when it was over the limit. */
export const excerpt = (response: ProbeResponse, characters: number): string => response.oversized ?? response.text.slice(0, characters);

/** What the envelope's `data` holds under a path (e.g. `dataAt(res, 'code')`), or undefined. */
export const dataAt = (response: ProbeResponse, ...path: (string | number)[]): Json | undefined => jsonAt(response.json, 'data', ...path);

export interface HttpTarget {
  baseUrl: string;
  /** the longest a request may take, its whole body read */
  timeoutMs: number;
  /** the largest body read (default 4 MiB); a longer one is not read on */
  maxBodyBytes?: number;
}

/** The largest response body (and STOMP frame) the runner reads unless told otherwise: 4 MiB. */
export const defaultMaxBodyBytes = 4 * 1024 * 1024;

/** The response's text and JSON, or what was refused when the body is over the limit. */
export async function readProbeBody(res: Response, maxBytes: number): Promise<Pick<ProbeResponse, 'text' | 'json' | 'oversized'>> {
  let text: string;
  try {
    text = await readTextWithin(res, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { text: '', json: undefined, oversized: error.message };
    throw error;
  }
  return { text, json: parseJsonBody(res.headers.get('content-type'), text) };
}

/** The body as JSON when the content type says JSON and it parses; else undefined. */
export function parseJsonBody(contentType: string | null, text: string): Json | undefined {
  if (!(contentType ?? '').includes('json')) return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

function urlOf(target: HttpTarget, request: ProbeRequest): string {
  const query =
    request.rawQuery !== undefined
      ? `?${request.rawQuery}`
      : request.query && Object.keys(request.query).length > 0
        ? `?${new URLSearchParams(request.query).toString()}`
        : '';
  return `${target.baseUrl.replace(/\/$/, '')}${request.path}${query}`;
}

function bodyOf(request: ProbeRequest): string | undefined {
  if (request.rawBody !== undefined) return request.rawBody;
  return request.body === undefined ? undefined : JSON.stringify(request.body);
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlOf(target: HttpTarget, request: ProbeRequest): string {
  const parts = ['curl', '-i', '-X', request.method, shellQuote(urlOf(target, request))];
  if (request.token) parts.push('-H', shellQuote(`Authorization: Bearer ${request.token}`));
  for (const [name, value] of Object.entries(request.headers ?? {})) parts.push('-H', shellQuote(`${name}: ${value}`));
  const body = bodyOf(request);
  if (body !== undefined) {
    parts.push('-H', shellQuote(`Content-Type: ${request.contentType ?? 'application/json'}`));
    parts.push('--data-raw', shellQuote(body.length > 2000 ? `${body.slice(0, 2000)}…(${body.length} bytes)` : body));
  }
  if (request.seed !== undefined) parts.push(`# generated with --seed ${request.seed}`);
  return parts.join(' ');
}

/** Sends the request; a 429 with a short Retry-After is waited out and retried (up to 3 times). */
export async function send(target: HttpTarget, request: ProbeRequest): Promise<ProbeResponse> {
  for (let attempt = 1; ; attempt++) {
    const response = await sendOnce(target, request);
    const retryAfter = Number(response.headers.get('retry-after'));
    if (response.status !== 429 || attempt > 3 || !(retryAfter > 0 && retryAfter <= 120)) return response;
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
  }
}

async function sendOnce(target: HttpTarget, request: ProbeRequest): Promise<ProbeResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  const body = bodyOf(request);
  if (body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
  // The signal bounds the whole exchange, the body's last byte included. A redirect is an answer to
  // check against the spec (the sign-in's 302), not an address to follow: its Location may name a
  // host the runner cannot or must not reach.
  const res = await fetch(urlOf(target, request), { method: request.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(target.timeoutMs) });
  return { status: res.status, headers: res.headers, ...(await readProbeBody(res, target.maxBodyBytes ?? defaultMaxBodyBytes)) };
}

const problemText = ({ instancePath, message, params }: SchemaProblem) =>
  `${instancePath || '/'} ${message}${'additionalProperty' in params ? ` (${String(params.additionalProperty)})` : ''}${'unevaluatedProperty' in params ? ` (${String(params.unevaluatedProperty)})` : ''}`;

/** Why a body is not valid against the schema of its status. */
function bodyProblem(status: number, verdict: SchemaVerdict | undefined): string {
  if (verdict === undefined) return 'the body is not JSON';
  if (verdict.undecided !== undefined) return `the ${status} body was not checked: ${verdict.undecided}`;
  return `body does not match the ${status} schema: ${verdict.problems.slice(0, 5).map(problemText).join('; ')}`;
}

/** The checks of every response. Returns false when any failed. */
export function checkResponse(recorder: PhaseRecorder, spec: SpecIndex, target: HttpTarget, request: ProbeRequest, response: ProbeResponse): boolean {
  const replay = curlOf(target, request);
  const id = request.operationId;
  let ok = recorder.check(response.status < 500, 'not_5xx', id, `answered ${response.status}: ${excerpt(response, 300)}`, replay);
  const documented = spec.operation(id).responses.find((r) => r.status === response.status);
  const code = response.status >= 400 ? jsonAt(response.json, 'data', 'code') : undefined;
  if (documented)
    recorder.observe({
      kind: 'response',
      operationId: id,
      status: response.status,
      headers: [...response.headers.keys()],
      code: typeof code === 'string' ? code : undefined,
    });
  ok = recorder.check(Boolean(documented), 'status_documented', id, `status ${response.status} is not documented for ${id}`, replay) && ok;
  ok = recorder.check(response.oversized === undefined, 'response_size', id, `status ${response.status}: ${response.oversized}`, replay) && ok;
  if (!documented) return false;
  const contentType = response.headers.get('content-type');
  if (documented.contentType === null) {
    ok =
      recorder.check(
        response.text === '' && response.oversized === undefined,
        'content_type',
        id,
        `status ${response.status} must have no body, got ${response.oversized === undefined ? `${response.text.length} bytes` : 'one over the limit'}`,
        replay,
      ) && ok;
  } else {
    ok =
      recorder.check(
        mediaTypeSatisfies(contentType, documented.contentType),
        'content_type',
        id,
        `content-type "${contentType}" is not the documented ${documented.contentType}`,
        replay,
      ) && ok;
    const validate = spec.responseValidator(id, response.status);
    // A body over the limit was not read: response_size has said what there is to say about it.
    if (validate && response.oversized === undefined) {
      const value = documented.contentType.includes('json') ? response.json : response.text;
      const verdict = value === undefined ? undefined : validate(value);
      ok = recorder.check(verdict?.valid === true, 'body_valid', id, bodyProblem(response.status, verdict), replay) && ok;
    }
    if (documented.contentType.includes('json')) ok = checkEnvelope(recorder, spec, documented, response, replay, id) && ok;
  }
  const missing = documented.requiredHeaders.filter((h) => !response.headers.has(h));
  ok = recorder.check(missing.length === 0, 'required_headers', id, `missing required header(s) ${missing.join(', ')}`, replay) && ok;
  ok = checkHeaderValues(recorder, spec, documented, response, replay, id) && ok;
  return ok;
}
