// Phase "robustness": hostile inputs a client can send without signing in as anyone special, each
// with the answer the spec documents for it (openapi.yaml, info.description and BadRequest):
// oversized arrays and strings get a 4xx with a small body, error bodies stay within 4 KiB,
// impossible dates and deep JSON are 400, prototype keys and encoded dot segments in static paths
// are 404, non-canonical integer parameters and repeated query parameters are 400, and a region the
// planner does not support is 400 TRIP107. Sizes are bounded (`robustnessBounds`) so that a server
// that fails these checks is not harmed by them.
import {
  arrayOrEmpty,
  jsonAt,
  jsonText,
  numberOrUndefined,
  objectOrEmpty,
  resolveObject,
  type Json,
  type JsonObject,
  type OperationFact,
} from '../../specModel/index.js';
import { PhaseRecorder, type CheckName } from '../checks.js';
import { curlOf, dataAt, excerpt, send, type ProbeRequest, type ProbeResponse } from '../httpProbe.js';
import { getRawPath } from '../rawPath.js';
import { createTripPlan, exampleRequest, pathFor, sendChecked, type RunContext } from '../runContext.js';

export const robustnessBounds = {
  arrayItems: 10_000,
  stringBytes: 64 * 1024,
  /** query strings travel in the request line, which servers and proxies cap at 8 KiB or so */
  queryValueBytes: 4 * 1024,
  jsonDepth: 10_000,
  unknownFields: 2_000,
  /** the documented maximum of an error body */
  errorBodyBytes: 4096,
} as const;

