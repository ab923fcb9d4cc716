// Phase "negative": inputs that violate the schema — a missing required field, an unknown field, a
// wrong type, a value out of range, malformed JSON, an invalid path or query parameter. Each must
// be rejected with a documented 4xx: never a 2xx, never a 5xx. When the answer lists the failing
// fields (a code marked `x-field-errors`), the one the runner broke must be among them, named as
// FieldError names fields: `body.duration`, `query.size`, `path.tripPlanId`.
import fc from 'fast-check';
import { arrayOrEmpty, jsonAt, jsonText, numberOrUndefined, objectOrEmpty, resolveObject, type JsonObject, type OperationFact } from '../../specModel/index.js';
import { PhaseRecorder } from '../checks.js';
import { curlOf, dataAt, type ProbeRequest, type ProbeResponse } from '../httpProbe.js';
import { pathFor, sendChecked, type RunContext } from '../runContext.js';
import { requestArbitrary } from './positive.js';

/** A way to break a valid request, and the field it breaks (as FieldError names it) when it breaks one. */
type Mutation = { name: string; field?: string; apply(request: ProbeRequest): ProbeRequest | null };

function objectSchema(ctx: RunContext, op: OperationFact): JsonObject | null {
  if (!op.body) return null;
  const schema = resolveObject(ctx.spec.openapi, op.body.schema);
  return schema.type === 'object' ? schema : null;
}

function mutations(ctx: RunContext, op: OperationFact): Mutation[] {
  const list: Mutation[] = [];
  const schema = objectSchema(ctx, op);
  const withBody = (request: ProbeRequest, change: (body: Record<string, unknown>) => void) => {
    const body = structuredClone((request.body ?? {}) as Record<string, unknown>);
    change(body);
    return { ...request, body };
  };
  if (op.body) {
    list.push({ name: 'malformed JSON', apply: (r) => ({ ...r, body: undefined, rawBody: '{"unterminated": ' }) });
    list.push({ name: 'a JSON array instead of an object', field: 'body', apply: (r) => ({ ...r, body: [r.body] }) });
  }
  if (schema) {
    for (const field of arrayOrEmpty(schema.required).filter((name) => typeof name === 'string'))
      list.push({ name: `missing required ${field}`, field: `body.${field}`, apply: (r) => withBody(r, (b) => delete b[field]) });
    if (schema.additionalProperties === false)
      list.push({ name: 'unknown field', field: 'body.conformanceUnknownField', apply: (r) => withBody(r, (b) => (b.conformanceUnknownField = 1)) });
    for (const [field, raw] of Object.entries(objectOrEmpty(schema.properties))) {
      const property = resolveObject(ctx.spec.openapi, raw);
      const types = Array.isArray(property.type) ? property.type : [property.type];
      const named = `body.${field}`;
      list.push({
        name: `wrong type for ${field}`,
        field: named,
        apply: (r) => withBody(r, (b) => (b[field] = types.includes('string') ? { not: 'a string' } : 'not-a-number')),
      });
      const maximum = numberOrUndefined(property.maximum);
      const minimum = numberOrUndefined(property.minimum);
      const maxLength = numberOrUndefined(property.maxLength);
      const maxItems = numberOrUndefined(property.maxItems);
      if (maximum !== undefined) list.push({ name: `${field} above maximum`, field: named, apply: (r) => withBody(r, (b) => (b[field] = maximum + 1)) });
      if (minimum !== undefined) list.push({ name: `${field} below minimum`, field: named, apply: (r) => withBody(r, (b) => (b[field] = minimum - 1)) });
      if (maxLength !== undefined)
        list.push({ name: `${field} too long`, field: named, apply: (r) => withBody(r, (b) => (b[field] = 'x'.repeat(maxLength + 1))) });
      if (maxItems !== undefined)
        list.push({
          name: `${field} too many items`,
          field: named,
          apply: (r) => withBody(r, (b) => (b[field] = Array.from({ length: maxItems + 1 }, (_, i) => i))),
        });
      if (property.enum) list.push({ name: `${field} not in enum`, field: named, apply: (r) => withBody(r, (b) => (b[field] = 'NOT_A_MEMBER')) });
    }
  }
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    for (const bad of ['0', '-1', 'abc', '1.5'])
      list.push({ name: `path ${p.name}=${bad}`, field: `path.${p.name}`, apply: (r) => ({ ...r, path: pathFor(op, ctx.a, { [p.name]: bad }) }) });
  }
  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    const schema = resolveObject(ctx.spec.openapi, p.schema);
    const field = `query.${p.name}`;
    if (schema.type === 'integer') {
      list.push({ name: `query ${p.name}=abc`, field, apply: (r) => ({ ...r, query: { ...r.query, [p.name]: 'abc' } }) });
      const maximum = numberOrUndefined(schema.maximum);
      const minimum = numberOrUndefined(schema.minimum);
      if (maximum !== undefined)
        list.push({ name: `query ${p.name} above maximum`, field, apply: (r) => ({ ...r, query: { ...r.query, [p.name]: String(maximum + 1) } }) });
      if (minimum !== undefined)
        list.push({ name: `query ${p.name} below minimum`, field, apply: (r) => ({ ...r, query: { ...r.query, [p.name]: String(minimum - 1) } }) });
    }
    if (schema.pattern) list.push({ name: `query ${p.name} not matching its pattern`, field, apply: (r) => ({ ...r, query: { ...r.query, [p.name]: '!!' } }) });
  }
  return list;
}

