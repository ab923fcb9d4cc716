// "Try it out" in Swagger UI works for every GET with the values it prefills. Swagger UI 5 prefills
// each parameter (parameter-row's setDefaultValue, OpenAPI 3 branch) with the first of: the value
// of the first entry of `examples`, `content.<type>.example`, `example`, the schema's `example`,
// the schema's `default`. A JSON Schema `examples` array on the schema is shown, not prefilled.
// So every example must be a valid value, and a GET sent with the prefilled values must not fail
// validation for a signed-in member who has no data yet (a 404 for an id they do not own is fine).
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addSpecFormats,
  arrayOrEmpty,
  jsonAt,
  jsonText,
  objectOrEmpty,
  readOperations,
  readYaml,
  rebaseRefs,
  resolveObject,
  type Json,
  type JsonObject,
} from '../../conformance/specModel/index.js';
import { fillTemplate } from '../../src/text/fillTemplate.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

const spec = readYaml(path.resolve(import.meta.dirname, '../../specs/openapi.yaml'));
const operations = readOperations(spec);

/** Every parameter object of an operation, resolved (path-level ones first, as OpenAPI merges them). */
function parametersOf(operationPath: string, method: string): JsonObject[] {
  const item = resolveObject(spec, jsonAt(spec, 'paths', operationPath));
  const byKey = new Map<string, JsonObject>();
  for (const raw of [...arrayOrEmpty(item.parameters), ...arrayOrEmpty(jsonAt(item, method, 'parameters'))]) {
    const parameter = resolveObject(spec, raw);
    byKey.set(`${jsonText(parameter.in)}:${jsonText(parameter.name)}`, parameter);
  }
  return [...byKey.values()];
}

/** The value Swagger UI 5 puts into the parameter's field, or undefined when it leaves it empty. */
function swaggerPrefill(parameter: JsonObject): Json | undefined {
  const firstExample = Object.values(objectOrEmpty(parameter.examples))[0];
  const schema = resolveObject(spec, parameter.schema ?? {});
  const mediaExample = jsonAt(Object.values(objectOrEmpty(parameter.content))[0], 'example');
  return firstExample !== undefined ? resolveObject(spec, firstExample).value : (mediaExample ?? parameter.example ?? schema.example ?? schema.default);
}

/** Every example a parameter carries, each named by where it is written. */
function examplesOf(parameter: JsonObject): [string, Json | undefined][] {
  const schema = resolveObject(spec, parameter.schema ?? {});
  return [
    ...(parameter.example !== undefined ? [['example', parameter.example] as [string, Json]] : []),
    ...Object.entries(objectOrEmpty(parameter.examples)).map(([name, example]): [string, Json | undefined] => [`examples.${name}`, resolveObject(spec, example).value]),
    ...Object.entries(objectOrEmpty(parameter.content)).flatMap(([type, media]): [string, Json][] => {
      const example = jsonAt(media, 'example');
      return example !== undefined ? [[`content.${type}.example`, example]] : [];
    }),
    ...(schema.example !== undefined ? [['schema.example', schema.example] as [string, Json]] : []),
    ...arrayOrEmpty(schema.examples).map((value, i): [string, Json] => [`schema.examples[${i}]`, value]),
    ...(schema.default !== undefined ? [['schema.default', schema.default] as [string, Json]] : []),
  ];
}

const ajv = addSpecFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema({ $id: 'urn:spec:openapi', components: objectOrEmpty(spec.components) });

const allParameters = new Map<string, JsonObject>();
for (const op of operations)
  for (const parameter of parametersOf(op.path, op.method)) allParameters.set(`${jsonText(parameter.in)} ${jsonText(parameter.name)} of ${op.operationId}`, parameter);
const exampleCases = [...allParameters].flatMap(([where, parameter]) => examplesOf(parameter).map(([name, value]) => [`${where}: ${name}`, parameter, value] as const));

describe('parameter examples', () => {
  it('there are examples to check', () => expect(exampleCases.length).toBeGreaterThan(5));

  it.each(exampleCases)('%s is valid against the parameter schema', (_name, parameter, value) => {
    const validate = ajv.compile(objectOrEmpty(rebaseRefs(parameter.schema, 'urn:spec:openapi')));
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
    const missing = parameters.filter((p) => p.required && prefilled.get(p) === undefined).map((p) => `${jsonText(p.in)} ${jsonText(p.name)}`);
    expect(missing, 'required parameters Swagger UI leaves empty (Execute would refuse)').toEqual([]);

    const valueOf = (p: JsonObject | undefined) => jsonText(p && prefilled.get(p));
    const filled = parameters.filter((p) => prefilled.get(p) !== undefined);
    const url = fillTemplate(op.path, (name) => valueOf(filled.find((p) => p.in === 'path' && p.name === name)));
    const query = Object.fromEntries(filled.filter((p) => p.in === 'query').map((p) => [jsonText(p.name), valueOf(p)]));
    const headers = Object.fromEntries(filled.filter((p) => p.in === 'header').map((p) => [jsonText(p.name), valueOf(p)]));
    const token = !op.secured ? undefined : op.requiredRole === 'ADMIN' ? admin : member;
    const res = await t.request('GET', url, { token, query, headers });
    expect(res.status, `${op.operationId} ${url} ${JSON.stringify(query)}: ${res.text.slice(0, 300)}`).not.toBe(400);
    expect([200, 404], `${op.operationId}: ${res.text.slice(0, 300)}`).toContain(res.status);
  });
});