const impossibleDates = ['10000-01-01', '+010000-01-01', '2026-02-30', '2027-02-29', '2026-13-01'];
const staticPaths = [
  '/docs/assets/__proto__',
  '/docs/assets/constructor',
  '/docs/assets/hasOwnProperty',
  '/docs/assets/%2e%2e',
  '/docs/assets/%2e%2e%2fpackage.json',
  '/docs/assets/..%2f..%2fpackage.json',
  '/docs/asyncapi/assets/__proto__',
  '/docs/__proto__',
  '/__proto__',
  '/constructor',
];

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');
const typesOf = (schema: JsonObject): Json[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** Spellings of `value` that a lax server would read as that number, none of them canonical. */
function nonCanonical(value: number): string[] {
  return [`0${value}`, `+${value}`, `${value}.0`, `0x${value.toString(16)}`, ` ${value}`, `${value}e0`];
}

export async function runRobustnessPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('robustness');
  const openapi = ctx.spec.openapi;
  // Operations the runner's members may call; ADMIN-only ones answer 403 before looking at input.
  const operations = ctx.spec.operations.filter((op) => !op.requiredRole && op.operationId !== 'logout');

  /** Sends an operation request, applies the standard checks, then `check` with `problem`'s verdict. */
  async function expectFor(check: CheckName, request: ProbeRequest, problem: (res: ProbeResponse) => string | null): Promise<void> {
    const response = await sendChecked(ctx, recorder, request);
    const verdict = problem(response);
    recorder.check(verdict === null, check, request.operationId, verdict ?? '', curlOf(ctx.target, request));
  }

  const small4xx = (what: string) => (res: ProbeResponse) =>
    res.status < 400 || res.status >= 500
      ? `${what}: expected a 4xx, got ${res.status}`
      : res.oversized !== undefined
        ? `${what}: the ${res.status} body is over the runner's limit (${res.oversized})`
        : byteLength(res.text) > robustnessBounds.errorBodyBytes
          ? `${what}: the ${res.status} body is ${byteLength(res.text)} bytes, over ${robustnessBounds.errorBodyBytes}`
          : null;
  const badRequestNaming = (what: string, field: string) => (res: ProbeResponse) => {
    if (res.status !== 400) return `${what}: expected 400, got ${res.status}`;
    const fields = arrayOrEmpty(dataAt(res, 'errors')).map((e) => jsonAt(e, 'field'));
    return fields.includes(field) ? null : `${what}: 400 without an error for ${field} (errors name ${JSON.stringify(fields)})`;
  };

  const bodyProperties = (op: OperationFact): [string, JsonObject][] => {
    const schema = op.body ? resolveObject(openapi, op.body.schema) : {};
    return Object.entries(objectOrEmpty(schema.properties)).map(([name, raw]) => [name, resolveObject(openapi, raw)]);
  };
  const withBody = (op: OperationFact, change: (body: Record<string, unknown>) => void): ProbeRequest => {
    const base = exampleRequest(op, ctx.a);
    const body = structuredClone((base.body ?? {}) as Record<string, unknown>);
    change(body);
    return { ...base, body };
  };
  const bodyOperations = operations.filter((op) => op.body && resolveObject(openapi, op.body.schema).type === 'object');

  // Oversized arrays and strings: a 4xx with a small body.
  for (const op of bodyOperations) {
    for (const [name, schema] of bodyProperties(op)) {
      const types = typesOf(schema);
      if (types.includes('array')) {
        const items = Array.from({ length: robustnessBounds.arrayItems }, (_, i) => `conformance-${i}`);
        await expectFor(
          'size_limit',
          withBody(op, (b) => (b[name] = items)),
          small4xx(`${name} with ${items.length} distinct items`),
        );
      }
      if (types.includes('string')) {
        await expectFor(
          'size_limit',
          withBody(op, (b) => (b[name] = 'x'.repeat(robustnessBounds.stringBytes))),
          small4xx(`${name} of ${robustnessBounds.stringBytes} characters`),
        );
      }
    }
  }
  for (const op of operations) {
    for (const p of op.parameters.filter((p) => p.in === 'query' && typesOf(resolveObject(openapi, p.schema)).includes('string'))) {
      const request = { ...exampleRequest(op, ctx.a), query: { [p.name]: 'x'.repeat(robustnessBounds.queryValueBytes) } };
      await expectFor('size_limit', request, small4xx(`query ${p.name} of ${robustnessBounds.queryValueBytes} characters`));
    }
  }

  // Error bodies stay within 4 KiB whatever the input.
  for (const op of bodyOperations) {
    const unknownKey = 'k'.repeat(robustnessBounds.stringBytes);
    await expectFor(
      'error_body_size',
      withBody(op, (b) => (b[unknownKey] = 1)),
      small4xx(`an unknown field with a ${unknownKey.length}-character name`),
    );
    await expectFor(
      'error_body_size',
      withBody(op, (b) => {
        for (let i = 0; i < robustnessBounds.unknownFields; i++) b[`conformanceField${i}`] = 'v'.repeat(32);
      }),
      small4xx(`${robustnessBounds.unknownFields} unknown fields`),
    );
    await expectFor(
      'error_body_size',
      withBody(op, (b) => {
        for (const [name] of bodyProperties(op)) b[name] = { nested: 'w'.repeat(robustnessBounds.stringBytes / 4) };
      }),
      small4xx('every field an object holding a long string'),
    );
  }
  {
    const request: ProbeRequest = {
      operationId: 'unknown route',
      method: 'GET',
      path: `/api/v1/${'p'.repeat(robustnessBounds.queryValueBytes)}`,
      token: ctx.a.token,
    };
    const response = await send(ctx.target, request);
    recorder.report.requests++;
    const verdict = small4xx(`an unknown path of ${request.path.length} characters`)(response);
    recorder.check(verdict === null, 'error_body_size', 'unknown route', verdict ?? '', curlOf(ctx.target, request));
  }

  // Impossible dates, and a trip that would end after 9999-12-31.
  for (const op of bodyOperations) {
    for (const [name] of bodyProperties(op).filter(([, schema]) => schema.format === 'date')) {
      for (const date of impossibleDates)
        await expectFor(
          'date_rejected',
          withBody(op, (b) => (b[name] = date)),
          badRequestNaming(`${name} ${date}`, `body.${name}`),
        );
      const durationMaximum = numberOrUndefined(bodyProperties(op).find(([n]) => n === 'duration')?.[1].maximum);
      if (durationMaximum !== undefined && durationMaximum > 1) {
        await expectFor(
          'date_rejected',
          withBody(op, (b) => ((b[name] = '9999-12-31'), (b.duration = durationMaximum))),
          badRequestNaming(`${name} 9999-12-31 for ${durationMaximum} days`, `body.${name}`),
        );
      }
    }
  }

  // Deep JSON: 400 COMMON002. An operation the server leaves out (the spec lets it: dev-login when
  // off, OpenID Connect sign-in when not configured) answers 404 COMMON404 to anything: not a failure.
  const leftOut = (op: OperationFact, res: ProbeResponse) =>
    res.status === 404 && dataAt(res, 'code') === 'COMMON404' && !op.parameters.some((p) => p.in === 'path') && op.responses.some((r) => r.status === 404);
  const deep = `${'['.repeat(robustnessBounds.jsonDepth)}${']'.repeat(robustnessBounds.jsonDepth)}`;
  for (const op of operations.filter((o) => o.body)) {
    await expectFor('deep_json_rejected', { ...exampleRequest(op, ctx.a), body: undefined, rawBody: deep }, (res) =>
      (res.status === 400 && dataAt(res, 'code') === 'COMMON002') || leftOut(op, res)
        ? null
        : `arrays nested ${robustnessBounds.jsonDepth} deep: expected 400 COMMON002, got ${res.status} ${jsonText(dataAt(res, 'code') ?? '')}`,
    );
  }

  // Prototype keys and encoded dot segments in static paths: 404.
  for (const rawPath of staticPaths) {
    const response = await getRawPath(ctx.target, rawPath);
    recorder.report.requests++;
    const replay = `curl -i --path-as-is '${ctx.target.baseUrl}${rawPath}'`;
    recorder.check(response.status === 404, 'static_path_404', rawPath, `expected 404, got ${response.status}: ${excerpt(response, 200)}`, replay);
    if (response.oversized !== undefined) recorder.check(false, 'response_size', rawPath, `status ${response.status}: ${response.oversized}`, replay);
  }

  // Non-canonical integer parameters: 400 naming the parameter.
  for (const op of operations.filter((o) => o.secured)) {
    const integers = op.parameters.filter((p) => typesOf(resolveObject(openapi, p.schema)).includes('integer'));
    if (integers.length === 0) continue;
    // A lax server would act on the id: a deletion gets a plan of its own.
    const member = op.method === 'delete' ? { ...ctx.a, ...(await createTripPlan(ctx, ctx.a.token)) } : ctx.a;
    for (const p of integers) {
      const schema = resolveObject(openapi, p.schema);
      const value =
        p.name === 'tripPlanId' || p.name === 'cursor'
          ? member.tripPlanId
          : p.name === 'chatRoomId'
            ? member.chatRoomId
            : Math.max(1, numberOrUndefined(schema.minimum) ?? 1);
      const spellings = [...nonCanonical(value), ...((numberOrUndefined(schema.maximum) ?? 0) >= Number.MAX_SAFE_INTEGER ? ['9007199254740993'] : [])];
      for (const text of spellings) {
        const base = exampleRequest(op, member);
        const request = p.in === 'path' ? { ...base, path: pathFor(op, member, { [p.name]: text }) } : { ...base, query: { [p.name]: text } };
        await expectFor('canonical_id', request, badRequestNaming(`${p.in} ${p.name}=${JSON.stringify(text)}`, `${p.in}.${p.name}`));
      }
    }
  }

  // A documented query parameter given twice: 400 naming it.
  for (const op of operations) {
    for (const p of op.parameters.filter((q) => q.in === 'query')) {
      const value = resolveObject(openapi, p.schema).default;
      if (value === undefined) continue;
      const rawQuery = `${p.name}=${encodeURIComponent(jsonText(value))}&${p.name}=${encodeURIComponent(jsonText(value))}`;
      await expectFor('repeated_query_param', { ...exampleRequest(op, ctx.a), rawQuery }, badRequestNaming(`?${rawQuery}`, `query.${p.name}`));
    }
  }

  // A region the planner does not support: 400 TRIP107 (createTripPlanSession, listRegions).
  if (ctx.spec.operations.some((o) => o.operationId === 'listRegions')) {
    const list = ctx.spec.operation('listRegions');
    const listed = await send(ctx.target, { operationId: list.operationId, method: 'GET', path: list.path });
    recorder.report.requests++;
    if (dataAt(listed, 'acceptsAnyRegion') === true) {
      recorder.check(true, 'unknown_region', 'createTripPlanSession', '', '');
    } else {
      const names = arrayOrEmpty(dataAt(listed, 'regions')).flatMap((r) => [jsonAt(r, 'name'), ...arrayOrEmpty(jsonAt(r, 'aliases'))]);
      const known = new Set(names.filter((n) => typeof n === 'string').map((n) => n.toLowerCase()));
      const region = ['Atlantis', 'Conformance Atlantis', 'Nowhere 9'].find((r) => !known.has(r.toLowerCase()))!;
      const op = ctx.spec.operation('createTripPlanSession');
      await expectFor('unknown_region', { ...exampleRequest(op, ctx.a), body: { ...ctx.tripExample, region } }, (res) =>
        res.status === 400 && dataAt(res, 'code') === 'TRIP107'
          ? null
          : `region ${region}: expected 400 TRIP107, got ${res.status} ${jsonText(dataAt(res, 'code') ?? '')}`,
      );
    }
  }
  return recorder;
}