/**
 * When the answer lists the failing fields, the broken one must be among them (or a part of it,
 * `body.themes[2]` for `body.themes`). An answer without a list is error_fields' to judge.
 */
function checkFieldNamed(ctx: RunContext, recorder: PhaseRecorder, mutation: Mutation, request: ProbeRequest, response: ProbeResponse): void {
  const code = dataAt(response, 'code');
  const errors = dataAt(response, 'errors');
  if (!ctx.spec.errorCodes.some((c) => c.fieldErrors && c.code === code) || !Array.isArray(errors) || errors.length === 0) return;
  const field = mutation.field!;
  const named = errors.map((e) => jsonAt(e, 'field'));
  const held = named.some((name) => typeof name === 'string' && (name === field || name.startsWith(`${field}.`) || name.startsWith(`${field}[`)));
  recorder.check(
    held,
    'field_named',
    request.operationId,
    `${mutation.name}: ${response.status} ${jsonText(code)} does not name ${field} in errors (it names ${JSON.stringify(named)})`,
    curlOf(ctx.target, request),
  );
}

export async function runNegativePhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('negative');
  for (const [index, op] of ctx.spec.operations.entries()) {
    if (op.operationId === 'logout') continue;
    const list = mutations(ctx, op);
    if (list.length === 0) continue;
    // Mutate valid requests: one valid base per mutation, all mutations tried, up to the budget.
    const bases = fc.sample(requestArbitrary(ctx, op, [ctx.a.tripPlanId, ctx.a.chatRoomId]), {
      seed: ctx.options.seed + 1000 + index,
      numRuns: Math.max(list.length, ctx.options.maxExamples),
    });
    const budget = Math.max(list.length, ctx.options.maxExamples);
    for (let i = 0; i < budget; i++) {
      const mutation = list[i % list.length]!;
      const request = mutation.apply(bases[i % bases.length]!);
      if (!request) continue;
      const response = await sendChecked(ctx, recorder, request);
      recorder.check(
        response.status >= 400 && response.status < 500,
        'negative_rejected',
        op.operationId,
        `${mutation.name}: expected a 4xx, got ${response.status}`,
        curlOf(ctx.target, request),
      );
      if (mutation.field !== undefined) checkFieldNamed(ctx, recorder, mutation, request, response);
    }
  }
  return recorder;
}
