// "Try it out" in Swagger UI works for every GET with the values it prefills. Swagger UI 5 prefills
// each parameter (parameter-row's setDefaultValue, OpenAPI 3 branch) with the first of: the value
// of the first entry of `examples`, `content.<type>.example`, `example`, the schema's `example`,
// the schema's `default`. A JSON Schema `examples` array on the schema is shown, not prefilled.
// So every example must be a valid value, and a GET sent with the prefilled values must not fail
// validation for a signed-in member who has no data yet (a 404 for an id they do not own is fine).
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSpecFormats, readOperations, readYaml, rebaseRefs, resolveRef } from '../../conformance/specModel/index.js';
import { fillTemplate } from '../../src/text/fillTemplate.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

type Json = any;
const spec: Json = readYaml(path.resolve(import.meta.dirname, '../../specs/openapi.yaml'));
const operations = readOperations(spec);

/** Every parameter object of an operation, resolved (path-level ones first, as OpenAPI merges them). */
function parametersOf(operationPath: string, method: string): Json[] {
  const item = resolveRef(spec, spec.paths[operationPath]);
  const byKey = new Map<string, Json>();
  for (const raw of [...(item.parameters ?? []), ...(item[method].parameters ?? [])]) {
    const parameter = resolveRef(spec, raw);
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

/** The value Swagger UI 5 puts into the parameter's field, or undefined when it leaves it empty. */
function swaggerPrefill(parameter: Json): unknown {
  const firstExample = Object.values<Json>(parameter.examples ?? {})[0];
  const schema = resolveRef(spec, parameter.schema ?? {});
  const mediaExample = Object.values<Json>(parameter.content ?? {})[0]?.example;
  return firstExample !== undefined ? resolveRef(spec, firstExample).value : mediaExample ?? parameter.example ?? schema.example ?? schema.default;
}

/** Every example a parameter carries, each named by where it is written. */
function examplesOf(parameter: Json): [string, unknown][] {
  const schema = resolveRef(spec, parameter.schema ?? {});
  return [
    ...(parameter.example !== undefined ? [['example', parameter.example] as [string, unknown]] : []),
    ...Object.entries<Json>(parameter.examples ?? {}).map(([name, example]): [string, unknown] => [`examples.${name}`, resolveRef(spec, example).value]),
    ...Object.entries<Json>(parameter.content ?? {}).flatMap(([type, media]): [string, unknown][] => (media.example !== undefined ? [[`content.${type}.example`, media.example]] : [])),
    ...(schema.example !== undefined ? [['schema.example', schema.example] as [string, unknown]] : []),
    ...(schema.examples ?? []).map((value: unknown, i: number): [string, unknown] => [`schema.examples[${i}]`, value]),
    ...(schema.default !== undefined ? [['schema.default', schema.default] as [string, unknown]] : []),
  ];
}

const ajv = addSpecFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema({ $id: 'urn:spec:openapi', components: spec.components });

const allParameters = new Map<string, Json>();
for (const op of operations) for (const parameter of parametersOf(op.path, op.method)) allParameters.set(`${parameter.in} ${parameter.name} of ${op.operationId}`, parameter);
const exampleCases = [...allParameters].flatMap(([where, parameter]) => examplesOf(parameter).map(([name, value]) => [`${where}: ${name}`, parameter, value] as const));

describe('parameter examples', () => {
  it('there are examples to check', () => expect(exampleCases.length).toBeGreaterThan(5));

  it.each(exampleCases)('%s is valid against the parameter schema', (_name, parameter, value) => {
    const validate = ajv.compile(rebaseRefs(parameter.schema, 'urn:spec:openapi'));
    expect(validate(value) ? [] : validate.errors).toEqual([]);
  });
});

describe('"Try it out" with the prefilled values', () => {
  let t: TestApp;
  let member: string;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    member = (await t.signIn('fresh@example.com')).accessToken;
    admin = (await t.signInAdmin('fresh-admin@example.com')).accessToken;
  });
  afterAll(() => t.close());

  const gets = operations.filter((op) => op.method === 'get');
  it.each(gets.map((op) => [op.operationId, op] as const))('%s: no 400 for a signed-in member with no data', async (_id, op) => {
    const parameters = parametersOf(op.path, op.method);
    const prefilled = new Map(parameters.map((p) => [p, swaggerPrefill(p)]));
    const missing = parameters.filter((p) => p.required && prefilled.get(p) === undefined).map((p) => `${p.in} ${p.name}`);
    expect(missing, 'required parameters Swagger UI leaves empty (Execute would refuse)').toEqual([]);

    const valueOf = (p: Json) => String(prefilled.get(p));
    const filled = parameters.filter((p) => prefilled.get(p) !== undefined);
    const url = fillTemplate(op.path, (name) => valueOf(filled.find((p) => p.in === 'path' && p.name === name)));
    const query = Object.fromEntries(filled.filter((p) => p.in === 'query').map((p) => [p.name, valueOf(p)]));
    const headers = Object.fromEntries(filled.filter((p) => p.in === 'header').map((p) => [p.name, valueOf(p)]));
    const token = !op.secured ? undefined : op.requiredRole === 'ADMIN' ? admin : member;
    const res = await t.request('GET', url, { token, query, headers });
    expect(res.status, `${op.operationId} ${url} ${JSON.stringify(query)}: ${res.text.slice(0, 300)}`).not.toBe(400);
    expect([200, 404], `${op.operationId}: ${res.text.slice(0, 300)}`).toContain(res.status);
  });
});
