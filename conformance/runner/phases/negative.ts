// Phase "negative": inputs that violate the schema — a missing required field, an unknown field, a
// wrong type, a value out of range, malformed JSON, an invalid path or query parameter. Each must
// be rejected with a documented 4xx: never a 2xx, never a 5xx.
import fc from 'fast-check';
import { arrayOrEmpty, numberOrUndefined, objectOrEmpty, resolveObject, type JsonObject, type OperationFact } from '../../specModel/index.js';
import { PhaseRecorder } from '../checks.js';
import { curlOf, type ProbeRequest } from '../httpProbe.js';
import { pathFor, sendChecked, type RunContext } from '../runContext.js';
import { requestArbitrary } from './positive.js';

type Mutation = { name: string; apply(request: ProbeRequest): ProbeRequest | null };

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
    list.push({ name: 'a JSON array instead of an object', apply: (r) => ({ ...r, body: [r.body] }) });
  }
  if (schema) {
    for (const field of arrayOrEmpty(schema.required).filter((name) => typeof name === 'string'))
      list.push({ name: `missing required ${field}`, apply: (r) => withBody(r, (b) => delete b[field]) });
    if (schema.additionalProperties === false) list.push({ name: 'unknown field', apply: (r) => withBody(r, (b) => (b.conformanceUnknownField = 1)) });
    for (const [field, raw] of Object.entries(objectOrEmpty(schema.properties))) {
      const property = resolveObject(ctx.spec.openapi, raw);
      const types = Array.isArray(property.type) ? property.type : [property.type];
      list.push({
        name: `wrong type for ${field}`,
        apply: (r) => withBody(r, (b) => (b[field] = types.includes('string') ? { not: 'a string' } : 'not-a-number')),
      });
      const maximum = numberOrUndefined(property.maximum);
      const minimum = numberOrUndefined(property.minimum);
      const maxLength = numberOrUndefined(property.maxLength);
      const maxItems = numberOrUndefined(property.maxItems);
      if (maximum !== undefined) list.push({ name: `${field} above maximum`, apply: (r) => withBody(r, (b) => (b[field] = maximum + 1)) });
      if (minimum !== undefined) list.push({ name: `${field} below minimum`, apply: (r) => withBody(r, (b) => (b[field] = minimum - 1)) });
      if (maxLength !== undefined) list.push({ name: `${field} too long`, apply: (r) => withBody(r, (b) => (b[field] = 'x'.repeat(maxLength + 1))) });
      if (maxItems !== undefined)
        list.push({
          name: `${field} too many items`,
          apply: (r) => withBody(r, (b) => (b[field] = Array.from({ length: maxItems + 1 }, (_, i) => i))),
        });
      if (property.enum) list.push({ name: `${field} not in enum`, apply: (r) => withBody(r, (b) => (b[field] = 'NOT_A_MEMBER')) });
    }
  }
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    for (const bad of ['0', '-1', 'abc', '1.5'])
      list.push({ name: `path ${p.name}=${bad}`, apply: (r) => ({ ...r, path: pathFor(op, ctx.a, { [p.name]: bad }) }) });
  }
  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    const schema = resolveObject(ctx.spec.openapi, p.schema);
    if (schema.type === 'integer') {
      list.push({ name: `query ${p.name}=abc`, apply: (r) => ({ ...r, query: { ...r.query, [p.name]: 'abc' } }) });
      const maximum = numberOrUndefined(schema.maximum);
      const minimum = numberOrUndefined(schema.minimum);
      if (maximum !== undefined)
        list.push({ name: `query ${p.name} above maximum`, apply: (r) => ({ ...r, query: { ...r.query, [p.name]: String(maximum + 1) } }) });
      if (minimum !== undefined)
        list.push({ name: `query ${p.name} below minimum`, apply: (r) => ({ ...r, query: { ...r.query, [p.name]: String(minimum - 1) } }) });
    }
    if (schema.pattern) list.push({ name: `query ${p.name} not matching its pattern`, apply: (r) => ({ ...r, query: { ...r.query, [p.name]: '!!' } }) });
  }
  return list;
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
    }
  }
  return recorder;
}
